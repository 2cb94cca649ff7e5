/**
 * X-Tether-Project: a header value is bytes, which a non-ASCII project path (a Windows user
 * name, a macOS name in NFD) does not survive as, so the path travels percent-encoded. A raw
 * ASCII path, as configurations written before hold it, is still taken as it is, a literal
 * `%` included; a value that names no path is a 400. In process for the rule, then a server
 * of this source in process, in front of a sandbox editor on a project under a non-ASCII name.
 */
import type { IncomingMessage } from 'node:http';
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { httpSpec } from '../../src/cli/clients/server-spec.js';
import { projectOf } from '../../src/http/mcp-requests.js';
import { TetherServer } from '../../src/http/tether-server.js';
import { cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await cleanupProcesses();
});

function named(value: string | undefined): ReturnType<typeof projectOf> {
  return projectOf({ headers: value === undefined ? {} : { 'x-tether-project': value } } as unknown as IncomingMessage);
}

/** The header value as Node reads it off the wire: each byte a character (Latin-1). */
function onTheWire(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

describe('projectOf', () => {
  it('decodes a percent-encoded path, as tether setup writes it', () => {
    expect(named(encodeURIComponent('C:\\Users\\田中\\Game'))).toEqual({ ok: true, project: 'C:\\Users\\田中\\Game' });
    expect(named('%2FUsers%2FJose%CC%81%2FMy%20Game')).toEqual({ ok: true, project: '/Users/Jose\u0301/My Game' }); // NFD
    expect(named(undefined)).toEqual({ ok: true, project: undefined });
    expect(named('')).toEqual({ ok: true, project: undefined });
  });

  it('takes a raw ASCII path as it is, a literal % included: it holds a separator, which encodeURIComponent never leaves', () => {
    for (const path of ['/work/Game', 'C:\\Users\\ana\\My Game', '/work/50%25 off/Game', 'C:\\Games\\100%\\x', '\\\\server\\share\\%41']) {
      expect(named(path)).toEqual({ ok: true, project: path });
    }
  });

  it('reads every absolute path back, encoded as Tether writes it, or raw when it is ASCII', () => {
    const segment = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).filter((s) => !/[/\\\0]/.test(s));
    const paths = fc.oneof(
      fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
      fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `C:\\${parts.join('\\')}`),
    );
    fc.assert(
      fc.property(paths, (path) => {
        expect(named(encodeURIComponent(path))).toEqual({ ok: true, project: path });
        if (/^[\x20-\x7e]*$/.test(path)) expect(named(path)).toEqual({ ok: true, project: path });
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('refuses what names no path: raw non-ASCII bytes, a malformed or non-UTF-8 sequence, a NUL', () => {
    for (const value of [onTheWire('/Users/José/Game'), 'C:\\Users\\Jos\u00e9', '%2FUsers%2FJos%E9', '%ZZGame', '%00']) {
      const result = named(value);
      expect(result.ok, value).toBe(false);
      if (!result.ok) expect(result.message).toContain('percent-encoded');
    }
  });
});

describe('tether serve and X-Tether-Project', () => {
  it('reaches the editor of a project under a non-ASCII name by its encoded path, and refuses an unreadable one with 400', { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    const root = dirname(workspace.project);
    const project = join(root, 'Jos\u00e9 田中', 'My Game');
    mkdirSync(dirname(project));
    renameSync(workspace.project, project);
    workspace.project = project;
    await startSandbox(workspace);
    // The server's own project is another: only the header can lead to this editor.
    const server = new TetherServer({ port: 0, home: workspace.home, project: join(root, 'elsewhere'), logger: pino({ level: 'silent' }) });
    const url = await server.start();
    cleanups.push(() => server.close());

    const hierarchy = async (value: string): Promise<string> => {
      const client = new Client({ name: 'project-header-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${server.token}`, 'X-Tether-Project': value } } }));
      cleanups.push(() => client.close());
      const result = await client.callTool({ name: 'get_hierarchy', arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return JSON.stringify(result.content);
    };
    const spec = httpSpec(project, url);
    if (spec.transport !== 'http') throw new Error('not an HTTP spec');
    expect(await hierarchy(spec.headers['X-Tether-Project']!)).toContain('SampleScene');
    // A configuration written before, with a raw ASCII path holding a literal "%25": not decoded.
    const linked = join(root, 'linked 50%25');
    symlinkSync(project, linked);
    expect(await hierarchy(linked)).toContain('SampleScene');

    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    for (const value of [onTheWire(project), '%2FJos%E9']) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-tether-project': value },
        body: initialize,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32050, data: { code: 'BAD_REQUEST', header: 'X-Tether-Project' } } });
    }
    expect(server.registry.size('interactive')).toBe(2);
  });
});
