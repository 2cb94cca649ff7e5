/**
 * The sandbox project on disk, laid out like a Unity project. Every side effect of the
 * sandbox editor lands under it, so tests can count executions by reading files.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { renameWithRetry } from '../discovery/rename-with-retry.js';
import { TetherError } from '../protocol/index.js';

export class Project {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get scenePath(): string {
    return join(this.root, 'Assets', 'Scenes', 'SampleScene.json');
  }
  get customToolsDir(): string {
    return join(this.root, 'Assets', 'Editor', 'Tools');
  }
  get library(): string {
    return join(this.root, 'Library');
  }
  get journalPath(): string {
    return join(this.library, 'Tether', 'journal.jsonl');
  }
  get consolePath(): string {
    return join(this.library, 'Logs', 'console.jsonl');
  }
  get buildLogPath(): string {
    return join(this.library, 'Builds', 'build-log.jsonl');
  }
  /** One line per tool execution (not per request): what tests count for at-most-once. */
  get executionsPath(): string {
    return join(this.library, 'Tether', 'executions.jsonl');
  }
  get compiledToolsPath(): string {
    return join(this.library, 'ScriptAssemblies', 'tools.json');
  }
  get conformancePath(): string {
    return join(this.library, 'Tether', 'conformance-counters.json');
  }
  get editorStatePath(): string {
    return join(this.library, 'Tether', 'editor-state.json');
  }

  /** Resolves a project-relative path, refusing anything that escapes the project. */
  resolveInside(path: string): string {
    const full = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    const rel = relative(this.root, full);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new TetherError('PATH_OUTSIDE_PROJECT', `Path "${path}" is outside the project ${this.root}. Use a path inside the project.`, { path, projectPath: this.root });
    }
    return full;
  }

  readJson<T>(path: string, fallback: T): T {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as T;
    } catch {
      return fallback;
    }
  }

  /** Written beside `path` and renamed over it; a rename Windows refuses a moment is retried. */
  writeJson(path: string, value: unknown): void {
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.tmp`;
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
    renameWithRetry(temp, path);
  }

  appendLine(path: string, value: unknown): void {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${JSON.stringify(value)}\n`);
  }

  readLines<T>(path: string): T[] {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    const out: T[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // torn line
      }
    }
    return out;
  }
}
