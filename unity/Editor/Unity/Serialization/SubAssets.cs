using System;
using System.Collections.Generic;
using System.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// What reference resolution knows of one object at an asset's path (AssetDatabase.LoadAllAssetsAtPath
    /// gives the main asset and its sub-assets): its name, its class, whether it fits the field, whether
    /// it is the main asset, and whether it is a component (a prefab's components are referenced with
    /// "component", never by "name").
    /// </summary>
    internal readonly struct AssetObject
    {
        public AssetObject(string name, string type, bool fits, bool isMain, bool isComponent)
        {
            Name = name;
            Type = type;
            Fits = fits;
            IsMain = isMain;
            IsComponent = isComponent;
        }

        public string Name { get; }

        public string Type { get; }

        public bool Fits { get; }

        public bool IsMain { get; }

        public bool IsComponent { get; }
    }

    /// <summary>
    /// Which object of an asset file a reference means (an FBX's Mesh or AnimationClip, one sprite of a
    /// sheet, an object added with AssetDatabase.AddObjectToAsset): {"asset", "name"} the one of that
    /// name that fits the field; {"asset"} alone, when the main asset does not fit, the one sub-asset
    /// that does. Unity-free: ObjectReferenceJson loads the objects and gives their facts.
    /// </summary>
    internal static class SubAssets
    {
        private const int Listed = 20;

        /// <summary>The index of the object {"asset": <paramref name="path"/>, "name": <paramref name="name"/>} means; a ValueProblem listing the objects that fit when none or several do.</summary>
        public static int Named(IReadOnlyList<AssetObject> objects, string path, string name, string expected, Func<string, ValueProblem> problem)
        {
            var named = Indexes(objects, o => !o.IsComponent && o.Fits && o.Name == name);
            if (named.Count == 1) return named[0];
            var fitting = Fitting(objects, includeMain: true);
            if (named.Count > 1)
            {
                throw problem("\"" + path + "\" holds " + named.Count + " " + expected + " objects named \"" + name + "\", which \"name\" cannot tell apart" + Listing(objects, fitting, expected));
            }
            var other = Indexes(objects, o => !o.IsComponent && o.Name == name);
            if (other.Count > 0)
            {
                throw problem("\"" + name + "\" in \"" + path + "\" is " + SerializedValues.Article(objects[other[0]].Type) + Listing(objects, fitting, expected));
            }
            var closest = ToolSuggestions.Closest(name, fitting.Select(i => objects[i].Name).Distinct().ToList());
            var didYouMean = closest.Count > 0 ? "; did you mean " + string.Join(", ", closest.Select(Quote)) + "?" : "";
            throw problem("\"" + path + "\" holds no \"" + name + "\"" + Listing(objects, fitting, expected) + didYouMean);
        }

        /// <summary>
        /// The index of the one sub-asset that fits, for {"asset": <paramref name="path"/>} whose main asset
        /// (a <paramref name="mainType"/>) does not; -1 when none does; a ValueProblem naming them when several do.
        /// </summary>
        public static int OnlyFitting(IReadOnlyList<AssetObject> objects, string path, string mainType, string expected, Func<string, ValueProblem> problem)
        {
            var fitting = Fitting(objects, includeMain: false);
            if (fitting.Count == 1) return fitting[0];
            if (fitting.Count == 0) return -1;
            throw problem("\"" + path + "\" is " + SerializedValues.Article(mainType) + " holding " + fitting.Count + " " + expected + " objects (" + Names(objects, fitting) + "): give one as \"name\"");
        }

        private static List<int> Fitting(IReadOnlyList<AssetObject> objects, bool includeMain) =>
            Indexes(objects, o => !o.IsComponent && o.Fits && (includeMain || !o.IsMain));

        private static List<int> Indexes(IReadOnlyList<AssetObject> objects, Func<AssetObject, bool> which) =>
            Enumerable.Range(0, objects.Count).Where(i => which(objects[i])).ToList();

        private static string Listing(IReadOnlyList<AssetObject> objects, List<int> fitting, string expected) =>
            fitting.Count == 0 ? " (it holds no " + expected + ")" : " (its " + expected + " objects: " + Names(objects, fitting) + ")";

        private static string Names(IReadOnlyList<AssetObject> objects, List<int> indexes)
        {
            var names = indexes.Select(i => objects[i].Name).OrderBy(n => n, StringComparer.Ordinal).ToList();
            var shown = string.Join(", ", names.Take(Listed).Select(Quote));
            return names.Count > Listed ? shown + " and " + (names.Count - Listed) + " more" : shown;
        }

        private static string Quote(string name) => "\"" + name + "\"";
    }
}
