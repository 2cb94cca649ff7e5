using System;
using System.Collections;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>
    /// How a [TetherTool] method is called: which parameters it takes ((Args, IToolContext),
    /// (Args), (IToolContext) or ()), and what it returns (T, Task&lt;T&gt;, Task or void).
    /// </summary>
    internal sealed class ToolMethod
    {
        private readonly MethodInfo _method;
        private readonly int _argumentsAt;
        private readonly int _contextAt;
        private readonly int _count;
        private readonly bool _returnsTask;
        private readonly PropertyInfo _taskResult;

        private ToolMethod(MethodInfo method, Type argumentsType, int argumentsAt, int contextAt, int count, bool returnsTask, PropertyInfo taskResult)
        {
            _method = method;
            ArgumentsType = argumentsType;
            _argumentsAt = argumentsAt;
            _contextAt = contextAt;
            _count = count;
            _returnsTask = returnsTask;
            _taskResult = taskResult;
        }

        /// <summary>The argument class, or null when the method takes none.</summary>
        public Type ArgumentsType { get; }

        /// <summary>Reads the method's shape; throws ToolDefinitionException for one Tether cannot call.</summary>
        public static ToolMethod Of(MethodInfo method)
        {
            if (!method.IsStatic) throw new ToolDefinitionException("the method is not static (Tether calls a tool without an instance)");
            if (method.ContainsGenericParameters || method.DeclaringType?.ContainsGenericParameters == true)
            {
                throw new ToolDefinitionException("the method is generic, or declared in a generic type, so there is no one method to call");
            }
            var parameters = method.GetParameters();
            Type argumentsType = null;
            int argumentsAt = -1, contextAt = -1;
            for (var i = 0; i < parameters.Length; i++)
            {
                var type = parameters[i].ParameterType;
                if (type.IsByRef || parameters[i].IsOut) throw new ToolDefinitionException("its parameter \"" + parameters[i].Name + "\" is ref or out");
                if (type == typeof(IToolContext) && contextAt < 0) contextAt = i;
                else if (i == 0 && type != typeof(IToolContext)) { argumentsType = type; argumentsAt = 0; }
                else throw new ToolDefinitionException(Shapes);
            }
            if (parameters.Length == 2 && (argumentsAt != 0 || contextAt != 1)) throw new ToolDefinitionException(Shapes);

            var returns = method.ReturnType;
            if (returns.IsGenericType && returns.GetGenericTypeDefinition().FullName == "System.Threading.Tasks.ValueTask`1" || returns.FullName == "System.Threading.Tasks.ValueTask")
            {
                throw new ToolDefinitionException("it returns a ValueTask; return a Task or Task<T> instead");
            }
            if (typeof(IEnumerator).IsAssignableFrom(returns) && returns != typeof(string))
            {
                throw new ToolDefinitionException("it returns an IEnumerator (a coroutine?); a tool returns its result, or a Task of it");
            }
            var returnsTask = typeof(Task).IsAssignableFrom(returns);
            if (returnsTask && returns != typeof(Task) && !(returns.IsGenericType && returns.GetGenericTypeDefinition() == typeof(Task<>)))
            {
                throw new ToolDefinitionException("it returns " + SchemaGenerator.TypeName(returns) + "; return a Task or Task<T>");
            }
            var taskResult = returnsTask && returns.IsGenericType ? returns.GetProperty("Result") : null;
            return new ToolMethod(method, argumentsType, argumentsAt, contextAt, parameters.Length, returnsTask, taskResult);
        }

        private const string Shapes = "a tool method takes (ArgsClass args, IToolContext context), (ArgsClass args), (IToolContext context) or nothing";

        /// <summary>
        /// Calls the method on the calling thread (the main thread for a main-thread tool) and
        /// completes with what it returned. A method's exception keeps its own stack.
        /// </summary>
        public Task<object> Invoke(object arguments, IToolContext context)
        {
            var values = new object[_count];
            if (_argumentsAt >= 0) values[_argumentsAt] = arguments;
            if (_contextAt >= 0) values[_contextAt] = context;
            object returned;
            try
            {
                returned = _method.Invoke(null, values);
            }
            catch (TargetInvocationException wrapped) when (wrapped.InnerException != null)
            {
                return Task.FromException<object>(wrapped.InnerException);
            }
            catch (Exception error)
            {
                return Task.FromException<object>(error);
            }
            if (!_returnsTask) return Task.FromResult(returned);
            var task = (Task)returned;
            if (task == null) return Task.FromException<object>(new InvalidOperationException("The tool method returned a null Task."));
            // Read on the thread that completed the task, at once: a tool's task completed from a
            // Unity callback on the main thread (compilation finished, play mode entered) has its
            // result read there and journaled before the domain reload that follows in the same
            // frame (InlineContinuation says why an await would not). A tool whose task completes
            // on another thread returns plain data.
            return InlineContinuation.Then(task, finished => _taskResult?.GetValue(finished));
        }
    }
}
