/**
 * Adding a dependency to a Unity project's Packages/manifest.json as a person would: one line
 * edited or inserted, everything else (key order, indentation, line endings, the trailing
 * newline, a byte order mark, the other entries' formatting) left byte for byte. Parsing and
 * re-serializing would reformat what the user or Unity wrote, e.g. expand a one-line
 * "scopes" array of a scoped registry.
 *
 * Also the `file:` reference Unity's Package Manager takes for a local folder: the path is
 * absolute, with forward slashes, on Windows too ("file:C:/Users/…"; Unity's manual,
 * "Local folder or tarball paths").
 */
import path from 'node:path';

export class ManifestError extends Error {}

/** The `file:` dependency value for a package folder, for the OS whose path logic `paths` is. */
export function unityFileReference(folder: string, paths: path.PlatformPath = path): string {
  if (!paths.isAbsolute(folder)) throw new Error(`expected an absolute path, got "${folder}"`);
  const normalized = withoutTrailingSeparator(paths.normalize(folder), paths);
  if (paths.sep === '\\') {
    // A UNC path with forward slashes would read "file://server/…", which Unity takes for a
    // Git URL; backslashes (escaped in JSON) are what it accepts for those on Windows.
    if (normalized.startsWith('\\\\')) return `file:${normalized}`;
    return `file:${normalized.replaceAll('\\', '/')}`;
  }
  return `file:${normalized}`;
}

/**
 * Whether an existing dependency value already points at `folder`: a `file:` reference, absolute
 * or relative to the Packages folder (as Unity resolves it), with either slash, on Windows in
 * any case.
 */
export function referencesFolder(value: unknown, folder: string, packagesDir: string, paths: path.PlatformPath = path): boolean {
  if (typeof value !== 'string' || !value.startsWith('file:') || value.startsWith('file://')) return false;
  const windows = paths.sep === '\\';
  const raw = value.slice('file:'.length);
  const target = paths.resolve(packagesDir, windows ? raw.replaceAll('/', '\\') : raw);
  const key = (p: string): string => {
    const plain = withoutTrailingSeparator(paths.normalize(p), paths);
    return windows ? plain.toLowerCase() : plain;
  };
  return key(target) === key(folder);
}

function withoutTrailingSeparator(p: string, paths: path.PlatformPath): string {
  const root = paths.parse(p).root;
  let end = p.length;
  while (end > root.length && (p[end - 1] === paths.sep || p[end - 1] === '/')) end--;
  return p.slice(0, end);
}

export type ManifestChange = { kind: 'unchanged'; current: string } | { kind: 'added'; text: string } | { kind: 'replaced'; previous: unknown; text: string };

/**
 * The manifest text with `dependencies[name] = reference`. `isSame` says whether an existing
 * value already means the same thing (then nothing changes). A new entry goes where it keeps
 * sorted keys sorted (Unity writes them sorted), else last.
 */
