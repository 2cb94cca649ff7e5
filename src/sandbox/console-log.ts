/**
 * The editor console. Like Unity's, it lives outside the scripting domain, so it survives a
 * domain reload: it is kept on disk and every main-thread incarnation reads it back.
 */
import { rmSync } from 'node:fs';
import type { Project } from './project.js';

export type ConsoleType = 'log' | 'warning' | 'error';

export interface ConsoleEntry {
  type: ConsoleType;
  message: string;
  at: string;
  stackTrace?: string;
}

export class ConsoleLog {
  private readonly entries: ConsoleEntry[];
  private changes = 0;

  constructor(private readonly project: Project) {
    this.entries = project.readLines<ConsoleEntry>(project.consolePath);
  }

  write(type: ConsoleType, message: string, stackTrace?: string): ConsoleEntry {
    const entry: ConsoleEntry = { type, message, at: new Date().toISOString(), ...(stackTrace ? { stackTrace } : {}) };
    this.entries.push(entry);
    this.project.appendLine(this.project.consolePath, entry);
    this.changes++;
    return entry;
  }

  /** Changes with every write and clear. */
  get revision(): number {
    return this.changes;
  }

  read(options: { types?: ConsoleType[]; count?: number; filter?: string } = {}): ConsoleEntry[] {
    const filter = options.filter?.toLowerCase();
    const matching = this.entries.filter((e) => (!options.types || options.types.includes(e.type)) && (!filter || e.message.toLowerCase().includes(filter)));
    return options.count === undefined ? matching : matching.slice(-options.count);
  }

  clear(): number {
    const cleared = this.entries.length;
    this.entries.length = 0;
    rmSync(this.project.consolePath, { force: true });
    this.changes++;
    return cleared;
  }

  text(): string {
    return this.entries.map((e) => `[${e.at}] ${e.type.toUpperCase()}: ${e.message}`).join('\n');
  }
}
