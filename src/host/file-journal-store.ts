/**
 * The journal in a file: an append-only JSON-lines file, written so that a crash, a full disk
 * or a failing write never leaves a record that could swallow the next one, and compacted by
 * an atomic rewrite.
 */
import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import type { JournalEntry } from './journal-entry.js';
import type { JournalStore } from './journal-store.js';

/** The file operations FileJournalStore uses (node:fs by default): a test can make a write fail part-way. */
export interface JournalFileSystem {
  openSync(path: string, flags: string, mode?: number): number;
  closeSync(fd: number): void;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  ftruncateSync(fd: number, length: number): void;
  fdatasyncSync(fd: number): void;
  fsyncSync(fd: number): void;
  readFileSync(path: string): Buffer;
  mkdirSync(path: string, options: { recursive: true }): unknown;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

const NEWLINE = 0x0a;

/**
 * An append-only JSON-lines file; the last line for a callId wins. A record counts only once
 * its newline is written: a line without one was torn by a crash or a failed write (ENOSPC,
 * EIO) before its save returned, so load skips it and the next save cuts it off before
 * appending, and it can never swallow the record written after it.
 */
export class FileJournalStore implements JournalStore {
  constructor(
    readonly path: string,
    private readonly fs: JournalFileSystem = nodeFs,
  ) {}

  load(): JournalEntry[] {
    // Opened for appending first: a journal that cannot be written is found now, before the
    // host serves anyone, not at its first call with side effects.
    this.fs.mkdirSync(dirname(this.path), { recursive: true });
    this.fs.closeSync(this.fs.openSync(this.path, 'a+', 0o600));
    const bytes = this.fs.readFileSync(this.path);
    const latest = new Map<string, JournalEntry>();
    for (const line of bytes
      .subarray(0, bytes.lastIndexOf(NEWLINE) + 1)
      .toString('utf8')
      .split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (typeof entry.callId === 'string') latest.set(entry.callId, entry);
      } catch {
        // Not a record (damaged): the entry before it still stands.
      }
    }
    return [...latest.values()];
  }

  save(entry: JournalEntry, sync = true): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    this.fs.mkdirSync(dirname(this.path), { recursive: true });
    const fd = this.fs.openSync(this.path, 'a+', 0o600);
    try {
      const size = this.cutTornTail(fd);
      try {
        this.writeAll(fd, line);
        if (sync) this.fs.fdatasyncSync(fd);
      } catch (error) {
        // Take back what part of the line got written; if even that fails, the next save cuts it.
        try {
          this.fs.ftruncateSync(fd, size);
        } catch {
          // The fragment stays until then; load skips it meanwhile.
        }
        throw error;
      }
    } finally {
      this.fs.closeSync(fd);
    }
  }

  rewrite(entries: JournalEntry[]): void {
    this.fs.mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.tmp`;
    const fd = this.fs.openSync(temp, 'w', 0o600);
    try {
      this.writeAll(fd, Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join('')));
      // On the disk before it replaces the journal: a power cut after the rename must not
      // leave an empty or partial file in its place.
      this.fs.fsyncSync(fd);
    } catch (error) {
      this.fs.closeSync(fd);
      this.fs.rmSync(temp, { force: true }); // give a full disk its space back
      throw error;
    }
    this.fs.closeSync(fd);
    this.fs.renameSync(temp, this.path);
    this.syncDirectory();
  }

  /**
   * Makes the rename itself durable. Windows cannot open a directory to sync it (NTFS
   * journals the rename as metadata), so it is skipped there.
   */
  private syncDirectory(): void {
    if (process.platform === 'win32') return;
    const fd = this.fs.openSync(dirname(this.path), 'r');
    try {
      this.fs.fsyncSync(fd);
    } finally {
      this.fs.closeSync(fd);
    }
  }

  /** Cuts the file back to its last newline when it ends in a torn line; returns its size then. */
  private cutTornTail(fd: number): number {
    const { size } = this.fs.fstatSync(fd);
    if (size === 0) return 0;
    const last = Buffer.alloc(1);
    if (this.fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === NEWLINE) return size;
    const window = Buffer.alloc(64 * 1024);
    let end = size;
    for (let newline = -1; newline < 0 && end > 0;) {
      const from = Math.max(0, end - window.length);
      newline = window.subarray(0, this.fs.readSync(fd, window, 0, end - from, from)).lastIndexOf(NEWLINE);
      end = newline >= 0 ? from + newline + 1 : from;
    }
    this.fs.ftruncateSync(fd, end);
    return end;
  }

  private writeAll(fd: number, bytes: Buffer): void {
    for (let offset = 0; offset < bytes.length;) offset += this.fs.writeSync(fd, bytes, offset, bytes.length - offset);
  }
}
