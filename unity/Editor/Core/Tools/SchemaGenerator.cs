using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// JSON Schema (2020-12, no "$schema" key) for a tool's argument or result class, read by
    /// reflection as ToolArgAttribute describes. The members are those Newtonsoft reads and
    /// writes (ToolJson), named as it names them, in declaration order (base class first), so
    /// a schema is the same on every run and every OS.
    /// </summary>
    public static class SchemaGenerator
    {
        /// <summary>How deep nested classes may go: deeper than any argument class a person writes.</summary>
        private const int MaxNesting = 32;

        /// <summary>
        /// The input schema of an argument class: its members, "required" for those marked
        /// Required, "default" from a fresh instance's initializers, and
        /// "additionalProperties": false on every object, as the TypeScript host does for named
        /// arguments: Newtonsoft would silently drop a key the class does not name, so a
        /// misspelled argument is refused instead of ignored. A class with a [JsonExtensionData]
        /// member takes other keys, and says so by leaving additionalProperties out.
        /// JObject as the class: any object.
        /// </summary>
        public static JObject InputSchema(Type argumentsType) => Public(argumentsType, input: true);

        /// <summary>
        /// The output schema of a result class: its members, "required" for those marked Required
        /// and for value types (always written), no defaults and no additionalProperties, as zod
        /// writes a result object's schema.
        /// </summary>
        public static JObject OutputSchema(Type resultType) => Public(resultType, input: false);

        private static JObject Public(Type type, bool input)
        {
            if (type == null) throw new ArgumentNullException(nameof(type));
            try
            {
                return ForRoot(type, input);
            }
            catch (ToolDefinitionException problem)
            {
                var which = input ? "arguments" : "result";
                throw new TetherException(
                    ErrorCodes.InternalError,
                    "The type " + TypeName(type) + " cannot describe a tool's " + which + ": " + problem.Message + ".",
                    new JObject { ["type"] = type.FullName, ["problem"] = problem.Message });
            }
        }

        /// <summary>The schema of a tool's arguments or result type; throws ToolDefinitionException.</summary>
        internal static JObject ForRoot(Type type, bool input)
        {
            if (type == typeof(JObject)) return new JObject { ["type"] = "object" };
            var schema = new Generator(input).Describe(type, new Stack<Type>(), TypeName(type));
            if ((string)schema["type"] != "object" || schema["properties"] == null)
            {
                throw new ToolDefinitionException("a tool's " + (input ? "arguments" : "structured result") + " must be an object, so its type must be a class or struct with fields or properties (or JObject), not " + TypeName(type));
            }
            return schema;
        }

        internal static string TypeName(Type type)
        {
            if (type == null) return "null";
            if (!type.IsGenericType) return "\"" + (type.FullName ?? type.Name).Replace('+', '.') + "\"";
            var name = type.Name;
            var tick = name.IndexOf('`');
            if (tick >= 0) name = name.Substring(0, tick);
            return "\"" + name + "<" + string.Join(", ", type.GetGenericArguments().Select(t => TypeName(t).Trim('"'))) + ">\"";
        }

        private sealed class Generator
        {
            private readonly bool _input;

            public Generator(bool input)
            {
                _input = input;
            }

            /// <summary>The schema of a value of <paramref name="type"/>; <paramref name="where"/> names it in errors.</summary>
            public JObject Describe(Type type, Stack<Type> outer, string where)
            {
                var underlying = Nullable.GetUnderlyingType(type);
                if (underlying != null) type = underlying;
                var simple = SchemaTypes.Simple(type);
                if (simple != null) return simple;
                var element = SchemaTypes.ElementOf(type);
                if (element != null) return new JObject { ["type"] = "array", ["items"] = Describe(element, outer, where + " items") };
                var valueType = SchemaTypes.DictionaryValueOf(type, where);
                if (valueType != null)
                {
                    // As zod writes a record: "propertyNames" says only that the keys are strings
                    // (what every JSON key is), and keeps the two hosts' schemas equal.
                    return new JObject
                    {
                        ["type"] = "object",
                        ["propertyNames"] = new JObject { ["type"] = "string" },
                        ["additionalProperties"] = Describe(valueType, outer, where + " values"),
                    };
                }
                SchemaTypes.RefuseUnsupported(type, where);
                return DescribeObject(type, outer);
            }

            private JObject DescribeObject(Type type, Stack<Type> outer)
            {
                if (outer.Contains(type))
                {
                    var chain = string.Join(" → ", outer.Reverse().Concat(new[] { type }).Select(t => t.Name));
                    throw new ToolDefinitionException(SchemaGenerator.TypeName(type) + " contains itself (" + chain + "); describe recursive data as JObject or JToken");
                }
                if (outer.Count >= MaxNesting) throw new ToolDefinitionException("classes are nested more than " + MaxNesting + " levels deep at " + SchemaGenerator.TypeName(type));
                if (!(ToolJson.Serializer.ContractResolver.ResolveContract(type) is JsonObjectContract contract))
                {
                    throw new ToolDefinitionException(SchemaGenerator.TypeName(type) + " is not read as a JSON object by Newtonsoft.Json");
                }
                outer.Push(type);
                try
                {
                    var fresh = _input ? FreshInstance(type) : null;
                    var properties = new JObject();
                    var required = new JArray();
                    foreach (var member in Members(contract))
                    {
                        var memberType = member.Property.PropertyType;
                        var arg = member.Property.AttributeProvider?.GetAttributes(typeof(ToolArgAttribute), true).OfType<ToolArgAttribute>().FirstOrDefault();
                        var where = SchemaGenerator.TypeName(type) + "." + member.Property.UnderlyingName;
                        var schema = Describe(memberType, outer, where);
                        SchemaConstraints.Apply(schema, arg, memberType, where);
                        var isRequired = arg?.Required == true
                            || member.Property.Required == Required.Always
                            || member.Property.Required == Required.AllowNull
                            || (!_input && memberType.IsValueType && Nullable.GetUnderlyingType(memberType) == null);
                        var described = new JObject();
                        if (!string.IsNullOrEmpty(arg?.Description)) described["description"] = arg.Description;
                        if (_input && !isRequired && fresh != null)
                        {
                            var initial = member.Property.ValueProvider?.GetValue(fresh);
                            if (initial != null) described["default"] = DefaultOf(initial, where);
                        }
                        foreach (var pair in schema) described[pair.Key] = pair.Value;
                        properties[member.Property.PropertyName] = described;
                        if (isRequired) required.Add(member.Property.PropertyName);
                    }
                    var result = new JObject { ["type"] = "object", ["properties"] = properties };
                    if (required.Count > 0) result["required"] = required;
                    if (_input && contract.ExtensionDataSetter == null) result["additionalProperties"] = false;
                    return result;
                }
                finally
                {
                    outer.Pop();
                }
            }

            /// <summary>The members Newtonsoft reads (input) or writes (output), in declaration order.</summary>
            private IEnumerable<(JsonProperty Property, MemberInfo Member)> Members(JsonObjectContract contract)
            {
                var members = new List<(JsonProperty, MemberInfo)>();
                foreach (var property in contract.Properties)
                {
                    if (property.Ignored) continue;
                    if (_input ? !property.Writable : !property.Readable) continue;
                    members.Add((property, MemberOf(property)));
                }
                return members
                    .OrderBy(m => Depth(m.Item2?.DeclaringType))
                    .ThenBy(m => m.Item2?.MetadataToken ?? int.MaxValue)
                    .ToList();
            }

            private static MemberInfo MemberOf(JsonProperty property)
            {
                const BindingFlags flags = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
                return property.DeclaringType?.GetMember(property.UnderlyingName, MemberTypes.Field | MemberTypes.Property, flags).FirstOrDefault();
            }

            /// <summary>How many base classes a type has: a base class's members come first.</summary>
            private static int Depth(Type type)
            {
                var depth = 0;
                for (var t = type; t != null; t = t.BaseType) depth++;
                return depth;
            }

            private static object FreshInstance(Type type)
            {
                try
                {
                    return Activator.CreateInstance(type, nonPublic: true);
                }
                catch (MissingMethodException)
                {
                    throw new ToolDefinitionException(SchemaGenerator.TypeName(type) + " needs a constructor without parameters (arguments are read into a fresh instance)");
                }
                catch (TargetInvocationException error)
                {
                    throw new ToolDefinitionException("a fresh " + SchemaGenerator.TypeName(type) + " could not be made to read its defaults: " + (error.InnerException ?? error).Message);
                }
            }

            private static JToken DefaultOf(object initial, string where)
            {
                try
                {
                    return ToolJson.FromObject(initial);
                }
                catch (Exception error)
                {
                    throw new ToolDefinitionException("the initial value of " + where + " cannot be written as JSON: " + error.Message);
                }
            }
        }
    }
}
