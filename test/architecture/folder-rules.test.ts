/**
 * The folder rules of ARCHITECTURE.md, read from the sources with the TypeScript parser:
 * imports run down the layers, never up (protocol/ is the bottom and imports nothing of ours
 * but itself; host/ never reaches for a front's link, MCP or HTTP; link/ never for MCP or
 * HTTP; mcp/ never for HTTP or the CLI), no two modules import each other even through others
 * (an import loop is two rooms that cannot be understood, tested or moved apart), and no
 * source file grows past 400 lines.
 */
import { describe, expect, it } from 'vitest';
import { SRC_DIR, countLines, importGraph, importLoops, moduleSpecifiers, parse, readSources, resolveRelative } from './source-imports.js';

const MAX_LINES = 400;

/** For each folder of src/, the folders it must not import; protocol/ may import only itself. */
const FORBIDDEN: Record<string, readonly string[]> = {
  host: ['link', 'mcp', 'http'],
  link: ['mcp', 'http'],
  mcp: ['http', 'cli'],
};
const SELF_CONTAINED = ['protocol'];

const files = readSources(SRC_DIR);
const graph = importGraph(files);

/** `src/link/host-link.ts` → `link`. */
function folderOf(path: string): string {
  return path.split('/')[1] ?? '';
}

/** Every import that breaks a folder rule, as `file -> target`. */
function violations(graphOf: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graphOf) {
    const folder = folderOf(from);
    for (const target of targets) {
      const targetFolder = folderOf(target);
      const outside = SELF_CONTAINED.includes(folder) && (targetFolder !== folder || !target.startsWith('src/'));
      if (outside || FORBIDDEN[folder]?.includes(targetFolder)) found.push(`${from} -> ${target}`);
    }
  }
  return found.sort();
}

describe('the checkers themselves', () => {
  it('resolve relative specifiers to the .ts files they compile from, and nothing else', () => {
    expect(resolveRelative('src/link/host-link.ts', './backoff.js')).toBe('src/link/backoff.ts');
    expect(resolveRelative('src/link/host-link.ts', '../protocol/index.js')).toBe('src/protocol/index.ts');
    expect(resolveRelative('src/mcp/front.ts', '../../test/x.js')).toBe('test/x.ts');
    expect(resolveRelative('src/link/host-link.ts', 'node:fs')).toBeUndefined();
    expect(resolveRelative('src/link/host-link.ts', 'zod')).toBeUndefined();
  });

  it('find every loop, however long, and only loops', () => {
    const loops = importLoops(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', ['e']],
        ['e', []],
        ['f', ['g']],
        ['g', ['f']],
        ['h', ['h']],
        ['i', ['a']],
      ]),
    );
    expect(loops).toEqual([['a', 'b', 'c'], ['f', 'g'], ['h']]);
  });

  it('survive a chain deeper than any call stack', () => {
    const chain = new Map(Array.from({ length: 50_000 }, (_, i) => [`m${i}`, i + 1 < 50_000 ? [`m${i + 1}`] : ['m0']]));
    expect(importLoops(chain)).toHaveLength(1);
  });

  it('count lines with or without a final newline', () => {
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\r\nb\r\nc\r\n')).toBe(3);
    expect(countLines('')).toBe(0);
  });

  it('flag an import up the layers, and one out of protocol/', () => {
    const sample = new Map([
      ['src/host/host.ts', ['src/link/host-link.ts', 'src/protocol/index.ts']],
      ['src/link/host-link.ts', ['src/mcp/front.ts', 'src/discovery/host-record.ts']],
      ['src/mcp/front.ts', ['src/cli/logger.ts', 'src/link/host-link.ts']],
      ['src/protocol/errors.ts', ['src/protocol/messages.ts', 'src/schema/suggest.ts', 'test/helpers/x.ts']],
    ]);
    expect(violations(sample)).toEqual([
      'src/host/host.ts -> src/link/host-link.ts',
      'src/link/host-link.ts -> src/mcp/front.ts',
      'src/mcp/front.ts -> src/cli/logger.ts',
      'src/protocol/errors.ts -> src/schema/suggest.ts',
      'src/protocol/errors.ts -> test/helpers/x.ts',
    ]);
  });
});

describe('src/ keeps its folder rules', () => {
  it('reads every source file', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const folder of ['protocol', 'host', 'link', 'mcp', 'http', 'cli'])
      expect(
        files.some((file) => folderOf(file.name) === folder),
        folder,
      ).toBe(true);
  });

  it('imports only down the layers (protocol/ only itself; host/ no link/, mcp/, http/; link/ no mcp/, http/; mcp/ no http/, cli/)', () => {
    expect(violations(graph)).toEqual([]);
  });

  it('names no package entry of its own (tether-mcp/…) from protocol/', () => {
    const own = files
      .filter((file) => SELF_CONTAINED.includes(folderOf(file.name)))
      .flatMap((file) => moduleSpecifiers(parse(file.name, file.text)).filter((specifier) => specifier === 'tether-mcp' || specifier.startsWith('tether-mcp/')));
    expect(own).toEqual([]);
  });

  it('has no import loops', () => {
    expect(importLoops(graph).map((loop) => loop.join(' ⇄ '))).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const tooLong = files.map((file) => ({ name: file.name, lines: countLines(file.text) })).filter((file) => file.lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
