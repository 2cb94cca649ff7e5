import * as fs from 'node:fs';
import type { JournalFileSystem } from '../../src/host/call-journal.js';

function fault(code: string, syscall: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = { ENOSPC: 'no space left on device', EIO: 'i/o error' };
  return Object.assign(new Error(`${code}: ${messages[code] ?? code}, ${syscall}`), { code, syscall });
}

/**
 * node:fs for a FileJournalStore, on a disk that can be made to fail: a write whose text
 * matches fails part-way, as on a full disk (its first half lands, then ENOSPC), and
 * truncation can fail too (EIO).
 */
export function faultyDisk() {
  let failing: ((text: string) => boolean) | undefined;
  let truncateFails = false;
  const files: JournalFileSystem = {
    ...fs,
    writeSync(fd, buffer, offset, length) {
      if (failing?.(Buffer.from(buffer.subarray(offset, offset + length)).toString('utf8'))) {
        fs.writeSync(fd, buffer, offset, Math.floor(length / 2));
        throw fault('ENOSPC', 'write');
      }
      return fs.writeSync(fd, buffer, offset, length);
    },
    ftruncateSync(fd, length) {
      if (truncateFails) throw fault('EIO', 'ftruncate');
      fs.ftruncateSync(fd, length);
    },
  };
  return {
    fs: files,
    /** From now on, writes whose text matches fail part-way (and truncation fails too, if told). */
    fail(when: (text: string) => boolean, options: { truncateFails?: boolean } = {}): void {
      failing = when;
      truncateFails = options.truncateFails ?? false;
    },
    heal(): void {
      failing = undefined;
      truncateFails = false;
    },
  };
}
