/**
 * One registry of every error code (src/protocol/error-registry.ts), documented code for code
 * in docs/errors.md, mirrored by the C# host's ErrorCodes: these tests fail when any of the
 * three drifts from the others, and when a number would name two codes one client can see.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_REGISTRY, TetherError, httpStatusOf, isTetherErrorCode, wireError, type ErrorChannel, type ErrorSpec, type RegisteredErrorCode } from '../../src/protocol/index.js';
import { ROOT } from './source-imports.js';

interface Documented {
  rpc?: number;
  channels: ErrorChannel[];
  http?: number;
}

/** Every `| \`CODE\` | number | travels |` row of the page's tables, by code; a code documented twice is reported. */
function documentedCodes(markdown: string): { codes: Map<string, Documented>; twice: string[] } {
  const codes = new Map<string, Documented>();
  const twice: string[] = [];
  for (const [, code, number, travels] of markdown.matchAll(/^\| `([A-Z][A-Z_]*)` \| ([^|]*) \| ([^|]*) \|/gm)) {
    const entry: Documented = { channels: [] };
    if (number!.trim() !== '—') entry.rpc = Number(number!.trim());
    for (const tag of travels!.split(',').map((part) => part.trim())) {
      const [channel, status] = tag.split(/\s+/);
      entry.channels.push(channel as ErrorChannel);
      if (status !== undefined) entry.http = Number(status);
    }
    if (codes.has(code!)) twice.push(code!);
    codes.set(code!, entry);
  }
  return { codes, twice };
}

/** The registry in the same form, so the two compare with one readable diff. */
function registered(): Map<string, Documented> {
  return new Map(
    Object.entries(ERROR_REGISTRY as Record<string, ErrorSpec>).map(([code, spec]) => [
      code,
      { ...(spec.rpc === undefined ? {} : { rpc: spec.rpc }), channels: [...spec.channels], ...(spec.http === undefined ? {} : { http: spec.http }) },
    ]),
  );
}

/** The numbers of every range the page's "Numeric ranges" table names. */
function documentedRanges(markdown: string): Array<[number, number]> {
  const section = markdown.slice(markdown.indexOf('## Numeric ranges'), markdown.indexOf('## Every code'));
  return [...section.matchAll(/^\| (-\d[\d, …-]*) \|/gm)].flatMap(([, cell]) =>
    cell!.split(',').map((part): [number, number] => {
      const [low, high = low] = part.split('…').map((n) => Number(n.trim()));
      return [Math.min(low!, high!), Math.max(low!, high!)];
    }),
  );
}

/** The C# host's `Numbers` table, by string code. */
function csharpNumbers(source: string): Record<string, number> {
  const constants = new Map([...source.matchAll(/public const string (\w+) = "([A-Z_]+)";/g)].map(([, name, code]) => [name!, code!]));
  return Object.fromEntries([...source.matchAll(/\[(\w+)\] = (-\d+),/g)].map(([, name, number]) => [constants.get(name!) ?? `unknown constant ${name}`, Number(number)]));
}

/** Codes whose numbers one audience can see, with any number two of them share. */
function sharedNumbers(codes: RegisteredErrorCode[]): string[] {
  const byNumber = new Map<number, string[]>();
  for (const code of codes) {
    const rpc = (ERROR_REGISTRY[code] as ErrorSpec).rpc;
    if (rpc !== undefined) byNumber.set(rpc, [...(byNumber.get(rpc) ?? []), code]);
  }
  return [...byNumber].filter(([, names]) => names.length > 1).map(([rpc, names]) => `${rpc}: ${names.join(', ')}`);
}

const ALL = Object.keys(ERROR_REGISTRY) as RegisteredErrorCode[];
const seenBy = (...channels: ErrorChannel[]): RegisteredErrorCode[] => ALL.filter((code) => ERROR_REGISTRY[code].channels.some((c) => channels.includes(c)));
const docs = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');

