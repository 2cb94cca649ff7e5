using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using UnityEditor;
using UnityEngine;
using UnityEngine.Rendering;

namespace Tether.Unity.Assets
{
    /// <summary>One property change a material tool will make, checked (and its texture found) before any is made.</summary>
    internal sealed class MaterialChange
    {
        public ShaderPropertySpec Property;

        /// <summary>What MaterialValues.Convert gave: double[4], double, int, or (textures) a path or null.</summary>
        public object Value;

        public Texture Texture;
    }

    /// <summary>
    /// Materials through Unity's API as the material tools use them: a shader's properties
    /// (Shader.GetProperty*), values checked against them (MaterialValues) and textures found,
    /// values set, and a material described as the sandbox describes one (src/sandbox/assets/materials.ts).
    /// </summary>
    internal static class Materials
    {
        public static Shader RequireShader(string name, string tool)
        {
            var shader = Shader.Find(name);
            if (shader != null) return shader;
            var known = ShaderUtil.GetAllShaderInfo().Where(info => info.supported).Select(info => info.name).ToList();
            throw NamedChoices.Unknown(tool, "shader", name, "no shader named \"" + name + "\"", known, "Shaders:", "");
        }

        /// <summary>The material at <paramref name="path"/>: NOT_FOUND when there is no asset, INVALID_ARGUMENTS when it is another kind.</summary>
        public static Material Require(string path, string tool)
        {
            AssetInfos.Require(path, tool);
            var material = AssetDatabase.LoadAssetAtPath<Material>(path);
            if (material != null) return material;
            var problem = "\"" + path + "\" is a " + (AssetDatabase.GetMainAssetTypeAtPath(path)?.Name ?? "DefaultAsset") + ", not a Material";
            throw AssetPaths.Refuse(tool, "path", problem, "find_assets with \"t:Material\" lists the materials.");
        }

        public static List<ShaderPropertySpec> PropertiesOf(Shader shader)
        {
            var properties = new List<ShaderPropertySpec>();
            for (var i = 0; i < shader.GetPropertyCount(); i++)
            {
                var type = shader.GetPropertyType(i);
                var range = type == ShaderPropertyType.Range ? shader.GetPropertyRangeLimits(i) : default;
                properties.Add(new ShaderPropertySpec
                {
                    Name = shader.GetPropertyName(i),
                    Type = type.ToString(),
                    Description = shader.GetPropertyDescription(i),
                    Range = type == ShaderPropertyType.Range ? new double[] { Round(range.x), Round(range.y) } : null,
                    Hidden = (shader.GetPropertyFlags(i) & ShaderPropertyFlags.HideInInspector) != 0,
                });
            }
            return properties;
        }

        /// <summary>Every given value checked against <paramref name="shader"/>'s properties, textures loaded; throws before anything changes.</summary>
        public static List<MaterialChange> Check(string projectRoot, Shader shader, List<ShaderPropertySpec> properties, IDictionary<string, JToken> values, string tool)
        {
            var changes = new List<MaterialChange>();
            foreach (var pair in values ?? new Dictionary<string, JToken>())
            {
                var property = properties.FirstOrDefault(p => p.Name == pair.Key);
                if (property == null)
                {
                    throw NamedChoices.Unknown(tool, "properties." + pair.Key, pair.Key, "the shader \"" + shader.name + "\" has no property \"" + pair.Key + "\"", properties.Select(p => p.Name).ToList(), "Its properties:", "");
                }
                var value = MaterialValues.Convert(property, pair.Value, tool);
                var change = new MaterialChange { Property = property, Value = value };
                if (property.Type == "Texture" && value is string path) change.Texture = RequireTexture(projectRoot, path, "properties." + property.Name, tool);
                changes.Add(change);
            }
            return changes;
        }

        public static void Apply(Material material, IEnumerable<MaterialChange> changes)
        {
            foreach (var change in changes)
            {
                var name = change.Property.Name;
                switch (change.Property.Type)
                {
                    case "Color":
                        var c = (double[])change.Value;
                        material.SetColor(name, new Color((float)c[0], (float)c[1], (float)c[2], (float)c[3]));
                        break;
                    case "Vector":
                        var v = (double[])change.Value;
                        material.SetVector(name, new Vector4((float)v[0], (float)v[1], (float)v[2], (float)v[3]));
                        break;
                    case "Int":
                        material.SetInteger(name, (int)change.Value);
                        break;
                    case "Texture":
                        material.SetTexture(name, change.Texture);
                        break;
                    default:
                        material.SetFloat(name, (float)(double)change.Value);
                        break;
                }
            }
        }

        /// <summary>{ path, guid, shader, properties: [{ name, type, description, range?, hidden, value }] } (MaterialInfo).</summary>
        public static JObject Describe(Material material, string path)
        {
            var properties = PropertiesOf(material.shader).Select(property =>
            {
                var described = new JObject { ["name"] = property.Name, ["type"] = property.Type, ["description"] = property.Description };
                if (property.Range != null) described["range"] = new JArray(property.Range);
                described["hidden"] = property.Hidden;
                described["value"] = ValueOf(material, property);
                return described;
            });
            return new JObject
            {
                ["path"] = path,
                ["guid"] = AssetDatabase.AssetPathToGUID(path),
                ["shader"] = material.shader.name,
                ["properties"] = new JArray(properties),
            };
        }

        public static JToken ValueOf(Material material, ShaderPropertySpec property)
        {
            var name = property.Name;
            switch (property.Type)
            {
                case "Color":
                    var c = material.GetColor(name);
                    return new JArray(Round(c.r), Round(c.g), Round(c.b), Round(c.a));
                case "Vector":
                    var v = material.GetVector(name);
                    return new JArray(Round(v.x), Round(v.y), Round(v.z), Round(v.w));
                case "Int":
                    return material.GetInteger(name);
                case "Texture":
                    var texture = material.GetTexture(name);
                    return texture == null ? JValue.CreateNull() : new JObject { ["asset"] = AssetDatabase.GetAssetPath(texture) };
                default:
                    return Round(material.GetFloat(name));
            }
        }

        private static Texture RequireTexture(string projectRoot, string input, string field, string tool)
        {
            var path = AssetPaths.Normalize(projectRoot, input, tool, field, readOnly: true);
            AssetInfos.Require(path, tool, field);
            var texture = AssetDatabase.LoadAssetAtPath<Texture>(path);
            if (texture != null) return texture;
            var problem = "\"" + path + "\" is a " + (AssetDatabase.GetMainAssetTypeAtPath(path)?.Name ?? "DefaultAsset") + ", not a Texture";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". find_assets with \"t:Texture\" lists the textures.",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });
        }

        /// <summary>A float as JSON, rounded to what a float holds (0.1f is 0.1, not 0.100000001490116).</summary>
        private static double Round(float value) =>
            float.IsNaN(value) || float.IsInfinity(value) ? 0 : double.Parse(value.ToString("R", CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
    }
}