export function withDependency(text: string, name: string, reference: string, isSame: (existing: unknown) => boolean): ManifestChange {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new ManifestError(`it is not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(parsed)) throw new ManifestError('it is not a JSON object');
  const root = new Scanner(body).document();
  const style = styleOf(body);
  const dependencies = parsed.dependencies;
  if (dependencies === undefined) {
    const value = `{${style.eol}${style.unit}${style.unit}${JSON.stringify(name)}${style.colon}${JSON.stringify(reference)}${style.eol}${style.unit}}`;
    return { kind: 'added', text: bom + insertMember(body, root, 'dependencies', value, style, '', false) };
  }
  if (!isPlainObject(dependencies)) throw new ManifestError('its "dependencies" is not an object');
  const span = root.members.findLast((m) => m.key === 'dependencies')!.object!;
  if (Object.hasOwn(dependencies, name)) {
    const existing = dependencies[name];
    if (isSame(existing)) return { kind: 'unchanged', current: String(existing) };
    const member = span.members.findLast((m) => m.key === name)!;
    return { kind: 'replaced', previous: existing, text: bom + body.slice(0, member.valueStart) + JSON.stringify(reference) + body.slice(member.valueEnd) };
  }
  const keyIndent = indentOfLineAt(body, root.members.findLast((m) => m.key === 'dependencies')!.keyStart);
  return { kind: 'added', text: bom + insertMember(body, span, name, JSON.stringify(reference), style, keyIndent, true) };
}

interface Style {
  eol: string;
  /** One level of indentation. */
  unit: string;
  /** What separates a key from its value (`": "` without the quote). */
  colon: string;
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = text
    .split(/\r?\n/)
    .map((line) => /^([ \t]+)"/.exec(line)?.[1])
    .filter((indent): indent is string => indent !== undefined);
  const unit = indents.length === 0 ? '  ' : indents.reduce((a, b) => (b.length < a.length ? b : a));
  const colon = /"\s*:[ \t]*/.exec(text)?.[0].slice(1) ?? ': ';
  return { eol, unit, colon };
}

function indentOfLineAt(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, index))![0];
}

/** Inserts `"key": value` into the object `span`, laid out like its existing members. */
function insertMember(text: string, span: ObjectSpan, key: string, value: string, style: Style, ownIndent: string, sorted: boolean): string {
  const { members } = span;
  if (members.length === 0) {
    const inner = `${style.eol}${ownIndent}${style.unit}${JSON.stringify(key)}${style.colon}${value}${style.eol}${ownIndent}`;
    return text.slice(0, span.open + 1) + inner + text.slice(span.close);
  }
  const first = members[0]!;
  // What goes between two members (comma, line break, indentation), as this object has it.
  const second = members[1];
  const separator = second ? text.slice(first.valueEnd, second.keyStart) : `,${text.slice(span.open + 1, first.keyStart)}`;
  const colon = text.slice(first.keyEnd, first.valueStart);
  const member = `${JSON.stringify(key)}${colon}${value}`;
  const keys = members.map((m) => m.key);
  const keepsOrder = sorted && keys.every((k, i) => i === 0 || keys[i - 1]! <= k);
  const before = keepsOrder ? members.find((m) => m.key > key) : undefined;
  if (before) return text.slice(0, before.keyStart) + member + separator + text.slice(before.keyStart);
  const last = members.at(-1)!;
  return text.slice(0, last.valueEnd) + separator + member + text.slice(last.valueEnd);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** The value's own members, when it is an object. */
  object?: ObjectSpan;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

/** Where things are in a JSON text already known to be valid (JSON.parse checked it). */
class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): ObjectSpan {
    this.space();
    return this.object();
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\r\n'.includes(this.text[this.i]!)) this.i++;
  }

  private object(): ObjectSpan {
    const open = this.i++;
    const members: Member[] = [];
    this.space();
    while (this.text[this.i] !== '}') {
      const keyStart = this.i;
      const key = JSON.parse(this.text.slice(keyStart, this.string())) as string;
      const keyEnd = this.i;
      this.space();
      this.i++; // ':'
      this.space();
      const valueStart = this.i;
      const object = this.text[this.i] === '{' ? this.object() : (this.value(), undefined);
      members.push({ key, keyStart, keyEnd, valueStart, valueEnd: this.i, ...(object ? { object } : {}) });
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        this.space();
      }
    }
    return { open, close: this.i++, members };
  }

  private value(): void {
    const c = this.text[this.i];
    if (c === '"') this.string();
    else if (c === '{') this.object();
    else if (c === '[') {
      this.i++;
      this.space();
      while (this.text[this.i] !== ']') {
        this.value();
        this.space();
        if (this.text[this.i] === ',') this.i++;
        this.space();
      }
      this.i++;
    } else {
      while (this.i < this.text.length && !',}] \t\r\n'.includes(this.text[this.i]!)) this.i++;
    }
  }

  /** Skips a string literal; returns the index just past its closing quote. */
  private string(): number {
    this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === '\\' ? 2 : 1;
    return ++this.i;
  }
}
