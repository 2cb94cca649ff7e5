/**
 * `tether doctor [--client NAME]`: reads that client's configuration, starts exactly the
 * command it would start, in the environment it would give it (or reaches the URL it would,
 * with the token it would send), and checks each step: the command starts, MCP initialize,
 * tools listed, the project's editor reached, versions agree, Tether's record and token files
 * private, the HTTP endpoint and its token. Without --client it checks the stdio command
 * `tether setup` would write. One line per check, ✓ or ✗ with the fix; exit 1 on any ✗.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPEN_TO_OTHERS, readPrivateFile } from '../../discovery/secure-file.js';
import { tetherHome } from '../../discovery/tether-home.js';
import { tokenPath } from '../../http/serve-state.js';
import { ConfigFileError, readConfigFile, valueAt } from '../clients/config-document.js';
import { fail, fileChecks, httpChecks, pass, serverChecks, skip, unityPackageCheck, type Check } from '../clients/doctor-checks.js';
import { CLIENTS, currentContext, findClient } from '../clients/registry.js';
import { DEFAULT_SERVER_NAME, stdioSpec } from '../clients/server-spec.js';
import type { ClientContext, ConfiguredServer, McpClient, Scope } from '../clients/types.js';
import { ExitError } from '../exit-error.js';
import { chooseScope } from './setup-client.js';

export interface DoctorOptions {
  client?: string;
  scope?: string;
  project?: string;
  name?: string;
  json?: boolean;
  timeoutMs?: number;
}

export async function run(options: DoctorOptions, ctx: ClientContext = currentContext()): Promise<number> {
  const project = resolve(options.project ?? process.cwd());
  if (!existsSync(project) || !statSync(project).isDirectory()) throw new ExitError(`There is no folder at ${project}. Pass the project folder with --project.`, 2);
  const name = options.name ?? DEFAULT_SERVER_NAME;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const checks: Check[] = [];
  let server: ConfiguredServer | undefined;
  let env: Record<string, string>;
  let subject: string;
  if (options.client) {
    const client = findClient(options.client);
    if (!client) throw new ExitError(`Unknown client "${options.client}". Tether knows: ${CLIENTS.map((c) => c.id).join(', ')}.`, 2);
    const scope = chooseScope(client, options.scope);
    subject = `${client.name} (${scope} scope)`;
    const found = configured(client, scope, project, name, ctx);
    checks.push(found.check);
    server = found.server;
    env = server?.transport === 'stdio' ? client.serverEnvironment(server.env, ctx.env) : definedOnly(ctx.env);
  } else {
    subject = 'the stdio command tether setup writes';
    const spec = stdioSpec(project, ctx.env, ctx.platform, ctx.home);
    server = spec.transport === 'stdio' ? { ...spec } : undefined;
    env = { ...definedOnly(ctx.env), ...(spec.transport === 'stdio' ? spec.env : {}) };
  }
  const home = tetherHome({ ...ctx.env, ...(server?.transport === 'stdio' ? server.env : {}) });
  // VS Code keeps the token it asked for in its secret storage: the check sends serve's own.
  if (server?.transport === 'http' && server.tokenSource.kind === 'prompt') server = { ...server, headers: { ...server.headers, Authorization: `Bearer ${serveToken(home) ?? ''}` } };
  if (server) checks.push(...(await serverChecks(server, env, project, timeoutMs)));
  else checks.push(skip('server', 'not started: the client has no Tether entry'));
  const unity = unityPackageCheck(project);
  if (unity) checks.push(unity);
  checks.push(...fileChecks(home, project));
  checks.push(...(await httpChecks(home, server, Math.min(timeoutMs, 5_000))));
  const failed = checks.filter((c) => !c.ok).length;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ok: failed === 0, subject, project, checks }, null, 2)}\n`);
  } else {
    const lines = [`tether doctor: ${subject}, project ${project}`];
    for (const c of checks) {
      lines.push(`${c.skipped ? '-' : c.ok ? '✓' : '✗'} ${c.title}: ${c.detail}`);
      if (c.fix) lines.push(`    fix: ${c.fix}`);
    }
    lines.push(failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return failed === 0 ? 0 : 1;
}

function configured(client: McpClient, scope: Scope, project: string, name: string, ctx: ClientContext): { check: Check; server?: ConfiguredServer } {
  const path = client.configPath(scope, project, ctx);
  const setupLine = `tether setup ${client.id} --project ${project}${scope === client.scopes[0] ? '' : ` --scope ${scope}`}`;
  if (!existsSync(path)) return { check: fail('configuration', `${path} does not exist`, setupLine) };
  let entry: unknown;
  try {
    entry = valueAt(readConfigFile(path, client.format).document, [...client.serversPath(scope, project), name]);
  } catch (error) {
    if (error instanceof ConfigFileError) return { check: fail('configuration', error.message, `fix the file (${client.name} cannot read it either), then ${setupLine}`) };
    throw error;
  }
  if (entry === undefined) return { check: fail('configuration', `${path} has no server "${name}"`, setupLine) };
  const server = client.read(entry, ctx.env);
  if ('error' in server) return { check: fail('configuration', `${path}: "${name}": ${server.error}`, setupLine) };
  return { check: pass('configuration', `${path}: "${name}" (${server.transport})`), server };
}

function serveToken(home: string): string | undefined {
  const read = readPrivateFile(tokenPath(home), OPEN_TO_OTHERS);
  return read.status === 'read' ? read.content.toString('utf8').trim() : undefined;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
