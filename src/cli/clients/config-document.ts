/**
 * A client's configuration file as a document: read (JSON or TOML), the Tether entry put in
 * with everything else kept, and written back with a backup, atomically, keeping the file's
 * mode. Nothing is written when the entry is already what it should be.
 *
 * JSON files are re-serialized with the indentation and line endings they had (other servers
 * and settings keep their values and order). TOML (Codex) is edited as text: the Tether
 * table's lines are replaced and every other line, comments included, stays as it was; the
 * TOML library (smol-toml) parses, to compare and to check the edit, and writes the one table.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { replaceFile } from '../replace-file.js';
import type { McpClient } from './types.js';

export class ConfigFileError extends Error {}

export type Document = Record<string, unknown>;

export interface ConfigFile {
  path: string;
  format: 'json' | 'toml';
  exists: boolean;
  text: string;
  document: Document;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseDocument(text: string, format: 'json' | 'toml', path: string): Document {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = format === 'json' ? JSON.parse(body) : parseToml(body);
  } catch (error) {
    const hint = format === 'json' && /\/\/|\/\*|,\s*[}\]]/.test(body) ? ' (it seems to hold comments or trailing commas, which Tether does not edit)' : '';
    throw new ConfigFileError(`${path} is not valid ${format.toUpperCase()}${hint}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(parsed)) throw new ConfigFileError(`${path} does not hold a ${format === 'json' ? 'JSON object' : 'TOML table'}`);
  return parsed;
}

export function readConfigFile(path: string, format: 'json' | 'toml'): ConfigFile {
  if (!existsSync(path)) return { path, format, exists: false, text: '', document: {} };
  const text = readFileSync(path, 'utf8');
  return { path, format, exists: true, text, document: parseDocument(text, format, path) };
}

/** The value at `keys`, if every step on the way is an object. */
export function valueAt(document: Document, keys: readonly string[]): unknown {
  let current: unknown = document;
  for (const key of keys) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

export type Change = { kind: 'unchanged' } | { kind: 'created' | 'added' | 'replaced'; text: string; previous?: unknown };

/** The file's text with `servers[name] = entry` (and the client's extras), or `unchanged`. */
export function withServer(file: ConfigFile, client: McpClient, serversPath: readonly string[], name: string, entry: Record<string, unknown>, extras?: (document: Document) => void): Change {
  const next = structuredClone(file.document);
  let container: Record<string, unknown> = next;
  for (const key of serversPath) {
    const value = container[key];
    if (value === undefined) container[key] = {};
    else if (!isRecord(value)) throw new ConfigFileError(`${file.path}: "${[...serversPath].join('.')}" is not an object, so Tether cannot add a server to it; fix the file by hand`);
    container = container[key] as Record<string, unknown>;
  }
  const previous = container[name];
  container[name] = entry;
  extras?.(next);
  if (sameData(next, file.document)) return { kind: 'unchanged' };
  const kind = !file.exists ? 'created' : previous === undefined ? 'added' : 'replaced';
  const text = file.format === 'json' ? jsonText(file.text, next) : tomlText(file, next, serversPath, name, entry);
  return { kind, text, ...(previous === undefined ? {} : { previous }) };
}

/** Equal as data: the TOML parser's tables have no prototype, a clone's have Object's. */
function sameData(a: unknown, b: unknown): boolean {
  const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
  return isDeepStrictEqual(plain(a), plain(b));
}

function jsonText(original: string, document: Document): string {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)"/m.exec(original)?.[1] ?? '  ';
  return `${bom}${JSON.stringify(document, null, indent).replaceAll('\n', eol)}${eol}`;
}

/** One table, as TOML text: `[a.b.name]` and its sub-tables. */
export function tomlTable(serversPath: readonly string[], name: string, entry: Record<string, unknown>): string {
  const nested = [...serversPath].reverse().reduce<Record<string, unknown>>((inner, key) => ({ [key]: inner }), { [name]: entry });
  return stringifyToml(nested).trimEnd();
}

/** A TOML key as it may appear in a table header: bare or quoted. */
function headerKeyPattern(key: string): string {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /^[A-Za-z0-9_-]+$/.test(key) ? `(?:${escaped}|"${escaped}"|'${escaped}')` : `(?:"${escaped}"|'${escaped}')`;
}

function tomlText(file: ConfigFile, next: Document, serversPath: readonly string[], name: string, entry: Record<string, unknown>): string {
  const eol = file.text.includes('\r\n') ? '\r\n' : '\n';
  const keys = [...serversPath, name].map(headerKeyPattern).join('\\s*\\.\\s*');
  const header = new RegExp(`^\\s*\\[\\s*${keys}\\s*(?:\\.[^\\]]*)?\\]\\s*(?:#.*)?$`);
  const anyHeader = /^\s*\[/;
  const kept: string[] = [];
  let inOurs = false;
  for (const line of file.text.split(/\r?\n/)) {
    if (anyHeader.test(line)) inOurs = header.test(line);
    if (!inOurs) kept.push(line);
  }
  const body = kept.join(eol).replace(/(\r?\n)*$/, '');
  const table = tomlTable(serversPath, name, entry).replaceAll('\n', eol);
  const text = `${body}${body === '' ? '' : `${eol}${eol}`}${table}${eol}`;
  // The entry may have been written another way (inline, dotted keys): then the whole document is rewritten.
  try {
    if (sameData(parseToml(text), next)) return text;
  } catch {
    // rewritten below
  }
  return `${stringifyToml(next).trimEnd().replaceAll('\n', eol)}${eol}`;
}

/** A backup's name: beside the file, stamped, so an earlier backup is never overwritten. */
export function backupPath(path: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return join(dirname(path), `${basename(path)}.tether-backup-${stamp}`);
}

/**
 * Writes `text` to `path`: the new text written beside it and renamed over it, so the client
 * never reads half a file, and the old file kept as a backup (same mode: it may hold other
 * servers' secrets) once the new one is in place. A new file is private to the user (0600)
 * when `privateIfNew`. A file system's refusal is an ExitError, with the file as it was.
 */
export function writeConfigFile(path: string, text: string, options: { privateIfNew: boolean }): { backup?: string } {
  mkdirSync(dirname(path), { recursive: true });
  const exists = existsSync(path);
  const backup = exists ? backupPath(path) : undefined;
  const mode = exists ? statSync(path).mode & 0o777 : options.privateIfNew ? 0o600 : 0o644;
  replaceFile(path, text, { mode, backup, holder: 'the MCP client' });
  return backup ? { backup } : {};
}
