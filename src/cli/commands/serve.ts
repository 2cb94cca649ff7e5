/** `tether serve`: MCP over Streamable HTTP for many agents, until signalled. */
import { join } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { UnsafeDirectoryError } from '../../discovery/secure-file.js';
import { tokenPath } from '../../http/serve-state.js';
import { TetherServer, type TetherServerOptions } from '../../http/tether-server.js';
import { TetherError } from '../../protocol/index.js';
import { ExitError } from '../exit-error.js';
import { createLogger, outputFormat } from '../logger.js';
import { servedProjectFolder } from '../project-folder.js';
import { packageRoot } from '../package-root.js';
import { onShutdownSignal } from '../shutdown.js';

export interface ServeCommandOptions {
  port?: number;
  host?: string;
  allowRemote?: boolean;
  allowedHost?: string[];
  allowedOrigin?: string[];
  project?: string;
  waitMs?: number;
  maxBodyBytes?: number;
  interactiveSessions?: number;
  ephemeralSessions?: number;
  sessionIdleMs?: number;
  sessionRecencyFloorMs?: number;
  sessionDormantMs?: number;
  /** How long a connection has to bring a request with the token (and any request its headers). */
  headerTimeoutMs?: number;
  /** Connections without such a request held at once; past it the oldest are closed. */
  maxUnauthenticatedConnections?: number;
  /** Sessions nobody may evict yet that one client (address and clientInfo.name) may hold in a pool at its capacity. */
  sessionsPerClient?: number;
  logLevel?: string;
  logFormat?: string;
  /** Keeps a caller's own log output tidy (npm start). */
  quiet?: boolean;
}

export async function run(options: ServeCommandOptions): Promise<TetherServer> {
  // As for tether mcp: a --project that is not a project is an error now, not a server that looks healthy.
  const project = options.project === undefined ? undefined : servedProjectFolder(options.project);
  const logger = createLogger('serve', options.logLevel, options.logFormat);
  const pools: TetherServerOptions['pools'] = {
    interactive: {
      ...(options.interactiveSessions ? { capacity: options.interactiveSessions } : {}),
      ...(options.sessionIdleMs ? { idleTtlMs: options.sessionIdleMs } : {}),
      ...(options.sessionRecencyFloorMs !== undefined ? { recencyFloorMs: options.sessionRecencyFloorMs } : {}),
    },
    ephemeral: {
      ...(options.ephemeralSessions ? { capacity: options.ephemeralSessions } : {}),
      ...(options.sessionIdleMs ? { idleTtlMs: Math.min(options.sessionIdleMs, 5 * 60_000) } : {}),
      ...(options.sessionRecencyFloorMs !== undefined ? { recencyFloorMs: options.sessionRecencyFloorMs } : {}),
    },
  };
  let server: TetherServer;
  try {
    server = new TetherServer({
      logger,
      pools,
      dashboardAssets: join(packageRoot(), 'dist', 'web', 'dashboard'),
      ...definedOnly({
        port: options.port,
        host: options.host,
        allowRemote: options.allowRemote,
        allowedHosts: options.allowedHost,
        allowedOrigins: options.allowedOrigin,
        project,
        waitMs: options.waitMs,
        maxBodyBytes: options.maxBodyBytes,
        sessionDormantMs: options.sessionDormantMs,
        headerTimeoutMs: options.headerTimeoutMs,
        maxUnauthenticatedConnections: options.maxUnauthenticatedConnections,
        sessionsPerClient: options.sessionsPerClient,
      }),
    });
  } catch (error) {
    const failure = error instanceof UnsafeDirectoryError ? error : TetherError.from(error);
    throw new ExitError(`${failure.message} [${failure.code}]`, 2);
  }
  onShutdownSignal(async () => server.close());
  let url: string;
  try {
    url = await server.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExitError(code === 'EADDRINUSE' ? `Port ${options.port} is taken; pass another --port (or 0 for any free one).` : (error as Error).message, 2);
  }
  if (options.quiet) return server;
  // A JSON line for scripts to wait on, or a readable one on a terminal.
  if (outputFormat(options.logFormat, process.stdout) === 'json') process.stdout.write(`${JSON.stringify({ event: 'listening', url })}\n`);
  else process.stdout.write(`Tether serve listening on ${url} (bearer token in ${tokenPath(tetherHome())}). Ctrl+C stops.\n`);
  return server;
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
