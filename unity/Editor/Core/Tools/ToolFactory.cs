using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Makes RegisteredTools: from [TetherTool] methods (one, a type's, an assembly's), from
    /// a descriptor given as JSON and a handler, or from a definition and a function (tools
    /// that need state, such as the conformance kit). A tool declared wrongly is refused as
    /// it is made, with INTERNAL_ERROR naming the tool and the method, never later at a call.
    /// </summary>
    public static class ToolFactory
    {
        /// <summary>A [TetherTool] static method as a tool; throws INTERNAL_ERROR when it cannot be one.</summary>
        public static RegisteredTool FromMethod(MethodInfo method)
        {
            if (method == null) throw new ArgumentNullException(nameof(method));
            var origin = SchemaGenerator.TypeName(method.DeclaringType).Trim('"') + "." + method.Name;
            var definition = method.GetCustomAttribute<TetherToolAttribute>(false);
            if (definition == null) throw ToolDefinitionChecks.CannotAdd(method.Name, "the method has no [TetherTool] attribute", origin);
            ToolMethod shape;
            try
            {
                shape = ToolMethod.Of(method);
            }
            catch (ToolDefinitionException problem)
            {
                throw ToolDefinitionChecks.CannotAdd(definition.Name, problem.Message, origin);
            }
            return Build(definition, shape.ArgumentsType, origin, shape.Invoke);
        }

        /// <summary>Every [TetherTool] method a type declares (static, public or not), in declaration order; throws for the first refused.</summary>
        public static IEnumerable<RegisteredTool> FromType(Type type) => FromType(type, null);

        /// <summary>As FromType(type), telling <paramref name="refused"/> of each method refused instead of throwing.</summary>
        public static IEnumerable<RegisteredTool> FromType(Type type, Action<TetherException> refused)
        {
            if (type == null) throw new ArgumentNullException(nameof(type));
            return Collect(new[] { type }, refused, new HashSet<string>());
        }

        /// <summary>Every [TetherTool] method in an assembly; throws for the first refused. Types that fail to load are skipped.</summary>
        public static IEnumerable<RegisteredTool> FromAssembly(Assembly assembly) => FromAssembly(assembly, null);

        public static IEnumerable<RegisteredTool> FromAssembly(Assembly assembly, Action<TetherException> refused)
        {
            if (assembly == null) throw new ArgumentNullException(nameof(assembly));
            return Collect(TypesOf(assembly), refused, new HashSet<string>());
        }

        /// <summary>
        /// Every [TetherTool] method in these assemblies (Unity: the AppDomain's), skipping those
        /// that do not reference Tether. A second tool with a name already taken is refused
        /// (told to <paramref name="refused"/>, or thrown when it is null), so which tool a name
        /// means never depends on assembly load order.
        /// </summary>
        public static IReadOnlyList<RegisteredTool> FromAssemblies(IEnumerable<Assembly> assemblies, Action<TetherException> refused)
        {
            var names = new HashSet<string>();
            var tools = new List<RegisteredTool>();
            foreach (var assembly in assemblies.Where(a => a != null).OrderBy(a => a.FullName, StringComparer.Ordinal))
            {
                tools.AddRange(Collect(TypesOf(assembly), refused, names));
            }
            return tools;
        }

        /// <summary>
        /// A tool whose handler lives elsewhere (another thread, a script): the descriptor is
        /// checked and completed (annotations, execution), its input schema validates the
        /// arguments and its output schema, if any, the results.
        /// </summary>
        public static RegisteredTool FromDescriptor(JObject descriptor, ToolHandler handler)
        {
            if (descriptor == null) throw new ArgumentNullException(nameof(descriptor));
            if (handler == null) throw ToolDefinitionChecks.CannotAdd((string)descriptor["name"] ?? "", "it has no handler");
            var complete = ToolDefinitionChecks.Complete(descriptor);
            var name = (string)complete["name"];
            var validator = new ArgumentValidator(name, (JObject)complete["inputSchema"]);
            var toResult = ToolResults.Converter(name, complete["outputSchema"] as JObject);
            return new RegisteredTool(complete, validator.Validate, handler, toResult);
        }

        /// <summary>A tool from a definition and a function over typed arguments (TArgs: an argument class, NoArguments, or JObject).</summary>
        public static RegisteredTool Create<TArgs>(TetherToolAttribute definition, Func<TArgs, IToolContext, object> run)
        {
            if (run == null) throw new ArgumentNullException(nameof(run));
            return Build(definition, typeof(TArgs), null, (arguments, context) => Task.FromResult(run((TArgs)arguments, context)));
        }

        /// <summary>As Create, for an asynchronous function.</summary>
        public static RegisteredTool CreateAsync<TArgs>(TetherToolAttribute definition, Func<TArgs, IToolContext, Task<object>> run)
        {
            if (run == null) throw new ArgumentNullException(nameof(run));
            return Build(definition, typeof(TArgs), null, (arguments, context) => run((TArgs)arguments, context));
        }

        private static RegisteredTool Build(TetherToolAttribute definition, Type argumentsType, string origin, Func<object, IToolContext, Task<object>> invoke)
        {
            if (definition == null) throw new ArgumentNullException(nameof(definition));
            var problem = ToolDefinitionChecks.ProblemWith(definition);
            if (problem != null) throw ToolDefinitionChecks.CannotAdd(definition.Name, problem, origin);
            var name = definition.Name;
            JObject input, output;
            try
            {
                input = argumentsType == null
                    ? new JObject { ["type"] = "object", ["properties"] = new JObject(), ["additionalProperties"] = false }
                    : SchemaGenerator.ForRoot(argumentsType, input: true);
                output = definition.Output != null ? SchemaGenerator.ForRoot(definition.Output, input: false) : null;
            }
            catch (ToolDefinitionException schemaProblem)
            {
                throw ToolDefinitionChecks.CannotAdd(name, schemaProblem.Message, origin);
            }
            var descriptor = ToolDefinitionChecks.Descriptor(definition, input, output);
            var validator = new ArgumentValidator(name, input);
            var arguments = new ToolArguments(name, argumentsType);
            JObject Validate(JObject given)
            {
                var validated = validator.Validate(given);
                arguments.Read(validated); // a value the schema allows but the class cannot hold (an int past int.MaxValue) is refused now, not at run time
                return validated;
            }
            Task<object> Handle(JObject given, IToolContext context)
            {
                Task<object> running;
                try
                {
                    running = invoke(arguments.Read(given), context) ?? throw new InvalidOperationException("The tool returned a null Task.");
                }
                catch (Exception error)
                {
                    return Task.FromException<object>(error);
                }
                // Inline, on the completing thread: see ToolMethod.Invoke.
                return InlineContinuation.Then(running, finished => ToolResults.Prepare(((Task<object>)finished).Result, name));
            }
            return new RegisteredTool(descriptor, Validate, Handle, ToolResults.Converter(name, output));
        }

        private static IEnumerable<RegisteredTool> Collect(IEnumerable<Type> types, Action<TetherException> refused, HashSet<string> names)
        {
            var tools = new List<RegisteredTool>();
            foreach (var type in types)
            {
                foreach (var method in ToolMethods(type, refused))
                {
                    try
                    {
                        var tool = FromMethod(method);
                        if (!names.Add(tool.Name))
                        {
                            throw ToolDefinitionChecks.CannotAdd(tool.Name, "another tool already has that name", SchemaGenerator.TypeName(type).Trim('"') + "." + method.Name);
                        }
                        tools.Add(tool);
                    }
                    catch (TetherException error) when (refused != null)
                    {
                        refused(error);
                    }
                }
            }
            return tools;
        }

        private static IEnumerable<MethodInfo> ToolMethods(Type type, Action<TetherException> refused)
        {
            const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly;
            try
            {
                return type.GetMethods(all).Where(m => m.IsDefined(typeof(TetherToolAttribute), false)).OrderBy(m => m.MetadataToken).ToList();
            }
            catch (Exception error) when (error is TypeLoadException || error is System.IO.FileNotFoundException || error is System.IO.FileLoadException)
            {
                var problem = ToolDefinitionChecks.CannotAdd(type.Name, "its type " + SchemaGenerator.TypeName(type) + " could not be loaded (" + error.Message + ")");
                if (refused == null) throw problem;
                refused(problem);
                return Enumerable.Empty<MethodInfo>();
            }
        }

        /// <summary>An assembly's types, those that load; none for an assembly that cannot hold tools (it does not reference Tether).</summary>
        private static IEnumerable<Type> TypesOf(Assembly assembly)
        {
            if (assembly.IsDynamic || !MayDeclareTools(assembly)) return Enumerable.Empty<Type>();
            try
            {
                return assembly.GetTypes().OrderBy(t => t.MetadataToken).ToList();
            }
            catch (ReflectionTypeLoadException partial)
            {
                // Some types need assemblies that are missing (an optional package): the others still count.
                return partial.Types.Where(t => t != null).OrderBy(t => t.MetadataToken).ToList();
            }
        }

        private static bool MayDeclareTools(Assembly assembly)
        {
            var tether = typeof(TetherToolAttribute).Assembly;
            if (assembly == tether) return true;
            var name = tether.GetName().Name;
            try
            {
                return assembly.GetReferencedAssemblies().Any(reference => reference.Name == name);
            }
            catch (Exception)
            {
                return true;
            }
        }
    }
}
