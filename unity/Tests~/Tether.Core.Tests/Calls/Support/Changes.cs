using System;
using System.Diagnostics;
using System.Threading;

namespace Tether.Core.Tests.Calls.Support
{
    /// <summary>
    /// Something a test waits on: recorders pulse it when they record, and a test waits (with a
    /// timeout, no sleeps) until its condition holds.
    /// </summary>
    internal sealed class Changes
    {
        private readonly object _gate = new object();

        public void Pulse()
        {
            lock (_gate) Monitor.PulseAll(_gate);
        }

        public void WaitUntil(Func<bool> condition, string what, int timeoutMs = 5000)
        {
            var clock = Stopwatch.StartNew();
            lock (_gate)
            {
                while (!condition())
                {
                    var left = timeoutMs - (int)clock.ElapsedMilliseconds;
                    if (left <= 0) throw new TimeoutException("Timed out waiting for " + what + ".");
                    Monitor.Wait(_gate, left);
                }
            }
        }
    }
}
