using System;
using System.IO;
using NUnit.Framework;

namespace Tether.Unity.Tests.Support
{
    /// <summary>Where the package (unity/) and its test fixtures are, found from the test's own folder.</summary>
    internal static class RepoPaths
    {
        /// <summary>The package root: the folder holding package.json and Tests~.</summary>
        public static string Package
        {
            get
            {
                for (var dir = new DirectoryInfo(TestContext.CurrentContext.TestDirectory); dir != null; dir = dir.Parent)
                {
                    if (File.Exists(Path.Combine(dir.FullName, "package.json")) && Directory.Exists(Path.Combine(dir.FullName, "Tests~")))
                    {
                        return dir.FullName;
                    }
                }
                throw new InvalidOperationException("The package folder (unity/) was not found above " + TestContext.CurrentContext.TestDirectory);
            }
        }

        public static string Repository => Path.GetDirectoryName(Package);

        public static string Fixture(string name) => Path.Combine(Package, "Tests~", "fixtures", name);
    }
}
