using System;
using System.Globalization;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Assets
{
    /// <summary>A shader property as the material tools check values against it (from Unity's Shader API).</summary>
    internal sealed class ShaderPropertySpec
    {
        public string Name;

        /// <summary>"Color", "Vector", "Float", "Range", "Texture" or "Int" (Rendering.ShaderPropertyType's names).</summary>
        public string Type;

        public string Description;

        /// <summary>A Range property's bounds; null for the others.</summary>
        public double[] Range;

        public bool Hidden;
    }

    /// <summary>
    /// A material property's value as agents write it, checked against the property's type before
    /// anything changes (the sandbox's src/sandbox/assets/material-values.ts, with its messages):
    /// Color [r, g, b, a] (or "#RRGGBB", "#RRGGBBAA"; three numbers mean alpha 1), Vector
    /// [x, y, z, w] (two to four numbers), Float and Range a number (a Range's within its bounds),
    /// Int a whole number, Texture an asset path, {"asset": path} or null.
    /// </summary>
    internal static class MaterialValues
    {
        /// <summary>double[4] for Color and Vector, double for Float and Range, int for Int, a path or null for Texture.</summary>
        public static object Convert(ShaderPropertySpec property, JToken value, string tool)
        {
            var name = property.Name;
            switch (property.Type)
            {
                case "Color":
                {
                    var given = HexColor(value) ?? Numbers(value);
                    if (given == null || given.Length < 3 || given.Length > 4) throw Wrong(tool, name, "a Color takes [r, g, b, a] (three numbers mean alpha 1) or \"#RRGGBB\", not " + Shown(value));
                    return given.Length == 3 ? new[] { given[0], given[1], given[2], 1d } : given;
                }
                case "Vector":
                {
                    var given = Numbers(value);
                    if (given == null || given.Length < 2 || given.Length > 4) throw Wrong(tool, name, "a Vector takes [x, y, z, w] (two to four numbers), not " + Shown(value));
                    return given.Concat(new[] { 0d, 0d }).Take(4).ToArray();
                }
                case "Float":
                case "Range":
                {
                    if (!IsNumber(value)) throw Wrong(tool, name, "a " + property.Type + " takes a number, not " + Shown(value));
                    var number = value.Value<double>();
                    if (property.Range != null && (number < property.Range[0] || number > property.Range[1]))
                    {
                        throw Wrong(tool, name, Text(number) + " is outside its range, " + Text(property.Range[0]) + " to " + Text(property.Range[1]));
                    }
                    return number;
                }
                case "Int":
                {
                    if (!IsNumber(value) || value.Value<double>() % 1 != 0 || value.Value<double>() < int.MinValue || value.Value<double>() > int.MaxValue)
                    {
                        throw Wrong(tool, name, "an Int takes a whole number, not " + Shown(value));
                    }
                    return (int)value.Value<double>();
                }
                default:
                {
                    if (value == null || value.Type == JTokenType.Null) return null;
                    if (value.Type == JTokenType.String) return (string)value;
                    if (value is JObject reference && reference["asset"]?.Type == JTokenType.String) return (string)reference["asset"];
                    throw Wrong(tool, name, "a Texture takes a texture's asset path (\"Assets/Textures/Wood.png\"), {\"asset\": path} or null, not " + Shown(value));
                }
            }
        }

        private static bool IsNumber(JToken value) =>
            value != null && (value.Type == JTokenType.Integer || value.Type == JTokenType.Float) && !double.IsNaN(value.Value<double>()) && !double.IsInfinity(value.Value<double>());

        private static double[] Numbers(JToken value) =>
            value is JArray array && array.All(IsNumber) ? array.Select(n => n.Value<double>()).ToArray() : null;

        /// <summary>"#RRGGBB" or "#RRGGBBAA" as [r, g, b, a] from 0 to 1.</summary>
        private static double[] HexColor(JToken value)
        {
            if (value == null || value.Type != JTokenType.String) return null;
            var text = (string)value;
            if (!text.StartsWith("#", StringComparison.Ordinal) || (text.Length != 7 && text.Length != 9)) return null;
            var bytes = new double[(text.Length - 1) / 2];
            for (var i = 0; i < bytes.Length; i++)
            {
                if (!int.TryParse(text.Substring(1 + i * 2, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var b)) return null;
                bytes[i] = b / 255d;
            }
            return bytes.Length == 3 ? new[] { bytes[0], bytes[1], bytes[2], 1d } : bytes;
        }

        /// <summary>A value as an error echoes it: JSON, at most 80 characters.</summary>
        private static string Shown(JToken value)
        {
            var json = value == null ? "undefined" : value.ToString(Formatting.None);
            return json.Length <= 80 ? json : json.Substring(0, 80);
        }

        /// <summary>A number as JavaScript prints it (1, 0.5, -0.25).</summary>
        private static string Text(double number) => number.ToString("R", CultureInfo.InvariantCulture);

        private static TetherException Wrong(string tool, string property, string problem)
        {
            var field = "properties." + property;
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ".",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });
        }
    }
}
