using System;
using System.Diagnostics;
using System.IO;
using NUnit.Framework;

namespace Tether.Core.Tests.Discovery
{
    /// <summary>
    /// Runs a Node script so a test can hold the C# side to what the TypeScript reference
    /// computes or reads. A test that needs Node is ignored where there is none.
    /// </summary>
    internal static class Node
    {
        /// <summary>The repository root (holding dist/ and src/): $TETHER_REPO_ROOT, else found upwards from the test assembly.</summary>
        public static string RepoRoot()
        {
            var given = Environment.GetEnvironmentVariable("TETHER_REPO_ROOT");
            if (!string.IsNullOrEmpty(given)) return given;
            for (var dir = new DirectoryInfo(TestContext.CurrentContext.TestDirectory); dir != null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "src", "discovery", "host-proof.ts"))) return dir.FullName;
            }
            return null;
        }

        /// <summary>stdout of `node -e script args…`; Assert.Ignore when node cannot be started.</summary>
        public static string Run(string script, params string[] args)
        {
            var start = new ProcessStartInfo("node") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            start.ArgumentList.Add("-e");
            start.ArgumentList.Add(script);
            // Ends node's own options: a random token or nonce (base64url) may start with "-", which node
            // would take for an option of its own and refuse ("bad option"), failing the test at random.
            start.ArgumentList.Add("--");
            foreach (var arg in args) start.ArgumentList.Add(arg);
            Process process;
            try
            {
                process = Process.Start(start);
            }
            catch (System.ComponentModel.Win32Exception)
            {
                Assert.Ignore("node is not on PATH");
                return null;
            }
            using (process)
            {
                var stderr = process.StandardError.ReadToEndAsync();
                var stdout = process.StandardOutput.ReadToEnd();
                if (!process.WaitForExit(20000)) { process.Kill(); Assert.Fail("node did not exit within 20 s"); }
                Assert.That(process.ExitCode, Is.EqualTo(0), "node failed: " + stderr.Result);
                return stdout.Trim();
            }
        }
    }
}
