using System;
using System.Collections.Generic;
using System.Globalization;

namespace Tether.ConsoleHost
{
    /// <summary>A command line the console host cannot run with: exit code 2, the message on stderr.</summary>
    internal sealed class UsageException : Exception
    {
        public UsageException(string message) : base(message) { }
    }

    /// <summary>
    /// tether-console-host --project DIR [--conformance-kit] [--conformance-fixtures] [--port N]
    ///   [--heartbeat-ms N] [--frame-timeout-ms N] [--retention-ms N] [--max-connections N]
    ///   [--requeue-grace-ms N] [--ping-interval-ms N] [--handshake-timeout-ms N]
    ///   [--deadline-grace-ms N] [--reload-ms N] [--name NAME]
    /// Options take their value as the next argument or after "=" (--port=0).
    /// </summary>
    internal sealed class ConsoleHostArguments
    {
        public const string Usage =
            "Usage: tether-console-host --project DIR [--conformance-kit] [--conformance-fixtures] [--port N] [--heartbeat-ms N]\n" +
            "         [--frame-timeout-ms N] [--retention-ms N] [--max-connections N] [--requeue-grace-ms N] [--ping-interval-ms N]\n" +
            "         [--handshake-timeout-ms N] [--deadline-grace-ms N] [--reload-ms N] [--name NAME]";

        public string Project;
        public bool ConformanceKit;
        public bool ConformanceFixtures;
        public int? Port;
        public int? HeartbeatMs;
        public int? FrameTimeoutMs;
        public long? RetentionMs;
        public int? MaxConnections;
        public int? RequeueGraceMs;
        public int? PingIntervalMs;
        public int? HandshakeTimeoutMs;
        /// <summary>How long past a call's deadline a tool that has not stopped is waited for (protocol.md §8.6).</summary>
        public long? DeadlineGraceMs;
        /// <summary>How long a simulated domain reload keeps the host away.</summary>
        public long ReloadMs = 300;
        public string Name;

        public static ConsoleHostArguments Parse(IReadOnlyList<string> args)
        {
            var parsed = new ConsoleHostArguments();
            for (var i = 0; i < args.Count; i++)
            {
                var arg = args[i];
                string inline = null;
                var equals = arg.IndexOf('=');
                if (arg.StartsWith("--", StringComparison.Ordinal) && equals > 0)
                {
                    inline = arg.Substring(equals + 1);
                    arg = arg.Substring(0, equals);
                }
                string Value()
                {
                    if (inline != null) return inline;
                    if (i + 1 >= args.Count) throw new UsageException($"{arg} needs a value.\n{Usage}");
                    return args[++i];
                }
                switch (arg)
                {
                    case "--project": parsed.Project = Value(); break;
                    case "--name": parsed.Name = Value(); break;
                    case "--conformance-kit": parsed.ConformanceKit = Flag(arg, inline); break;
                    case "--conformance-fixtures": parsed.ConformanceFixtures = Flag(arg, inline); break;
                    case "--port": parsed.Port = (int)Number(arg, Value(), 0, 65535); break;
                    case "--heartbeat-ms": parsed.HeartbeatMs = (int)Number(arg, Value(), 1, int.MaxValue); break;
                    case "--frame-timeout-ms": parsed.FrameTimeoutMs = (int)Number(arg, Value(), 1, int.MaxValue); break;
                    case "--retention-ms": parsed.RetentionMs = Number(arg, Value(), 0); break;
                    case "--max-connections": parsed.MaxConnections = (int)Number(arg, Value(), 1, int.MaxValue); break;
                    case "--requeue-grace-ms": parsed.RequeueGraceMs = (int)Number(arg, Value(), 0, int.MaxValue); break;
                    case "--ping-interval-ms": parsed.PingIntervalMs = (int)Number(arg, Value(), 0, int.MaxValue); break;
                    case "--handshake-timeout-ms": parsed.HandshakeTimeoutMs = (int)Number(arg, Value(), 1, int.MaxValue); break;
                    case "--deadline-grace-ms": parsed.DeadlineGraceMs = Number(arg, Value(), 0); break;
                    case "--reload-ms": parsed.ReloadMs = Number(arg, Value(), 0, int.MaxValue); break;
                    case "--help":
                    case "-h":
                        throw new UsageException(Usage);
                    default:
                        throw new UsageException($"Unknown option {args[i]}.\n{Usage}");
                }
            }
            if (string.IsNullOrEmpty(parsed.Project)) throw new UsageException($"--project DIR is required.\n{Usage}");
            return parsed;
        }

        private static bool Flag(string name, string inline)
        {
            if (inline == null || inline == "true") return true;
            if (inline == "false") return false;
            throw new UsageException($"{name} takes no value (or =true / =false), not \"{inline}\".");
        }

        private static long Number(string name, string text, long min, long max = long.MaxValue)
        {
            if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
            {
                var range = max == long.MaxValue ? $"an integer ≥ {min}" : $"an integer from {min} to {max}";
                throw new UsageException($"{name} must be {range}, not \"{text}\".");
            }
            return value;
        }
    }
}
