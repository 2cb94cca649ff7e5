/**
 * `tether mcp`: the stdio MCP server that MCP clients spawn. stdout carries the protocol and
 * nothing else; logs go to stderr and $TETHER_HOME/logs/mcp.log. It exits cleanly on
 * SIGINT, SIGTERM, SIGHUP and when stdin closes, leaving no process or handle behind.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Front } from '../../mcp/front.js';
import { createMcpServer } from '../../mcp/mcp-server.js';
import { FastCallTransport } from '../../mcp/fast-path/fast-call-transport.js';
import { exitWhenFlushed } from '../flushed-exit.js';
import { createLogger } from '../logger.js';
import { servedProjectFolder } from '../project-folder.js';
import { onShutdownSignal } from '../shutdown.js';

export interface McpCommandOptions {
  project?: string;
  waitMs?: number;
  logLevel?: string;
  logFormat?: string;
}

export async function run(options: McpCommandOptions): Promise<void> {
  // A folder that is not a project is an error now, not a server that says "connected" and waits.
  const project = options.project === undefined ? undefined : servedProjectFolder(options.project);
  const logger = createLogger('mcp', options.logLevel, options.logFormat);
  const front = new Front({
    ...(project ? { project } : {}),
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
    logger,
    // Large results go from the host's socket to stdout as the bytes the host sent.
    liftLongStrings: true,
  });
  front.start();
  // Plain tool calls skip the SDK's per-request work (src/mcp/fast-path/); TETHER_FAST_PATH=0 turns that off.
  const transport = new FastCallTransport({
    enabled: process.env.TETHER_FAST_PATH !== '0',
    onFirstFastCall: () => logger.info('fast path serving plain tools/call'),
    // Closed under us (the SDK closes it when stdout fails: the client is gone), the session is
    // over: it reads stdin no more, so its end would never come, and the process would stay.
    onClosed: () => leave('the MCP transport closed'),
  });
  const handle = serveStdio(({ era }) => createMcpServer(front, era, { splicer: transport, fastCalls: transport }), {
    transport,
    onerror: (error) => logger.warn({ err: error }, 'mcp transport error'),
  });
  let stopping: Promise<void> | undefined;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      logger.info({ why }, 'shutting down');
      await front.close();
      await handle.close().catch(() => undefined);
      logger.flush();
    })();
    return stopping;
  };
  onShutdownSignal((signal) => stop(signal));
  // The client closing our stdin is the normal way an MCP session ends, and it may read stdout
  // until we exit (the spec's stdio shutdown): answers already written reach it first.
  let leaving = false;
  const leave = (why = 'stdin closed'): void => {
    if (leaving) return;
    leaving = true;
    void stop(why).finally(() => {
      const unread = process.stdout.writableLength;
      if (unread > 0) logger.info({ bytes: unread }, 'exiting once the client has read what was written to it');
      exitWhenFlushed(0);
    });
  };
  process.stdin.once('end', () => leave());
  process.stdin.once('close', () => leave());
}
