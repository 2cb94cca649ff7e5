using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;
using Newtonsoft.Json.Linq;

namespace Tether.ConsoleHost
{
    /// <summary>
    /// tether-console-host: a Tether host built from Core alone, for the conformance suite and
    /// the end-to-end tests (see ConsoleHostArguments for the command line). stdout carries only
    /// event lines (EventLines), logs go to stderr. stdin takes "reload" and "quit"; its end is
    /// ignored (tests spawn it with stdin ignored). SIGTERM, SIGINT and "quit" close the host
    /// cleanly (bye, record removed) and exit 0; a kill -9 leaves the record and the journal
    /// behind, as a crashed editor does.
    /// </summary>
    internal static class Program
    {
        private static int Main(string[] argv)
        {
            var log = new StderrLog();
            ConsoleHostArguments args;
            string project;
            try
            {
                args = ConsoleHostArguments.Parse(argv);
                project = Path.GetFullPath(args.Project);
                if (File.Exists(project)) throw new UsageException($"{project} is a file, not a project folder. Pass a folder with --project.");
                if (!Directory.Exists(project)) throw new UsageException($"Project folder {project} does not exist. Create it or pass another --project.");
            }
            catch (UsageException error)
            {
                Console.Error.WriteLine(error.Message);
                return 2;
            }

            var name = args.Name ?? Path.GetFileName(project.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar));
            var editor = new ConsoleEditor(args, project, string.IsNullOrEmpty(name) ? project : name, PackageVersion(), log);
            var quit = new ManualResetEventSlim(false);
            // Registered before the host starts, so that a signal never finds it half-made and unhandled.
            using (PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => { context.Cancel = true; quit.Set(); }))
            using (PosixSignalRegistration.Create(PosixSignal.SIGINT, context => { context.Cancel = true; quit.Set(); }))
            {
                try
                {
                    editor.Start();
                }
                catch (Exception error)
                {
                    log.Error($"The console host could not start: {error.Message}");
                    return 1;
                }
                new Thread(() => ReadCommands(editor, quit, log)) { IsBackground = true, Name = "stdin" }.Start();
                quit.Wait();
                log.Info("quitting");
                try
                {
                    editor.Quit();
                }
                catch (Exception error)
                {
                    log.Error($"The console host did not close cleanly: {error.Message}");
                    Environment.Exit(1);
                }
            }
            // The main thread is a foreground thread that may still be blocked in a tool: end the process now.
            Environment.Exit(0);
            return 0;
        }

        /// <summary>"reload" and "quit", one per line; the end of stdin is not a request to quit.</summary>
        private static void ReadCommands(ConsoleEditor editor, ManualResetEventSlim quit, StderrLog log)
        {
            try
            {
                string line;
                while ((line = Console.In.ReadLine()) != null)
                {
                    switch (line.Trim())
                    {
                        case "reload":
                            editor.RequestReload();
                            break;
                        case "quit":
                            quit.Set();
                            return;
                        case "":
                            break;
                        default:
                            log.Warning($"Unknown command on stdin: \"{line.Trim()}\" (the commands are \"reload\" and \"quit\").");
                            break;
                    }
                }
            }
            catch (IOException)
            {
                // stdin closed or unreadable: there are still signals.
            }
        }

        /// <summary>The Unity package's version (unity/package.json, found above this executable), else "0.0.0".</summary>
        private static string PackageVersion()
        {
            for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
            {
                var manifest = Path.Combine(dir.FullName, "package.json");
                if (!File.Exists(manifest)) continue;
                try
                {
                    var json = JObject.Parse(File.ReadAllText(manifest));
                    if ((string)json["name"] == "com.tether.host" && json["version"]?.Type == JTokenType.String) return (string)json["version"];
                }
                catch (Exception)
                {
                    // Not a manifest we can read: look further up.
                }
            }
            return "0.0.0";
        }
    }
}
