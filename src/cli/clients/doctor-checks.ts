/**
 * The checks behind `tether doctor`, each a line that passes or fails with the fix: the
 * server a client would start (or reach) runs, answers MCP's initialize, lists its tools and
 * reaches the project's editor; the versions agree; Tether's files are private; the HTTP
 * endpoint answers with serve's token and refuses without it.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, win32 } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { HostRecord, canonicalPath } from '../../discovery/host-record.js';
import { OPEN_TO_OTHERS, readPrivateFile, whyNotPrivate } from '../../discovery/secure-file.js';
import { hostsDir } from '../../discovery/tether-home.js';
import { serveStatePath, tokenPath } from '../../http/serve-state.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol/methods.js';
import { UNITY_PACKAGE_NAME as UNITY_PACKAGE } from '../commands/setup-unity.js';
import { referencesFolder } from '../commands/setup-unity-manifest.js';
import { packageRoot, packageVersion } from '../package-root.js';
import type { ConfiguredServer } from './types.js';

export interface Check {
  ok: boolean;
  /** Not run (what it needs failed first, or there is nothing to check); never counts as a failure. */
  skipped?: boolean;
  title: string;
  detail: string;
  fix?: string;
}

export function pass(title: string, detail: string): Check {
  return { ok: true, title, detail };
}

export function fail(title: string, detail: string, fix: string): Check {
  return { ok: false, title, detail, fix };
}

export function skip(title: string, detail: string): Check {
  return { ok: true, skipped: true, title, detail };
}

interface Status {
  link?: string;
  host?: { kind?: string; name?: string; version?: string; projectPath?: string; state?: string } | null;
  lastError?: { code?: string; message?: string };
}

/**
 * Starts (stdio) or reaches (HTTP) the server exactly as the client would, and runs MCP's
 * first steps against it. `env` is the environment the client gives a stdio server.
 */
export async function serverChecks(server: ConfiguredServer, env: Record<string, string>, project: string, timeoutMs: number): Promise<Check[]> {
  const checks: Check[] = [];
  if (server.transport === 'stdio') {
    const problem = commandProblem(server.command, server.args);
    if (problem) return [fail('command', problem, 'run tether setup for this client again: it writes the absolute paths of this node and this Tether')];
    checks.push(pass('command', `${server.command} ${server.args.join(' ')}`));
  }
  const client = new Client({ name: 'tether-doctor', version: packageVersion() });
  let stderr = '';
  const transport =
    server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env, cwd: homedir(), stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = <T>(promise: Promise<T>, what: string): Promise<T> =>
    Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer to ${what} within ${timeoutMs} ms`)), timeoutMs).unref())]);
  try {
    try {
      await deadline(client.connect(transport), 'initialize');
    } catch (error) {
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      const fix =
        server.transport === 'stdio'
          ? 'run the command above in a terminal to see why it stops; then tether setup for this client again'
          : `start tether serve (tether serve --project ${project}) and check the token: ${tokenFixHint()}`;
      checks.push(fail('MCP initialize', `${(error as Error).message}${tail ? ` (stderr: ${tail})` : ''}`, fix));
      return checks;
    }
    const info = client.getServerVersion();
    checks.push(pass('MCP initialize', `${info?.name ?? 'server'} ${info?.version ?? ''} (${server.transport})`.trim()));
    const { tools } = await deadline(client.listTools(), 'tools/list');
    checks.push(tools.length > 0 ? pass('tools listed', `${tools.length} tools`) : fail('tools listed', 'the server lists no tools', 'check that this is Tether (tether mcp) and not another server'));
    const status = await editorStatus(client, timeoutMs);
    const host = status?.host;
    if (status?.link === 'authenticated' && host) {
      const same = !host.projectPath || samePath(host.projectPath, project);
      checks.push(
        same
          ? pass('editor reached', `${host.kind ?? 'editor'} "${host.name ?? ''}" (${host.state ?? 'ready'}) for ${host.projectPath}`)
          : fail('editor reached', `the server reached the editor of ${host.projectPath}, not ${project}`, `pass --project ${project} to tether mcp (tether setup does)`),
      );
    } else {
      const why = status?.lastError?.message ?? `link ${status?.link ?? 'unknown'}`;
      checks.push(
        fail(
          'editor reached',
          `no editor answered for ${project}: ${why}`,
          `open the project in Unity with the Tether package (tether setup unity --project ${project}), or run the sandbox (npm start)`,
        ),
      );
    }
    checks.push(versionCheck(info?.version, host));
  } catch (error) {
    checks.push(fail('MCP session', (error as Error).message, 'run tether doctor again; if it fails the same way, report it'));
  } finally {
    await client.close().catch(() => undefined);
  }
  return checks;
}

/** tether_status, asked until the link is up or the time is out (the front connects in the background). */
async function editorStatus(client: Client, timeoutMs: number): Promise<Status | undefined> {
  const end = Date.now() + Math.min(timeoutMs, 10_000);
  let status: Status | undefined;
  do {
    const result = await client.callTool({ name: 'tether_status', arguments: {} });
    status = result.structuredContent as Status | undefined;
    if (status?.link === 'authenticated') return status;
    await new Promise((r) => setTimeout(r, 250));
  } while (Date.now() < end);
  return status;
}

function versionCheck(front: string | undefined, host: Status['host']): Check {
  const mine = packageVersion();
  const detail = `this tether ${mine}, the front it starts ${front ?? '?'}${host ? `, editor ${host.kind ?? ''} ${host.version ?? '?'}` : ''}`;
  if (front && front !== mine) return fail('versions', detail, 'the client starts another installation of Tether: run tether setup for this client again from the one you want');
  return pass('versions', detail);
}

/** In a Unity project, the Tether package the editor loads: this installation's, at this version. */
export function unityPackageCheck(project: string): Check | undefined {
  const manifestPath = join(project, 'Packages', 'manifest.json');
  if (!existsSync(join(project, 'ProjectSettings', 'ProjectVersion.txt')) || !existsSync(manifestPath)) return undefined;
  const manifest = safeJson(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, unknown> } | undefined;
  const reference = manifest?.dependencies?.[UNITY_PACKAGE];
  const fix = `tether setup unity --project ${project}`;
  if (reference === undefined) return fail('Unity package', `${manifestPath} has no ${UNITY_PACKAGE}`, fix);
  const ours = join(packageRoot(), 'unity');
  if (!referencesFolder(reference, ours, dirname(manifestPath))) return fail('Unity package', `${UNITY_PACKAGE} is ${JSON.stringify(reference)}, not this installation's ${ours}`, fix);
  const version = (safeJson(readFileSync(join(ours, 'package.json'), 'utf8')) as { version?: string } | undefined)?.version;
  return version === packageVersion()
    ? pass('Unity package', `${UNITY_PACKAGE} ${version} from ${ours}`)
    : fail('Unity package', `${UNITY_PACKAGE} is ${version ?? '?'}, this tether ${packageVersion()}`, 'reinstall tether-mcp');
}

