using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.Serialization;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>The JSON Schema of each C# type an argument or result member may have (ToolArgAttribute lists them).</summary>
    internal static class SchemaTypes
    {
        private static readonly HashSet<Type> Integers = new HashSet<Type>
        {
            typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int), typeof(uint), typeof(long), typeof(ulong),
        };

        private static readonly HashSet<Type> Numbers = new HashSet<Type> { typeof(float), typeof(double), typeof(decimal) };

        private static readonly HashSet<Type> Sequences = new HashSet<Type>
        {
            typeof(List<>), typeof(IList<>), typeof(ICollection<>), typeof(IEnumerable<>), typeof(IReadOnlyList<>),
            typeof(IReadOnlyCollection<>), typeof(HashSet<>), typeof(ISet<>),
        };

        private static readonly HashSet<Type> Dictionaries = new HashSet<Type>
        {
            typeof(Dictionary<,>), typeof(IDictionary<,>), typeof(IReadOnlyDictionary<,>), typeof(SortedDictionary<,>),
        };

        /// <summary>The schema of a type that is one JSON value of a known kind, or null for collections and classes.</summary>
        public static JObject Simple(Type type)
        {
            if (type == typeof(string)) return Typed("string");
            if (type == typeof(char)) return new JObject { ["type"] = "string", ["minLength"] = 1, ["maxLength"] = 1 };
            if (type == typeof(bool)) return Typed("boolean");
            if (Integers.Contains(type)) return Typed("integer");
            if (Numbers.Contains(type)) return Typed("number");
            if (type.IsEnum) return EnumSchema(type);
            if (type == typeof(Guid)) return new JObject { ["type"] = "string", ["format"] = "uuid" };
            if (type == typeof(DateTime) || type == typeof(DateTimeOffset)) return new JObject { ["type"] = "string", ["format"] = "date-time" };
            if (type == typeof(Uri)) return new JObject { ["type"] = "string", ["format"] = "uri" };
            // Newtonsoft writes bytes as one base64 string, not as an array of numbers.
            if (type == typeof(byte[])) return new JObject { ["type"] = "string", ["contentEncoding"] = "base64" };
            if (type == typeof(JObject)) return Typed("object");
            if (type == typeof(JArray)) return Typed("array");
            if (type == typeof(JToken) || type == typeof(JValue) || type == typeof(object)) return new JObject();
            return null;
        }

        /// <summary>The item type of an array or list type, or null.</summary>
        public static Type ElementOf(Type type)
        {
            if (type.IsArray) return type.GetArrayRank() == 1 ? type.GetElementType() : null;
            if (type.IsGenericType && Sequences.Contains(type.GetGenericTypeDefinition())) return type.GetGenericArguments()[0];
            return null;
        }

        /// <summary>The value type of a dictionary with string keys, or null for a type that is no dictionary.</summary>
        public static Type DictionaryValueOf(Type type, string where)
        {
            if (!type.IsGenericType || !Dictionaries.Contains(type.GetGenericTypeDefinition())) return null;
            var arguments = type.GetGenericArguments();
            if (arguments[0] != typeof(string)) throw new ToolDefinitionException(where + " is a dictionary whose keys are not strings; JSON object keys are strings");
            return arguments[1];
        }

        /// <summary>Throws for a type that is no class or struct of plain members (what is left once the rest are handled).</summary>
        public static void RefuseUnsupported(Type type, string where)
        {
            var unsupported = type.IsInterface || type.IsAbstract || type.IsPointer || type.IsGenericParameter || type.ContainsGenericParameters
                || typeof(Delegate).IsAssignableFrom(type) || typeof(Type).IsAssignableFrom(type) || typeof(MemberInfo).IsAssignableFrom(type)
                || type.IsPrimitive || type == typeof(TimeSpan) || typeof(IEnumerable).IsAssignableFrom(type) || typeof(JToken).IsAssignableFrom(type)
                || type.IsArray;
            if (!unsupported) return;
            throw new ToolDefinitionException(
                where + " has the type " + SchemaGenerator.TypeName(type) + ", which Tether cannot describe as JSON Schema (use string, bool, numbers, enums, "
                + "arrays or List<T>, Dictionary<string, T>, classes or structs of these, JObject or JToken)");
        }

        private static JObject Typed(string type) => new JObject { ["type"] = type };

        /// <summary>A string enum of the members' names ([EnumMember] values where given), as StringEnumConverter writes them.</summary>
        private static JObject EnumSchema(Type type)
        {
            if (type.GetCustomAttributes(typeof(FlagsAttribute), false).Length > 0)
            {
                throw new ToolDefinitionException(SchemaGenerator.TypeName(type) + " is a [Flags] enum, whose combined values are no single name; take an array of it instead");
            }
            var names = type.GetFields(BindingFlags.Public | BindingFlags.Static)
                .OrderBy(field => field.MetadataToken)
                .Select(field => field.GetCustomAttributes(typeof(EnumMemberAttribute), false).OfType<EnumMemberAttribute>().FirstOrDefault()?.Value ?? field.Name)
                .Distinct();
            return new JObject { ["type"] = "string", ["enum"] = new JArray(names) };
        }
    }
}
