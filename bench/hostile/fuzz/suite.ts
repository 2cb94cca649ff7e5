/**
 * The fuzz suite: every parser a peer can reach, one campaign each, against real processes:
 * the host's frames before and after the handshake (the sandbox editor's listener), `tether
 * mcp`'s stdin, `tether serve`'s HTTP requests and its JSON-RPC bodies.
 */
import { cleanupProcesses, createWorkspace } from '../../../test/helpers/processes.js';
import { stopAdopted } from '../lib/children.js';
import type { SuiteRecorder } from '../lib/figures.js';
import { EditorTarget, ServeTarget } from '../lib/targets.js';
import { runCampaign, type FuzzDriver } from './campaign.js';
import { postHandshakeDriver, preHandshakeDriver } from './host-drivers.js';
import { mcpStdinDriver } from './mcp-stdin.js';
import { serveHttpDriver, serveJsonRpcDriver } from './serve-drivers.js';

export const PARSERS = ['host-pre', 'host-post', 'mcp-stdin', 'serve-http', 'serve-jsonrpc'] as const;
export type Parser = (typeof PARSERS)[number];

export interface FuzzPlan {
  seed: number;
  /** Inputs per parser. */
  inputs: Record<Parser, number>;
  parsers: readonly Parser[];
  fromBatch?: number;
}

/** Inputs per batch (between two legitimate calls), by parser. */
const BATCH: Record<Parser, number> = { 'host-pre': 2_000, 'host-post': 5_000, 'mcp-stdin': 5_000, 'serve-http': 2_000, 'serve-jsonrpc': 2_000 };

/** What each parser's figures are named by (the drivers' names), so a failure files under the same case. */
const NAMES: Record<Parser, string> = {
  'host-pre': 'host frames before the handshake',
  'host-post': 'host frames after the handshake',
  'mcp-stdin': "tether mcp's stdin",
  'serve-http': "tether serve's HTTP requests",
  'serve-jsonrpc': "tether serve's JSON-RPC bodies",
};

/** Runs each parser's campaign in turn; `checkpoint` saves what is known after each, so a long run keeps what it found. */
export async function runFuzz(plan: FuzzPlan, recorder: SuiteRecorder, log: (line: string) => void, checkpoint: () => void = () => undefined): Promise<void> {
  const workspace = createWorkspace();
  try {
    const editor = await EditorTarget.start(workspace);
    let serve: ServeTarget | undefined;
    const driverFor = async (parser: Parser): Promise<FuzzDriver> => {
      switch (parser) {
        case 'host-pre':
          return preHandshakeDriver(editor);
        case 'host-post':
          return postHandshakeDriver(editor);
        case 'mcp-stdin':
          return mcpStdinDriver(workspace);
        case 'serve-http':
          return serveHttpDriver((serve ??= await ServeTarget.start(workspace, [], plan.seed)));
        case 'serve-jsonrpc':
          return serveJsonRpcDriver((serve ??= await ServeTarget.start(workspace, [], plan.seed)));
      }
    };
    for (const parser of plan.parsers) {
      const started = Date.now();
      let driver: FuzzDriver | undefined;
      try {
        driver = await driverFor(parser);
        const batchSize = Math.min(BATCH[parser], plan.inputs[parser]);
        await runCampaign(driver, { inputs: plan.inputs[parser], batchSize, seed: plan.seed, ...(plan.fromBatch === undefined ? {} : { fromBatch: plan.fromBatch }) }, recorder, log);
      } catch (error) {
        recorder.fail(NAMES[parser], error);
      } finally {
        await driver?.close();
        await stopAdopted();
      }
      log(`fuzz ${parser}: done in ${Math.round((Date.now() - started) / 1000)} s`);
      checkpoint();
    }
  } finally {
    await cleanupProcesses();
  }
}
