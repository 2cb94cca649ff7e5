import * as fs from 'node:fs';
import { basename } from 'node:path';
import type { JournalFileSystem } from '../../src/host/file-journal-store.js';

function fault(code: string, syscall: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = { ENOSPC: 'no space left on device', EIO: 'i/o error' };
  return Object.assign(new Error(`${code}: ${messages[code] ?? code}, ${syscall}`), { code, syscall });
}

/**
 * node:fs for a FileJournalStore, on a disk that can be made to fail: a write whose text
 * matches fails part-way, as on a full disk (its first half lands, then ENOSPC), and
 * truncation can fail too (EIO). `ops` logs what reaches the disk, by file name:
 * "write journal.jsonl running", "fdatasync journal.jsonl", "rename journal.jsonl.tmp", …
 */
export function faultyDisk() {
  let failing: ((text: string) => boolean) | undefined;
  let truncateFails = false;
  const ops: string[] = [];
  const names = new Map<number, string>();
  const files: JournalFileSystem = {
    ...fs,
    openSync(path, flags, mode) {
      const fd = fs.openSync(path, flags, mode);
      names.set(fd, basename(path));
      return fd;
    },
    writeSync(fd, buffer, offset, length) {
      const text = Buffer.from(buffer.subarray(offset, offset + length)).toString('utf8');
      ops.push(`write ${names.get(fd)} ${[...text.matchAll(/"state":"(\w+)"/g)].map((m) => m[1]).join(' ')}`);
      if (failing?.(text)) {
        fs.writeSync(fd, buffer, offset, Math.floor(length / 2));
        throw fault('ENOSPC', 'write');
      }
      return fs.writeSync(fd, buffer, offset, length);
    },
    ftruncateSync(fd, length) {
      if (truncateFails) throw fault('EIO', 'ftruncate');
      fs.ftruncateSync(fd, length);
    },
    fdatasyncSync(fd) {
      ops.push(`fdatasync ${names.get(fd)}`);
      fs.fdatasyncSync(fd);
    },
    fsyncSync(fd) {
      ops.push(`fsync ${names.get(fd)}`);
      fs.fsyncSync(fd);
    },
    renameSync(from, to) {
      ops.push(`rename ${basename(from)}`);
      fs.renameSync(from, to);
    },
  };
  return {
    fs: files,
    ops,
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
