/** `tether serve`: MCP over Streamable HTTP for many agents, until signalled. */
import { TetherServer, type TetherServerOptions } from '../../http/tether-server.js';
import { TetherError } from '../../protocol/index.js';
import { ExitError } from '../exit-error.js';
import { createLogger } from '../logger.js';
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
  logLevel?: string;
  /** Keeps a caller's own log output tidy (npm start). */
  quiet?: boolean;
}

export async function run(options: ServeCommandOptions): Promise<TetherServer> {
  const logger = createLogger('serve', options.logLevel);
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
      ...definedOnly({
        port: options.port,
        host: options.host,
        allowRemote: options.allowRemote,
        allowedHosts: options.allowedHost,
        allowedOrigins: options.allowedOrigin,
        project: options.project,
        waitMs: options.waitMs,
        maxBodyBytes: options.maxBodyBytes,
        sessionDormantMs: options.sessionDormantMs,
      }),
    });
  } catch (error) {
    throw new ExitError(TetherError.from(error).message, 2);
  }
  onShutdownSignal(async () => server.close());
  let url: string;
  try {
    url = await server.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExitError(code === 'EADDRINUSE' ? `Port ${options.port} is taken; pass another --port (or 0 for any free one).` : (error as Error).message, 2);
  }
  if (!options.quiet) process.stdout.write(`${JSON.stringify({ event: 'listening', url })}\n`);
  return server;
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
