using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class GetMaterialArgs
    {
        [ToolArg("e.g. \"Assets/Materials/Red.mat\".", Required = true)]
        public string Path;
    }

    public sealed class CreateMaterialArgs
    {
        [ToolArg("Where to create it, e.g. \"Assets/Materials/Red.mat\". Must not exist yet.", Required = true)]
        public string Path;

        [ToolArg("The shader's name, e.g. \"Standard\", \"Unlit/Color\".", MinLength = 1)]
        public string Shader = "Standard";

        [ToolArg(MaterialTools.PropertiesDescription)]
        public Dictionary<string, JToken> Properties;
    }

    public sealed class SetMaterialArgs
    {
        [ToolArg("e.g. \"Assets/Materials/Red.mat\".", Required = true)]
        public string Path;

        [ToolArg("A new shader, e.g. \"Unlit/Color\".", MinLength = 1)]
        public string Shader;

        [ToolArg(MaterialTools.PropertiesDescription)]
        public Dictionary<string, JToken> Properties;
    }

    public sealed class MaterialPropertyInfo
    {
        [ToolArg("e.g. \"_Color\".", Required = true)]
        public string Name;

        [ToolArg(Required = true, Enum = new[] { "Color", "Vector", "Float", "Range", "Texture", "Int" })]
        public string Type;

        [ToolArg("What the Inspector calls it.", Required = true)]
        public string Description;

        [ToolArg("A Range property's [min, max].")]
        public double[] Range;

        [ToolArg("[HideInInspector]: set by scripts, not shown in the Inspector.")]
        public bool Hidden;

        [ToolArg("[r, g, b, a] for a Color, [x, y, z, w] for a Vector, a number, or {\"asset\": path} / null for a Texture.", Required = true)]
        public JToken Value;
    }

    /// <summary>A material as the material tools describe it (Materials.Describe).</summary>
    public sealed class MaterialInfo
    {
        [ToolArg(Required = true)]
        public string Path;

        [ToolArg(Required = true)]
        public string Guid;

        [ToolArg("e.g. \"Standard\", \"Unlit/Color\".", Required = true)]
        public string Shader;

        [ToolArg("The shader's properties with the material's values.", Required = true)]
        public List<MaterialPropertyInfo> Properties;
    }

    public sealed class MaterialResult
    {
        [ToolArg(Required = true)]
        public MaterialInfo Material;
    }

    public sealed class SetMaterialResult
    {
        [ToolArg(Required = true)]
        public MaterialInfo Material;

        [ToolArg("The properties whose values changed, and \"shader\" when it did.", Required = true)]
        public string[] Changed;
    }

    /// <summary>
    /// Material tools: read a material (its shader and every property with its type and value),
    /// create one, set its shader and properties. Values are checked against the shader's
    /// properties before anything changes. Creating an asset is not an Undo step; setting a
    /// material is one (Undo.RecordObject).
    /// </summary>
    public static class MaterialTools
    {
        internal const string PropertiesDescription = "Property name → value: Color [r, g, b, a] or \"#RRGGBB\", Vector [x, y, z, w], Float/Range/Int a number, Texture an asset path or null. e.g. {\"_Color\": [1, 0, 0, 1], \"_Glossiness\": 0.8}.";

        [TetherTool("get_material", Title = "Get material",
            Description = "Reads a material: its shader and each of the shader's properties with its type, range and the material's value.",
            ReadOnly = true, Idempotent = true, Output = typeof(MaterialResult))]
        public static object GetMaterial(GetMaterialArgs args)
        {
            const string tool = "get_material";
            var path = AssetPaths.Normalize(EditorServices.Require().ProjectRoot, args.Path, tool, readOnly: true);
            return new JObject { ["material"] = Materials.Describe(Materials.Require(path, tool), path) };
        }

        [TetherTool("create_material", Title = "Create material",
            Description = "Creates a material asset with a shader (\"Standard\" by default) and initial property values, each checked against the shader. Missing folders are created; an existing asset is never overwritten. Not an undo step (creating assets never is).",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(MaterialResult))]
        public static object CreateMaterial(CreateMaterialArgs args)
        {
            const string tool = "create_material";
            var root = EditorServices.Require().ProjectRoot;
            var path = AssetPaths.NewAsset(root, args.Path, tool, ".mat", "Assets/Materials/New Material.mat");
            if (AssetInfos.IsTaken(root, path)) throw AssetPaths.Taken(tool, "path", path, "Change it with set_material, or choose another path.");
            var shader = Materials.RequireShader(args.Shader, tool);
            var changes = Materials.Check(root, shader, Materials.PropertiesOf(shader), args.Properties, tool);
            AssetInfos.CreateFolders(root, AssetPaths.ParentOf(path), tool);
            var material = new Material(shader);
            Materials.Apply(material, changes);
            AssetDatabase.CreateAsset(material, path);
            Debug.Log("Created material " + path + " (" + shader.name + ")");
            return new JObject { ["material"] = Materials.Describe(material, path) };
        }

        [TetherTool("set_material", Title = "Set material",
            Description = "Changes a material's shader and/or property values, each checked against the (new) shader before anything changes. Properties of the new shader that the material had keep their values. One undo step.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(SetMaterialResult))]
        public static object SetMaterial(SetMaterialArgs args)
        {
            const string tool = "set_material";
            var root = EditorServices.Require().ProjectRoot;
            if (args.Shader == null && args.Properties == null) throw AssetPaths.Refuse(tool, "properties", "neither shader nor properties was given, so there is nothing to change", "Give a shader, properties, or both.");
            var path = AssetPaths.Normalize(root, args.Path, tool);
            var material = Materials.Require(path, tool);
            var shader = args.Shader != null ? Materials.RequireShader(args.Shader, tool) : material.shader;
            var properties = Materials.PropertiesOf(shader);
            var changes = Materials.Check(root, shader, properties, args.Properties, tool);
            var shaderChanged = shader != material.shader;
            var before = changes.ToDictionary(c => c.Property.Name, c => material.HasProperty(c.Property.Name) ? Materials.ValueOf(material, c.Property) : null);
            using (new UndoGroup("Set material " + AssetPaths.NameOf(path)))
            {
                Undo.RecordObject(material, "Set material " + AssetPaths.NameOf(path));
                if (shaderChanged) material.shader = shader;
                Materials.Apply(material, changes);
            }
            AssetDatabase.SaveAssetIfDirty(material);
            var changed = (shaderChanged ? new[] { "shader" } : new string[0])
                .Concat(changes.Where(c => !JToken.DeepEquals(before[c.Property.Name], Materials.ValueOf(material, c.Property))).Select(c => c.Property.Name))
                .ToArray();
            return new JObject { ["material"] = Materials.Describe(material, path), ["changed"] = new JArray(changed) };
        }
    }
}
