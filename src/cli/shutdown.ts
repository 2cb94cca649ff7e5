/** Runs a clean shutdown once on SIGINT, SIGTERM or SIGHUP, then exits. */
export function onShutdownSignal(shutdown: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // A shutdown that hangs must not keep the process forever.
      setTimeout(() => process.exit(1), 5_000).unref();
      void shutdown(signal).finally(() => process.exit(0));
    });
  }
}
