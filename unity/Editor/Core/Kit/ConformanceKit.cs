using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Kit
{
    /// <summary>
    /// The host conformance kit (protocol.md §15): tools the conformance suite drives to test
    /// a host, declared exactly as the sandbox declares them (src/sandbox/tools/conformance-kit.ts).
    /// A host exposes them only when asked to; their names are reserved. They are made here,
    /// not marked [TetherTool], so scanning assemblies for tools never finds them.
    /// </summary>
    public static class ConformanceKit
    {
        /// <summary>The longest the block tool sleeps before it looks at its cancellation again.</summary>
        private const int SliceMs = 100;

        public sealed class BlockArguments
        {
            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;

            [ToolArg("Keep blocking for all of `ms` when cancelled or past the deadline, as a tool that ignores its signal.")]
            public bool? IgnoreCancel;
        }

        public sealed class WaitArguments
        {
            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;
        }

        public sealed class SharedArguments
        {
            [ToolArg(Required = true, MinLength = 1)]
            public string Key;

            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;
        }

        public sealed class KeyArguments
        {
            [ToolArg(Required = true, MinLength = 1)]
            public string Key;
        }

        public static IReadOnlyList<RegisteredTool> Tools(IConformanceEditor editor)
        {
            if (editor == null) throw new ArgumentNullException(nameof(editor));
            var counters = new ConformanceCounters(editor.ProjectPath);
            return new[]
            {
                ToolFactory.Create<BlockArguments>(
                    new TetherToolAttribute("tether_conformance_block")
                    {
                        Description = "Conformance kit: blocks the main thread synchronously for `ms` milliseconds, waking early when cancelled.",
                        ReadOnly = false,
                        Idempotent = false,
                        LongRunning = true,
                        Duplicates = "allow",
                    },
                    (args, context) => Block(args.Ms, context, args.IgnoreCancel == true)),
                ToolFactory.Create<KeyArguments>(
                    new TetherToolAttribute("tether_conformance_count")
                    {
                        Description = "Conformance kit: increments the counter `key` and returns it. Not idempotent.",
                        ReadOnly = false,
                        Idempotent = false,
                        // No duplicate policy: the default (allow, for a short tool) is what the kit checks.
                    },
                    (args, context) => new JObject { ["key"] = args.Key, ["count"] = counters.Increment(args.Key) }),
                ToolFactory.Create<KeyArguments>(
                    new TetherToolAttribute("tether_conformance_read")
                    {
                        Description = "Conformance kit: returns the counter `key`.",
                        ReadOnly = true,
                        Idempotent = true,
                    },
                    (args, context) => new JObject { ["key"] = args.Key, ["count"] = counters.Read(args.Key) }),
                ToolFactory.Create<NoArguments>(
                    new TetherToolAttribute("tether_conformance_reload")
                    {
                        Description = "Conformance kit: journals its result, then reloads the code domain.",
                        ReadOnly = false,
                        Idempotent = true,
                    },
                    (args, context) =>
                    {
                        editor.RequestReload();
                        return new JObject { ["reloading"] = true };
                    }),
                ToolFactory.CreateAsync<WaitArguments>(
                    new TetherToolAttribute("tether_conformance_wait")
                    {
                        Description = "Conformance kit: waits `ms` milliseconds without holding the main thread (mainThread: false).",
                        ReadOnly = false,
                        Idempotent = false,
                        LongRunning = true,
                        MainThread = false,
                        Duplicates = "allow",
                    },
                    (args, context) => Wait(args.Ms)),
                ToolFactory.Create<SharedArguments>(
                    new TetherToolAttribute("tether_conformance_attach")
                    {
                        Description = "Conformance kit: increments the counter `key`, then blocks the main thread for `ms` milliseconds (waking early when cancelled). An identical call in flight attaches to it.",
                        ReadOnly = false,
                        Idempotent = false,
                        LongRunning = true,
                        Duplicates = "attach",
                    },
                    (args, context) => CountThenBlock(counters, args, context)),
                ToolFactory.Create<SharedArguments>(
                    new TetherToolAttribute("tether_conformance_reject")
                    {
                        Description = "Conformance kit: increments the counter `key`, then blocks the main thread for `ms` milliseconds (waking early when cancelled). An identical call in flight is refused.",
                        ReadOnly = false,
                        Idempotent = false,
                        LongRunning = true,
                        Duplicates = "reject",
                    },
                    (args, context) => CountThenBlock(counters, args, context)),
            };
        }

        /// <summary>
        /// Waits beside the main thread (the tool says mainThread: false). Deaf to cancellation, as
        /// the sandbox's is: it holds nothing, so it may run its course.
        /// </summary>
        private static async Task<object> Wait(int ms)
        {
            var clock = Stopwatch.StartNew();
            // Task.Delay may end a timer tick early: the tool waits its whole time, as it says.
            for (var left = (long)ms; left > 0; left = ms - clock.ElapsedMilliseconds) await Task.Delay((int)left).ConfigureAwait(false);
            return new JObject { ["waitedMs"] = clock.ElapsedMilliseconds };
        }

        /// <summary>One count per execution, however many requesters share it, then a block.</summary>
        private static JObject CountThenBlock(ConformanceCounters counters, SharedArguments args, IToolContext context)
        {
            var count = counters.Increment(args.Key);
            var blocked = Block(args.Ms, context, false);
            return new JObject { ["key"] = args.Key, ["count"] = count, ["blockedMs"] = blocked["blockedMs"] };
        }

        /// <summary>
        /// Blocks the calling (main) thread as a player build does: no editor callbacks meanwhile.
        /// It wakes at least every 100 ms (at once when the call is cancelled, through the
        /// token's wait handle) and stops early when cancelled; told to ignore its cancellation,
        /// it sleeps all of <paramref name="ms"/>, as a tool deaf to its signal (protocol.md §8.6).
        /// </summary>
        private static JObject Block(int ms, IToolContext context, bool ignoreCancel)
        {
            var clock = Stopwatch.StartNew();
            if (ignoreCancel)
            {
                Thread.Sleep(ms);
                return new JObject { ["blockedMs"] = clock.ElapsedMilliseconds };
            }
            var cancellation = context?.Cancellation ?? default;
            while (true)
            {
                var left = ms - clock.ElapsedMilliseconds;
                if (left <= 0) break;
                cancellation.WaitHandle.WaitOne((int)Math.Min(left, SliceMs));
                if (cancellation.IsCancellationRequested)
                {
                    throw new TetherException(
                        ErrorCodes.Cancelled,
                        "Blocking call cancelled after " + clock.ElapsedMilliseconds + " ms.",
                        new JObject { ["started"] = true });
                }
            }
            return new JObject { ["blockedMs"] = clock.ElapsedMilliseconds };
        }
    }
}