function commandProblem(command: string, args: string[]): string | undefined {
  if (!isAbsolute(command)) return `"${command}" is not an absolute path: a client started from the Dock, a desktop or another folder may not find it`;
  if (!existsSync(command)) return `${command} does not exist (node moved or was upgraded?)`;
  const script = args[0];
  if (script && script.endsWith('.js') && !existsSync(script)) return `${script} does not exist (Tether moved or was removed?)`;
  return undefined;
}

/**
 * One folder, however named: compared as editor selection compares them (canonicalPath: the
 * on-disk case on APFS and NTFS, links and 8.3 names resolved, no trailing separator), and on
 * Windows in any case (for a folder that is not there).
 */
export function samePath(a: string, b: string): boolean {
  const norm = (p: string): string => (process.platform === 'win32' ? canonicalPath(p).toLowerCase() : canonicalPath(p));
  return norm(a) === norm(b);
}

/** On Windows: whether TETHER_HOME is under the user profile, whose access list keeps it the user's. */
export function windowsHomeCheck(home: string, profile: string): Check {
  const inside = win32.relative(profile.toLowerCase(), home.toLowerCase());
  if (inside === '' || (!inside.startsWith('..') && !win32.isAbsolute(inside))) {
    return pass('TETHER_HOME private', `${home}: under your user profile, whose access list keeps it yours (Windows has no file modes: that list is what Tether relies on)`);
  }
  return fail(
    'TETHER_HOME private',
    `${home} is outside your user profile (${profile}): on Windows a folder takes the access list of the one it is in, which often lets other users read it, and the editor's token with it`,
    `unset TETHER_HOME (the default is under %LOCALAPPDATA%), set it to a folder under your profile, or restrict it to yourself: icacls "${home}" /inheritance:r /grant:r "%USERNAME%:(OI)(CI)F"`,
  );
}

export function tokenFixHint(): string {
  return 'TETHER_TOKEN must hold the contents of the serve-token file under TETHER_HOME';
}

/**
 * TETHER_HOME, host records, serve's token and state: private to this user (0600, 0700). On
 * Windows there are no such modes to check: what keeps them private is the access list of the
 * folder they are in, which the user profile's is (%LOCALAPPDATA%, the default), and a folder
 * elsewhere (C:\tether) usually is not, so that is what is said.
 */
