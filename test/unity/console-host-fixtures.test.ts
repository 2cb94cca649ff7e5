/**
 * The console host offers what the sandbox offers to conformance suites: the host conformance
 * kit (--conformance-kit) and the official MCP conformance suite's fixtures
 * (--conformance-fixtures: tools, resources, resource templates, prompts), seen through
 * `tether mcp` side by side with the sandbox's; and the official suite run against
 * `tether serve` backed by the console host fails only what conformance-baseline.yml lists
 * for the sandbox (as test/http/official-conformance.test.ts runs it).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startConsoleHost, stopConsoleHosts } from '../helpers/console-host.js';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { HeaderProxy } from '../helpers/header-proxy.js';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { REPO_ROOT, TetherProcess, cleanupProcesses, createWorkspace, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';

const require = createRequire(import.meta.url);
const CONFORMANCE_CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const BASELINE = join(REPO_ROOT, 'conformance-baseline.yml');
const SUITE_TIMEOUT_MS = 75_000;

afterEach(async () => {
  await closeMcpSessions();
  await stopConsoleHosts();
  await cleanupProcesses();
});

/** The same editor flags on a sandbox and a console host, each with its own project and TETHER_HOME; an MCP client on each. */
async function sideBySide(flags: string[]): Promise<{ sandbox: Client; consoleHost: Client }> {
  const sandboxWorkspace = createWorkspace();
  const consoleWorkspace = createWorkspace();
  await Promise.all([startSandbox(sandboxWorkspace, flags), startConsoleHost(consoleWorkspace, flags)]);
  const [sandbox, consoleHost] = await Promise.all([connectMcp(sandboxWorkspace), connectMcp(consoleWorkspace)]);
  return { sandbox: sandbox.client, consoleHost: consoleHost.client };
}

const byName = <T extends { name: string }>(items: T[]): T[] => [...items].sort((a, b) => a.name.localeCompare(b.name));

describe('the console host offers the conformance fixtures the sandbox offers', () => {
  it('the host conformance kit: the same tools, arguments and annotations', async () => {
    const { sandbox, consoleHost } = await sideBySide(['--conformance-kit']);
    const kit = async (client: Client) =>
      byName((await client.listTools()).tools.filter((t) => t.name.startsWith('tether_conformance_'))).map(({ name, inputSchema, annotations }) => ({ name, inputSchema, annotations }));
    const expected = await kit(sandbox);
    expect(expected.map((t) => t.name)).toEqual([
      'tether_conformance_attach',
      'tether_conformance_block',
      'tether_conformance_count',
      'tether_conformance_read',
      'tether_conformance_reject',
      'tether_conformance_reload',
      'tether_conformance_wait',
    ]);
    expect(await kit(consoleHost)).toEqual(expected);
  });

  it('the official MCP suite\'s fixtures: the same tools, resources, resource templates and prompts', async () => {
    const names = async (client: Client) => ({
      tools: (await client.listTools()).tools.map((t) => t.name),
      resources: (await client.listResources()).resources.map((r) => r.uri),
      templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
      prompts: (await client.listPrompts()).prompts.map((p) => p.name),
    });
    type Names = Awaited<ReturnType<typeof names>>;
    /** What the flag adds: the sandbox also has its editor's own tools, resources and prompts. */
    const added = (withFixtures: Names, without: Names): Names => {
      const minus = (a: string[], b: string[]): string[] => a.filter((x) => !b.includes(x)).sort();
      return { tools: minus(withFixtures.tools, without.tools), resources: minus(withFixtures.resources, without.resources), templates: minus(withFixtures.templates, without.templates), prompts: minus(withFixtures.prompts, without.prompts) };
    };
    const [fixtures, plain] = await Promise.all([sideBySide(['--conformance-fixtures']), sideBySide([])]);
    const expected = added(await names(fixtures.sandbox), await names(plain.sandbox));
    expect(expected.tools).toContain('test_simple_text');
    expect(expected.resources).toContain('test://static-text');
    expect(expected.prompts).toContain('test_simple_prompt');
    expect(added(await names(fixtures.consoleHost), await names(plain.consoleHost))).toEqual(expected);
  });
});

describe('the official MCP conformance suite against tether serve backed by the console host', () => {
  it.skipIf(!NODE22)(
    `fails only the scenarios conformance-baseline.yml lists${NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`}`,
    async () => {
      const workspace = createWorkspace();
      await startConsoleHost(workspace, ['--conformance-fixtures']);
      const { url, token } = await startServe(workspace);
      // The runner cannot set headers; tether serve takes the token in the Authorization header only.
      const proxy = await HeaderProxy.start(url, { authorization: `Bearer ${token}` });
      const run = await runToExit(NODE22!, [CONFORMANCE_CLI, 'server', '--url', proxy.url, '--suite', 'all', '--expected-failures', BASELINE], {
        cwd: REPO_ROOT,
        env: { ...workspace.env, NO_COLOR: '1' },
        timeoutMs: SUITE_TIMEOUT_MS,
      }).finally(() => proxy.close());
      const output = `${run.stdout}${run.stderr}`;
      expect(run.code, `the conformance suite exited ${run.code}:\n${output}`).toBe(0);
      expect(Number(/Running all suite \((\d+) scenarios\)/.exec(output)?.[1]), output).toBeGreaterThanOrEqual(30);
    },
    SUITE_TIMEOUT_MS + 15_000,
  );
});

/** `tether serve` on a free port, sessions asleep as soon as idle (the suite checks that waking one is seamless). */
async function startServe(workspace: Workspace): Promise<{ url: string; token: string }> {
  const serve = new TetherProcess(['serve', '--port', '0', '--project', workspace.project, '--session-dormant-ms', '0'], workspace.env);
  const { url } = JSON.parse(await serve.waitForLine((l) => l.includes('"event":"listening"'))) as { url: string };
  const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
  return { url, token };
}