describe('the checkers themselves', () => {
  it('read a code row: its number (or none), where it travels, its HTTP status; and a row given twice', () => {
    const sample = [
      '| Code | Number | Travels | When |',
      '| `A_CODE` | -32001 | host, local | x |',
      '| `B_CODE` | -32050 | host, http 404 | y |',
      '| `C_CODE` | — | local | z |',
      '| `A_CODE` | -32001 | host | again |',
      'Text naming `D_CODE` is no row.',
    ].join('\n');
    const { codes, twice } = documentedCodes(sample);
    expect(Object.fromEntries(codes)).toEqual({
      A_CODE: { rpc: -32001, channels: ['host'] },
      B_CODE: { rpc: -32050, channels: ['host', 'http'], http: 404 },
      C_CODE: { channels: ['local'] },
    });
    expect(twice).toEqual(['A_CODE']);
  });

  it('read the ranges table, a list of numbers and spans alike', () => {
    const sample = '## Numeric ranges\n| Range | Family |\n| --- | --- |\n| -32700, -32600 … -32603 | a |\n| -32000 … -32009 | b |\n## Every code\n';
    expect(documentedRanges(sample)).toEqual([
      [-32700, -32700],
      [-32603, -32600],
      [-32009, -32000],
    ]);
  });

  it('find a number two codes share', () => {
    expect(sharedNumbers(['CANCELLED', 'UNAUTHORIZED'])).toEqual([]);
    expect(sharedNumbers(['UNAUTHORIZED', 'UNAUTHORIZED'])).toEqual(['-32000: UNAUTHORIZED, UNAUTHORIZED']);
  });
});

describe('docs/errors.md and the registry', () => {
  const { codes, twice } = documentedCodes(docs);

  it('document every code once, with the same number and the same places it travels', () => {
    expect(codes.size).toBeGreaterThan(30);
    expect(twice).toEqual([]);
    expect(Object.fromEntries(codes)).toEqual(Object.fromEntries(registered()));
  });

  it('put every number in a range the page names', () => {
    const ranges = documentedRanges(docs);
    expect(ranges.length).toBeGreaterThan(4);
    const outside = ALL.filter((code) => {
      const rpc = (ERROR_REGISTRY[code] as ErrorSpec).rpc;
      return rpc !== undefined && !ranges.some(([low, high]) => rpc >= low && rpc <= high);
    });
    expect(outside).toEqual([]);
  });
});

describe('the registry', () => {
  it('reuses no number across the codes a host-protocol peer can see, nor across those an HTTP client can see', () => {
    expect(sharedNumbers(seenBy('host', 'local'))).toEqual([]);
    expect(sharedNumbers(seenBy('http'))).toEqual([]);
    expect(sharedNumbers(ALL)).toEqual([]);
  });

  it('gives a code an HTTP status exactly when it travels over HTTP, and a number to every code that is serialized', () => {
    for (const code of ALL) {
      const spec: ErrorSpec = ERROR_REGISTRY[code];
      expect(spec.channels.length, code).toBeGreaterThan(0);
      expect(spec.http !== undefined, code).toBe(spec.channels.includes('http'));
      if (spec.channels.some((channel) => channel !== 'local')) expect(spec.rpc, code).toBeDefined();
    }
  });

  it('is where ERROR_CODES comes from: the numbered codes of the host protocol and its local errors', () => {
    const expected = Object.fromEntries(ALL.filter(isTetherErrorCode).map((code) => [code, (ERROR_REGISTRY[code] as ErrorSpec).rpc]));
    expect(ERROR_CODES).toEqual(expected);
    expect(Object.keys(ERROR_CODES)).toContain('HOST_UNAVAILABLE');
    expect(Object.keys(ERROR_CODES)).not.toContain('SESSION_QUOTA');
    expect(Object.keys(ERROR_CODES)).not.toContain('PROJECT_IN_USE');
  });

  it('serializes every error in one shape: the number, the message, the data with the string code', () => {
    expect(wireError('SESSION_QUOTA', 'Full.', { pool: 'interactive', code: 'overwritten' })).toEqual({ code: -32057, message: 'Full.', data: { pool: 'interactive', code: 'SESSION_QUOTA' } });
    expect(new TetherError('CANCELLED', 'Stopped.', { callId: 'c' }).toWire()).toEqual(wireError('CANCELLED', 'Stopped.', { callId: 'c' }));
    expect(httpStatusOf('SESSION_LIMIT')).toBe(503);
  });
});

describe('the C# host', () => {
  it('knows exactly the codes and numbers of ERROR_CODES (unity/Editor/Core/Protocol/ErrorCodes.cs)', () => {
    const source = readFileSync(join(ROOT, 'unity/Editor/Core/Protocol/ErrorCodes.cs'), 'utf8');
    expect(csharpNumbers(source)).toEqual({ ...ERROR_CODES });
  });
});
