/**
 * `tether setup <client>`: writes Tether into an MCP client's own configuration file (Claude
 * Code, Claude Desktop, Cursor, VS Code, Windsurf, Codex, Gemini CLI), merged with what is
 * there: other servers and settings kept, a backup beside the file, nothing written when the
 * entry is already right. Stdio by default (this installation's `tether mcp --project DIR`, by
 * absolute paths); `--http` points the client at `tether serve` with the token read from the
 * TETHER_TOKEN variable in the client's own syntax, never written into the file. `--dry-run`
 * prints the change. `tether setup` alone lists the clients found here and whether each has Tether.
 */
import { existsSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { tokenPath } from '../../http/serve-state.js';
import { ConfigFileError, readConfigFile, tomlTable, valueAt, withServer, writeConfigFile } from '../clients/config-document.js';
import { CLIENTS, currentContext, findClient } from '../clients/registry.js';
import { DEFAULT_SERVER_NAME, httpSpec, serveUrl, stdioSpec } from '../clients/server-spec.js';
import type { ClientContext, McpClient, Scope, ServerSpec } from '../clients/types.js';
import { ExitError } from '../exit-error.js';

export interface SetupClientOptions {
  project?: string;
  scope?: string;
  http?: boolean;
  url?: string;
  name?: string;
  dryRun?: boolean;
}

export function run(clientName: string | undefined, options: SetupClientOptions, ctx: ClientContext = currentContext()): void {
  const project = resolve(options.project ?? process.cwd());
  if (!existsSync(project) || !statSync(project).isDirectory()) throw new ExitError(`There is no folder at ${project}. Pass the project folder with --project.`, 2);
  const name = options.name ?? DEFAULT_SERVER_NAME;
  if (clientName === undefined) {
    process.stdout.write(`${listClients(project, name, ctx).join('\n')}\n`);
    return;
  }
  const client = findClient(clientName);
  if (!client) throw new ExitError(`Unknown client "${clientName}". Tether sets up: ${CLIENTS.map((c) => c.id).join(', ')}.`, 2);
  const scope = chooseScope(client, options.scope);
  if (options.http && client.noHttp) throw new ExitError(client.noHttp, 2);
  const spec: ServerSpec = options.http ? httpSpec(project, options.url ?? serveUrl(ctx.env)) : stdioSpec(project, ctx.env, ctx.platform, ctx.home);
  process.stdout.write(`${setUp(client, scope, project, name, spec, ctx, options.dryRun === true).join('\n')}\n`);
}

export function chooseScope(client: McpClient, requested: string | undefined): Scope {
  if (requested === undefined) return client.scopes[0]!;
  if (!(client.scopes as readonly string[]).includes(requested)) {
    throw new ExitError(`${client.name} has no "${requested}" scope; it has ${client.scopes.map((s) => `"${s}"`).join(' and ')}.`, 2);
  }
  return requested as Scope;
}

/** The entry as it appears in the client's file, for people to read. */
export function entryText(client: McpClient, scope: Scope, project: string, name: string, entry: Record<string, unknown>): string {
  if (client.format === 'toml') return tomlTable(client.serversPath(scope, project), name, entry);
  return `${JSON.stringify(name)}: ${JSON.stringify(entry, null, 2)}`;
}

function setUp(client: McpClient, scope: Scope, project: string, name: string, spec: ServerSpec, ctx: ClientContext, dryRun: boolean): string[] {
  const path = client.configPath(scope, project, ctx);
  const entry = client.entry(spec);
  let change;
  try {
    change = withServer(readConfigFile(path, client.format), client, client.serversPath(scope, project), name, entry, client.addExtras ? (d) => client.addExtras!(d, spec) : undefined);
  } catch (error) {
    if (error instanceof ConfigFileError) {
      throw new ExitError(`${error.message}. Nothing was written. Fix the file, or add this entry by hand:\n${entryText(client, scope, project, name, entry)}`);
    }
    throw error;
  }
  const where = `${client.name} (${scope} scope)`;
  const shown = entryText(client, scope, project, name, entry)
    .split('\n')
    .map((l) => `  ${l}`);
  const out: string[] = [];
  if (change.kind === 'unchanged') {
    out.push(`${where}: ${path} already has "${name}" as Tether would write it; nothing to change.`);
  } else if (dryRun) {
    const verb = change.kind === 'replaced' ? `would replace "${name}" in` : change.kind === 'created' ? 'would create' : `would add "${name}" to`;
    out.push(`Dry run: ${where} ${verb} ${path}:`);
    if (change.kind === 'replaced') out.push(`- ${JSON.stringify(change.previous)}`);
    out.push(...shown.map((l) => `+${l.slice(1)}`), 'Nothing was written.');
  } else {
    const { backup } = writeConfigFile(path, change.text, { privateIfNew: scope !== 'project' });
    const verb = change.kind === 'replaced' ? `Replaced "${name}" in` : change.kind === 'created' ? 'Created' : `Added "${name}" to`;
    out.push(`${where}: ${verb} ${path}${backup ? ` (the previous file is kept as ${backup})` : ''}:`, ...shown);
  }
  if (spec.transport === 'stdio') {
    out.push('', `It starts ${spec.command} ${spec.args.join(' ')} (stdio): no token needed.`);
  } else {
    out.push('', `It reaches tether serve at ${spec.url}; the token stays in ${tokenPath(tetherHome(ctx.env))} (0600), out of the file.`, ...client.tokenAdvice(tokenPath(tetherHome(ctx.env))));
  }
  if (scope === 'project') out.push(`${path} names paths of this machine (node, Tether, the project) and no secret; commit it only where every machine has the same paths.`);
  out.push(`Check it: ${client.howToCheck}; or tether doctor --client ${client.id}${scope === client.scopes[0] ? '' : ` --scope ${scope}`}.`);
  return out;
}

/** `tether setup` alone: the clients found here (installed or configured), and whether each has Tether. */
export function listClients(project: string, name: string, ctx: ClientContext): string[] {
  const out = ['MCP clients on this machine:'];
  for (const client of CLIENTS) {
    try {
      out.push(clientLine(client, project, name, ctx));
    } catch (error) {
      // One client whose configuration cannot be located (several Claude Desktop packages) says
      // why, and the others are still listed.
      out.push(`  ${client.name.padEnd(15)} ${(error as Error).message}`);
    }
  }
  out.push('', `Project: ${project} (the working directory). tether setup <client> --help: its options (--project, --scope, --http, --dry-run).`);
  return out;
}

/** One client's line in the listing. */
function clientLine(client: (typeof CLIENTS)[number], project: string, name: string, ctx: ClientContext): string {
  const marks = client.installedMarks(ctx);
  const installed = marks.dirs.some((d) => existsSync(d)) || marks.commands.some((c) => onPath(c, ctx));
  const found: string[] = [];
  let configured = false;
  for (const scope of client.scopes) {
    const path = client.configPath(scope, project, ctx);
    if (!existsSync(path)) continue;
    configured = true;
    try {
      const entry = valueAt(readConfigFile(path, client.format).document, [...client.serversPath(scope, project), name]);
      if (entry !== undefined) found.push(`${scope} scope, ${path}`);
    } catch (error) {
      found.push(`${path} cannot be read: ${(error as Error).message}`);
    }
  }
  const state = found.length > 0 ? `has "${name}" (${found.join('; ')}): tether doctor --client ${client.id} checks it` : `no "${name}" for this project: tether setup ${client.id}`;
  const presence = installed ? 'installed' : configured ? 'configured' : 'not found';
  if (!installed && !configured && found.length === 0) {
    return `  ${client.name.padEnd(15)} not found (tether setup ${client.id} writes ${client.configPath(client.scopes[0]!, project, ctx)})`;
  }
  return `  ${client.name.padEnd(15)} ${presence}; ${state}`;
}

function onPath(command: string, ctx: ClientContext): boolean {
  const dirs = (ctx.env.PATH ?? ctx.env.Path ?? '').split(ctx.platform === 'win32' ? ';' : delimiter).filter(Boolean);
  const names =
    ctx.platform === 'win32'
      ? (ctx.env.PATHEXT ?? '.EXE;.CMD;.BAT')
          .split(';')
          .map((ext) => command + ext.toLowerCase())
          .concat(command)
      : [command];
  return dirs.some((dir) => names.some((n) => existsSync(join(dir, n))));
}
