/**
 * Which functions a callgrind dump's instructions went to, JavaScript included. Callgrind
 * sees V8's generated code as bare addresses; a process started with `--perf-basic-prof`
 * writes /tmp/perf-<pid>.map, which names the code at each address ("JS:*send
 * file:///…/transport.js:47:9"). This joins the two, as `perf report` would, so a count per
 * call can be read as "which function, in which file".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

export interface FunctionCost {
  name: string;
  /** Instructions per counted call. */
  perCall: number;
}

/** The file V8 writes under `--perf-basic-prof` for process `pid`. */
function perfMapOf(pid: number): string {
  return `/tmp/perf-${pid}.map`;
}

/** Removes the perf map of `pid` (it grows with every function V8 compiles). */
export function removePerfMap(pid: number): void {
  rmSync(perfMapOf(pid), { force: true });
}

/**
 * The `top` functions by their own instructions (not their callees') per call, or with
 * `inclusive` by those of their callees too: JavaScript by name and source position (the
 * tiers of one function added together), native code by its symbol without arguments.
 */
export function costlyFunctions(dump: string, pid: number, calls: number, top: number, inclusive = false): FunctionCost[] {
  const map = existsSync(perfMapOf(pid)) ? readPerfMap(perfMapOf(pid)) : { entries: [], found: new Map<number, string | undefined>() };
  // --auto=no: no annotated source lines, which would read like more functions.
  const annotated = execFileSync('callgrind_annotate', [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--threshold=100', '--auto=no', dump], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const totals = new Map<string, number>();
  for (const line of annotated.split('\n')) {
    const row = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!row || line.includes('PROGRAM TOTALS')) continue;
    const name = nameOf(row[2] as string, map);
    totals.set(name, (totals.get(name) ?? 0) + Number((row[1] as string).replaceAll(',', '')));
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, count]) => ({ name, perCall: Math.round(count / calls) }));
}

interface PerfMap {
  /** In the order V8 wrote them: where code was freed and its space reused, the later entry is the live one. */
  entries: Array<{ start: number; size: number; name: string }>;
  /** Names already looked up, by address. */
  found: Map<number, string | undefined>;
}

/** Lines of "<start hex> <size hex> <name>", one per piece of code V8 generated. */
function readPerfMap(path: string): PerfMap {
  const entries: PerfMap['entries'] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const first = line.indexOf(' ');
    const second = line.indexOf(' ', first + 1);
    if (first < 0 || second < 0) continue;
    entries.push({ start: parseInt(line.slice(0, first), 16), size: parseInt(line.slice(first + 1, second), 16), name: line.slice(second + 1) });
  }
  return { entries, found: new Map() };
}

/** A readable name for one of callgrind_annotate's "file:function [object]" entries. */
function nameOf(entry: string, map: PerfMap): string {
  // Generated code has no object file; an address in a library without symbols is not V8's.
  const address = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]$/.exec(entry);
  if (address) return jsName(codeAt(map, parseInt(address[1] as string, 16)) ?? 'generated code (not in the perf map)');
  // "???:v8::internal::Foo::Bar(args) [/usr/bin/node]" → "v8::internal::Foo::Bar";
  // "./malloc/./malloc/malloc.c:_int_malloc [libc.so.6]" → "_int_malloc"
  const symbol = entry
    .replace(/^\?\?\?:/, '')
    .replace(/ \[[^\]]*\]$/, '')
    .replace(/'\d+$/, '') // callgrind's mark for a recursive call's cycle
    .replace(/ \[clone [^\]]*\]$/, '')
    .replace(/^\S*\.(?:c|cc|cpp|h|S):/, '');
  return withoutArguments(symbol);
}

/** A C++ symbol without its argument list, found from the end ("(anonymous namespace)" stays). */
function withoutArguments(symbol: string): string {
  const end = symbol.replace(/ const$/, '');
  if (!end.endsWith(')')) return symbol;
  let depth = 0;
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] === ')') depth++;
    else if (end[i] === '(' && --depth === 0) return end.slice(0, i);
  }
  return symbol;
}

/** The newest code that covers `address` (a few thousand entries, a few hundred lookups: a scan will do). */
function codeAt(map: PerfMap, address: number): string | undefined {
  if (map.found.has(address)) return map.found.get(address);
  let name: string | undefined;
  for (let i = map.entries.length - 1; i >= 0; i--) {
    const entry = map.entries[i] as PerfMap['entries'][number];
    if (address >= entry.start && address < entry.start + entry.size) {
      name = entry.name;
      break;
    }
  }
  map.found.set(address, name);
  return name;
}

/** "JS:*send file:///work/main/dist/protocol/transport.js:47:9" → "send (dist/protocol/transport.js:47:9)". */
function jsName(code: string): string {
  const js = /^JS:[*~^+]?(.*?) ?(?:file:\/\/)?(\S*?):(\d+:\d+)$/.exec(code);
  if (!js) return code;
  const [, fn, file, line] = js as unknown as [string, string, string, string];
  // Code without a file is eval's or new Function's (zod compiles its object parsers so).
  const where = file ? file.replace(/^.*?\/(dist|node_modules|bench)\//, '$1/') : 'new Function';
  return `${fn || '(anonymous)'} (${where}:${line})`;
}
