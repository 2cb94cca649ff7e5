/**
 * Callers waiting for a link to change state: each waits until the next change, its own
 * timeout or its signal, whichever comes first, and then looks at the link afresh.
 */
export class ChangeWaiters {
  private readonly waiters = new Set<() => void>();

  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
