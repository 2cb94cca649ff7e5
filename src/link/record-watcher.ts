/**
 * Watches $TETHER_HOME/hosts/ so a host that comes back is noticed at once: fs.watch where it
 * works, and a slower poll always, as a safety net for filesystems where it does not.
 */
import { mkdirSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { UnsafeDirectoryError } from '../discovery/secure-file.js';

export class RecordWatcher {
  private watcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private lastSignature = '';
  private pending = false;

  constructor(
    private readonly dir: string,
    private readonly onChange: () => void,
    private readonly pollMs = 1_000,
  ) {}

  start(): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      // A TETHER_HOME that is a file, on a drive not mounted, in a read-only folder: said, not a crash.
      throw new UnsafeDirectoryError(this.dir, `it cannot be made (${(error as Error).message})`, 'Set TETHER_HOME to a folder of your own, or unset it to use the default.');
    }
    this.lastSignature = this.signature();
    try {
      this.watcher = watch(this.dir, () => this.check());
      this.watcher.on('error', () => {
        // The watch died (folder removed, too many watchers): the poll carries on alone.
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      this.watcher = undefined;
    }
    this.pollTimer = setInterval(() => this.check(), this.pollMs);
    this.pollTimer.unref();
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Coalesces bursts of events (a rename is several) into one notification. */
  private check(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      const signature = this.signature();
      if (signature === this.lastSignature) return;
      this.lastSignature = signature;
      this.onChange();
    });
  }

  private signature(): string {
    try {
      return readdirSync(this.dir)
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .map((name) => {
          try {
            return `${name}:${statSync(join(this.dir, name)).mtimeMs}`;
          } catch {
            return name;
          }
        })
        .sort()
        .join('|');
    } catch {
      return '';
    }
  }
}
