/**
 * "The first ten minutes": with a wrong token, the MCP Inspector started an OAuth flow and
 * Claude Code said only "Failed to connect". tether serve uses a static token, not OAuth
 * (authorization is optional in MCP), and says so the way clients read a 401: RFC 6750's
 * `WWW-Authenticate: Bearer error="invalid_token", error_description="…"` naming where the
 * token is ($TETHER_HOME/serve.json), no `resource_metadata`, and 404 for the OAuth discovery
 * documents, so a client's discovery finds nothing and it reports the message.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { REPO_ROOT, cleanupProcesses, createWorkspace, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';
import { sameLengthWrong, startServe } from '../helpers/serve.js';

const require = createRequire(import.meta.url);
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');

afterEach(cleanupProcesses);

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** The Inspector's own files stay in the workspace (see test/mcp/inspector.test.ts). */
function inspectorEnv(workspace: Workspace, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dir = join(dirname(workspace.home), 'inspector');
  mkdirSync(dir, { recursive: true });
  return { ...workspace.env, HOME: dir, MCP_CATALOG_PATH: join(dir, 'mcp.json'), MCP_CLIENT_CONFIG_PATH: join(dir, 'client.json'), MCP_INSPECTOR_SECRET_STORE: 'memory', ...extra };
}

describe('a wrong bearer token', () => {
  it('is answered with an RFC 6750 invalid_token challenge that says where the token is, and no OAuth metadata', async () => {
    const workspace = createWorkspace();
    const served = await startServe(workspace);
    const initializeWith = (token: string) =>
      fetch(served.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: initialize,
      });
    // A short one, and the real token with its last character changed: as long as the real one, and as wrong.
    const sameLength = sameLengthWrong(served.token);
    for (const [what, wrong] of [
      ['short', 'wrong'],
      ['same length', sameLength],
    ] as const) {
      const answer = await initializeWith(wrong);
      expect(answer.status, what).toBe(401);
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="tether", error="invalid_token", error_description="[^"\\]*\$TETHER_HOME\/serve\.json[^"\\]*"$/);
      expect(challenge).not.toContain('resource_metadata');
      expect(((await answer.json()) as { message: string }).message).toContain('$TETHER_HOME/serve.json');
    }
    // The same request with the right token is admitted: the refusals above were the token's.
    const admitted = await initializeWith(served.token);
    await admitted.text();
    expect(admitted.status).toBe(200);
    const origin = new URL(served.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
    }
  });

  it.skipIf(!NODE22)(`makes the MCP Inspector CLI fail with that message, whether it may sign in or not${NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await startServe(workspace);
    const target = ['--method', 'tools/list', '--transport', 'http', '--server-url', served.url, '--header', 'Authorization: Bearer wrong'];
    // --stored-auth-only: the Inspector's mode for scripts; MCP_AUTO_OPEN_ENABLED: as if a person were there to sign in.
    for (const [flags, env] of [
      [['--stored-auth-only'], {}],
      [[], { MCP_AUTO_OPEN_ENABLED: 'true', BROWSER: 'false' }],
    ] as const) {
      const run = await runToExit(NODE22!, [INSPECTOR, '--cli', '--format', 'json', ...flags, ...target], { cwd: REPO_ROOT, env: inspectorEnv(workspace, env), timeoutMs: 25_000 });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3); // the Inspector's "authentication required"
      // --format json: the failure is one JSON line, on stderr beside the Inspector's notices.
      const line = `${run.stdout}\n${run.stderr}`.split('\n').find((l) => l.startsWith('{"error"'));
      const { error } = JSON.parse(line ?? '{}') as { error: { message: string } };
      expect(error.message).toContain('$TETHER_HOME/serve.json');
      expect(error.message).toContain('Tether uses this token, not OAuth: there is nothing to sign in to.');
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/Authorization complete|authorize\?/i);
    }
  });
});