export function fileChecks(home: string, project: string, windows = process.platform === 'win32', profile = process.env.USERPROFILE ?? homedir()): Check[] {
  const checks: Check[] = [];
  if (!existsSync(home)) return [skip('private files', `${home} does not exist yet (no editor or server has run with it)`)];
  if (windows) checks.push(windowsHomeCheck(home, profile));
  else {
    const homeProblem = whyNotPrivate(statSync(home), OPEN_TO_OTHERS);
    checks.push(homeProblem ? fail('TETHER_HOME private', `${home}: ${homeProblem}`, `chmod 700 '${home}'`) : pass('TETHER_HOME private', home));
  }
  const files = [tokenPath(home), serveStatePath(home)];
  const records = hostsDir(home);
  if (existsSync(records)) for (const name of readdirSync(records)) if (name.endsWith('.json')) files.push(join(records, name));
  const exposed: string[] = [];
  let recordForProject: HostRecord | undefined;
  for (const file of files) {
    const read = readPrivateFile(file, OPEN_TO_OTHERS);
    if (read.status === 'untrusted') exposed.push(`${file} (${read.reason})`);
    if (read.status === 'read' && file.startsWith(records)) {
      const parsed = HostRecord.safeParse(safeJson(read.content.toString('utf8')));
      if (parsed.success && samePath(parsed.data.projectPath, project)) recordForProject = parsed.data;
    }
  }
  const present = files.filter((f) => existsSync(f)).length;
  checks.push(
    windows
      ? skip('record and token files private', `Windows has no file modes to check: the files are as private as TETHER_HOME's folder (above)`)
      : exposed.length > 0
        ? fail('record and token files private', exposed.join('; '), `chmod 600 each file named (a token others could read must be replaced: delete ${tokenPath(home)} and restart tether serve)`)
        : pass('record and token files private', `${present} file${present === 1 ? '' : 's'} checked, each 0600`),
  );
  if (recordForProject) {
    const supported = SUPPORTED_PROTOCOL_VERSIONS.includes(recordForProject.protocolVersion);
    checks.push(
      supported
        ? pass('host protocol', `the editor speaks protocol ${recordForProject.protocolVersion}; this Tether speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`)
        : fail(
            'host protocol',
            `the editor speaks protocol ${recordForProject.protocolVersion}; this Tether speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
            'install matching versions of Tether and its editor package',
          ),
    );
  }
  return checks;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The HTTP endpoint: answers /healthz with the token, refuses without it; the client's token variable holds the token. */
export async function httpChecks(home: string, server: ConfiguredServer | undefined, timeoutMs: number): Promise<Check[]> {
  const checks: Check[] = [];
  const token = readPrivateFile(tokenPath(home), OPEN_TO_OTHERS);
  const state = readPrivateFile(serveStatePath(home), OPEN_TO_OTHERS);
  const url = server?.transport === 'http' ? server.url : state.status === 'read' ? (safeJson(state.content.toString('utf8')) as { url?: string } | undefined)?.url : undefined;
  if (!url) return [skip('HTTP endpoint', 'tether serve is not running for this TETHER_HOME (nothing to check)')];
  if (server?.transport === 'http') {
    const source = server.tokenSource;
    const expected = token.status === 'read' ? token.content.toString('utf8').trim() : undefined;
    if (source.kind === 'variable') {
      if (source.value === undefined) checks.push(fail('HTTP token', `${source.name} is not set in this environment`, `export ${source.name}="$(cat '${tokenPath(home)}')" where the client starts`));
      else if (expected && source.value !== expected)
        checks.push(fail('HTTP token', `${source.name} does not hold serve's current token`, `export ${source.name}="$(cat '${tokenPath(home)}')" again (the token was replaced)`));
      else checks.push(pass('HTTP token', `${source.name} holds serve's token`));
    } else if (source.kind === 'prompt') {
      checks.push(skip('HTTP token', source.note));
    } else {
      checks.push(fail('HTTP token', 'the entry sends no Authorization header', 'run tether setup for this client with --http again'));
    }
  }
  if (token.status !== 'read') return [...checks, fail('HTTP endpoint', `no readable token at ${tokenPath(home)}`, 'start tether serve once: it creates the token')];
  const health = new URL('/healthz', url);
  const get = async (headers: Record<string, string>): Promise<number | string> => {
    try {
      const response = await fetch(health, { headers, signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const withToken = await get({ Authorization: `Bearer ${token.content.toString('utf8').trim()}` });
  if (typeof withToken === 'string') return [...checks, fail('HTTP endpoint', `${health.origin} does not answer (${withToken})`, 'start it: tether serve --project DIR')];
  checks.push(
    withToken === 200 || withToken === 503
      ? pass('HTTP endpoint', `${url} answers /healthz with the token (${withToken === 200 ? 'every editor link up' : 'an editor link is down'})`)
      : fail('HTTP endpoint', `${health.href} answered ${withToken} with the token`, 'the token file may have been replaced after tether serve started: restart tether serve'),
  );
  const without = await get({});
  checks.push(
    without === 401
      ? pass('HTTP token required', 'a request without the token is refused (401)')
      : fail('HTTP token required', `a request without the token got ${without}`, 'this is not a Tether server, or it was started without its guards: report it'),
  );
  return checks;
}
