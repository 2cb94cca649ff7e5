/**
 * Load and soak: 30 fronts (`tether mcp`, each with its MCP client) and 500 HTTP sessions on
 * one `tether serve`, calling the editor for the whole run while it reloads every so often and
 * is restarted (SIGTERM, then kill -9). Samples every process's memory and descriptors, the
 * live heap after a full collection of serve and the editor, and the process count; judges the
 * least-squares slope of each per hour after a warm-up fifth (the editor: after its journal's
 * retention). See docs/reliability.md for why the limits are what they are.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { listHostRecords } from '../../../src/discovery/host-record.js';
import { hostsDir } from '../../../src/discovery/tether-home.js';
import { connectToHost } from '../../../src/link/host-client.js';
import { connectMcp, type McpSession } from '../../../test/helpers/mcp-client.js';
import { createWorkspace, startSandbox, type SandboxProcess } from '../../../test/helpers/processes.js';
import { openRawSession, startServe } from '../../../test/helpers/serve.js';
import { ZERO, NONE, flat, type Bar, type SuiteRecorder } from '../lib/figures.js';
import { INSPECT_ENV } from '../lib/heap-probe.js';
import { descendants } from '../lib/proc.js';
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { DEFAULT_RETENTION_MS } from '../../../src/host/host-options.js';
import type { Point } from '../lib/stats.js';
import { SoakSampler, hourlySlope, judged } from './sampler.js';

export interface SoakPlan {
  seed: number;
  minutes: number;
  fronts: number;
  sessions: number;
  reloadEverySeconds: number;
  restarts: number;
  sampleEverySeconds: number;
  /** Judge slopes (the full run); a run of a minute only reports them. */
  judgeSlopes: boolean;
}

/** Limits on slopes per hour, and why: see docs/reliability.md ("What flat means"). */
export const FLAT = { heapMiB: 5, rssMiB: 20, frontsRssMiB: 60, descriptors: 2, processes: 1 };

/**
 * The editor's restarts all come in this first part of the run, so its last run is long enough
 * to judge after its journal has filled: finished read-only calls are kept for the retention
 * (DEFAULT_RETENTION_MS) within a budget, so the editor's heap grows by design until then.
 */
const RESTARTS_WITHIN = 0.25;
/**
 * RSS is judged over the second half of a run: glibc keeps what V8's compiler threads freed in
 * per-thread pools, which grow as functions turn hot, for about 25 minutes at the soak's call
 * rate and then hold (docs/reliability.md, "What flat means"). The heap and descriptors are
 * judged after the first fifth.
 */
const RSS_WARM_UP = 0.5;
/** How long after a reload or restart the editor's clients are taken to have reconnected. */
const SETTLE_MS = 5_000;
/** The fewest samples a slope is judged on. */
const MIN_JUDGED_SAMPLES = 5;

const EDITOR_ARGS = ['--build-seconds', '0.3', '--reload-ms', '300', '--compile-ms', '100'];

/** Runs the soak; `keepSeries` receives every sample series (for a diagnostics file beside the figures). */
export async function runSoak(plan: SoakPlan, recorder: SuiteRecorder, log: (line: string) => void, keepSeries: (series: Record<string, unknown>) => void = () => undefined): Promise<void> {
  const random = seededRandom(plan.seed);
  const workspace = createWorkspace();
  const inspected = { ...workspace, env: { ...workspace.env, ...INSPECT_ENV } };
  let editor: SandboxProcess = (await startSandbox(inspected, EDITOR_ARGS)).sandbox;
  const served = await startServe(inspected, ['--interactive-sessions', String(plan.sessions + 100), '--sessions-per-client', String(plan.sessions)]);
  const fronts: McpSession[] = [];
  // Every front opens its inspector: each is collected before its RSS is read (SoakSampler),
  // and the first one's live heap is the fronts' heap figure.
  for (let i = 0; i < plan.fronts; i++) fronts.push(await connectMcp(inspected, { args: ['--wait-ms', '30000'], clientInfo: { name: `soak-front-${i}`, version: '1' } }));
  const sessions: Array<Record<string, string>> = [];
  for (let i = 0; i < plan.sessions; i++) sessions.push(await openRawSession(served, {}, `soak-http-${i % 10}`));
  const baselineProcesses = descendants().length;
  log(`soak: ${plan.fronts} fronts and ${plan.sessions} HTTP sessions open; ${baselineProcesses} processes below the harness`);

  const counts = { stdioOk: 0, httpOk: 0, failed: 0, reloads: 0, restarts: 0 };
  const failures: string[] = [];
  const fail = (what: string): void => {
    counts.failed++;
    if (failures.length < 8) failures.push(what);
  };
  const until = Date.now() + plan.minutes * 60_000;
  const running = (): boolean => Date.now() < until;

  const frontLoop = async (front: McpSession, index: number): Promise<void> => {
    while (running()) {
      await sleep(1_000 + Math.floor(random() * 2_000));
      try {
        const result = await front.client.callTool({ name: index % 2 ? 'get_hierarchy' : 'find_gameobjects', arguments: index % 2 ? {} : { name: 'Player' } }, { timeout: 90_000 });
        if (result.isError) fail(`front ${index}: ${JSON.stringify(result.content).slice(0, 200)}`);
        else counts.stdioOk++;
      } catch (error) {
        fail(`front ${index}: ${(error as Error).message}`);
      }
    }
  };

  let inFlight = 0;
  const httpCall = async (session: Record<string, string>): Promise<void> => {
    inFlight++;
    try {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'tools/call', params: { name: 'get_hierarchy', arguments: {} } }),
        signal: AbortSignal.timeout(90_000),
      });
      const text = await response.text();
      if (response.ok && text.includes('"result"') && !text.includes('"isError":true')) counts.httpOk++;
      else fail(`HTTP ${response.status}: ${text.slice(0, 200)}`);
    } catch (error) {
      // fetch says only "fetch failed": the cause (ECONNRESET, "other side closed"…) is what tells the story.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      fail(`HTTP: ${(error as Error).message}${cause ? ` (${[cause.code, cause.message].filter(Boolean).join(': ')})` : ''}`);
    } finally {
      inFlight--;
    }
  };
  const httpLoop = async (): Promise<void> => {
    // Every session called about every 30 s, at most 16 calls at once.
    const gapMs = Math.max(5, Math.round(30_000 / plan.sessions));
    while (running()) {
      await sleep(gapMs);
      if (inFlight < 16) void httpCall(sessions[Math.floor(random() * sessions.length)]!);
    }
    while (inFlight > 0) await sleep(50);
  };

  // Descriptors are counted between reloads and restarts: during one the editor has closed its
  // clients' connections and they have not reconnected yet (a dip of one per client), which
  // says nothing about a leak. Settled SETTLE_MS after the editor is back.
  let disturbances = 0;
  let settledAt = 0;
  const disturbed = async <T>(what: () => Promise<T>): Promise<T> => {
    disturbances++;
    try {
      return await what();
    } finally {
      disturbances--;
      settledAt = Date.now() + SETTLE_MS;
    }
  };
  const settled = (): boolean => disturbances === 0 && Date.now() >= settledAt;

  const reloadLoop = async (): Promise<void> => {
    while (running()) {
      await sleep(plan.reloadEverySeconds * 1_000);
      if (!running()) break;
      const record = listHostRecords(hostsDir(workspace.home)).find((r) => r.pid === editor.pid);
      if (!record) continue;
      const generation = editor.lines.filter((line) => line.includes('"event":"ready"')).length;
      try {
        await disturbed(async () => {
          const session = await connectToHost({ port: record.port, token: record.token, timeoutMs: 5_000, clientName: 'soak-reload' });
          // The reload may close this connection before the answer comes: the editor's next "ready" says it happened.
          await session.rpc.request('calls/start', { callId: randomUUID(), tool: 'compile_scripts', arguments: {} }, { timeoutMs: 20_000 }).catch(() => undefined);
          session.rpc.close();
          await editor.ready(generation + 1, 20_000);
        });
        counts.reloads++;
      } catch (error) {
        log(`soak: a reload did not happen: ${(error as Error).message}`);
      }
    }
  };

  const restartLoop = async (): Promise<void> => {
    for (let i = 1; i <= plan.restarts; i++) {
      await sleep(Math.max(0, until - plan.minutes * 60_000 * (1 - (RESTARTS_WITHIN * i) / plan.restarts) - Date.now()));
      if (!running()) break;
      await disturbed(async () => {
        if (i % 2) await editor.stop();
        else await editor.kill();
        editor = (await startSandbox(inspected, EDITOR_ARGS)).sandbox;
      });
      counts.restarts++;
      log(`soak: editor restarted (${i % 2 ? 'SIGTERM' : 'kill -9'})`);
    }
  };

  const sampler = new SoakSampler();
  const sampleLoop = async (): Promise<void> => {
    let lastLog = Date.now();
    while (running()) {
      const first = fronts[0]!;
      await sampler.sample(
        served.server,
        editor,
        fronts.map((f) => ({ pid: f.transport.pid ?? 0, stderrLines: f.stderr().split('\n', 20) })),
        { pid: first.transport.pid ?? 0, stderrLines: first.stderr().split('\n') },
        settled,
      );
      if (Date.now() - lastLog > 60_000) {
        lastLog = Date.now();
        log(`soak: ${Math.round((until - Date.now()) / 60_000)} min left; ${counts.stdioOk + counts.httpOk} calls answered, ${counts.failed} failed`);
      }
      await sleep(plan.sampleEverySeconds * 1_000);
    }
  };

  await Promise.all([...fronts.map(frontLoop), httpLoop(), reloadLoop(), restartLoop(), sampleLoop()]);
  sampler.close();
  keepSeries(sampler.toJSON());
  for (const front of fronts) await front.close();
  await sleep(2_000);
  const left = descendants().length;
  const frontsGone = baselineProcesses - plan.fronts;

  recorder.add('soak: duration', plan.minutes, 'minutes', NONE, `${plan.fronts} fronts, ${plan.sessions} HTTP sessions, ${counts.reloads} reloads, ${counts.restarts} editor restarts`);
  recorder.add('soak: calls answered', counts.stdioOk + counts.httpOk, 'calls', NONE, `${counts.stdioOk} over stdio, ${counts.httpOk} over HTTP`);
  recorder.add('soak: calls not answered with a result', counts.failed, 'calls', ZERO);
  recorder.add(
    'soak: processes left once the fronts closed, beyond serve and the editor',
    Math.max(0, left - frontsGone),
    'processes',
    ZERO,
    `${baselineProcesses} with the fronts, ${left} after they closed`,
  );
  for (const failure of failures) recorder.note(`soak: ${failure}`);
  const bar = (limit: number): Bar => (plan.judgeSlopes ? flat(limit) : NONE);
  const slope = (name: string, points: Parameters<typeof hourlySlope>[0], unit: string, limit: number, warmUpSeconds = 0): void => {
    const over = judged(points, warmUpSeconds);
    if (over.length < MIN_JUDGED_SAMPLES) return recorder.note(`soak: ${name}: too few samples to judge (${over.length} after the warm-up)`);
    const first = over[0]!;
    const last = over[over.length - 1]!;
    recorder.add(
      `soak: ${name}, slope`,
      Math.round(hourlySlope(points, warmUpSeconds) * 100) / 100,
      `${unit}/h`,
      bar(limit),
      `${over.length} samples from minute ${Math.round((first.t - points[0]!.t) / 60)} of ${Math.round((points[points.length - 1]!.t - points[0]!.t) / 60)}; ${Math.round(first.y * 10) / 10} ${unit} first, ${Math.round(last.y * 10) / 10} ${unit} last`,
    );
  };
  const editorSeries = sampler.longestEditor();
  // The editor is judged once its journal has filled (its retention), over its longest run.
  const journalFill = plan.judgeSlopes ? DEFAULT_RETENTION_MS / 1000 : 0;
  const editorRun = journalFill > 0 ? 'its longest run, after its journal filled' : 'its longest run';
  const runSeconds = (points: readonly Point[]): number => (points.length ? points[points.length - 1]!.t - points[0]!.t : 0);
  const rssWarmUp = (points: readonly Point[], atLeast = 0): number => (plan.judgeSlopes ? Math.max(atLeast, runSeconds(points) * RSS_WARM_UP) : 0);
  slope('tether serve live heap after GC', sampler.serve.heapMiB, 'MiB', FLAT.heapMiB);
  slope('tether serve RSS', sampler.serve.rssMiB, 'MiB', FLAT.rssMiB, rssWarmUp(sampler.serve.rssMiB));
  slope('tether serve descriptors', sampler.serve.descriptors, 'descriptors', FLAT.descriptors);
  slope(`editor live heap after GC (${editorRun})`, editorSeries.heapMiB, 'MiB', FLAT.heapMiB, journalFill);
  slope(`editor RSS (${editorRun})`, editorSeries.rssMiB, 'MiB', FLAT.rssMiB, rssWarmUp(editorSeries.rssMiB, journalFill));
  slope('editor descriptors (its longest run)', editorSeries.descriptors, 'descriptors', FLAT.descriptors);
  slope('one front live heap after GC', sampler.firstFront.heapMiB, 'MiB', FLAT.heapMiB);
  slope(`${plan.fronts} fronts' RSS after a full collection, summed`, sampler.fronts.rssMiB, 'MiB', FLAT.frontsRssMiB, rssWarmUp(sampler.fronts.rssMiB));
  slope(`${plan.fronts} fronts' descriptors, summed`, sampler.fronts.descriptors, 'descriptors', FLAT.descriptors);
  slope('processes below the harness', sampler.processes, 'processes', FLAT.processes);
  if (!plan.judgeSlopes) recorder.note('soak: a run of minutes reports slopes without judging them: over so short a time, warm-up and collection timing are most of what they show.');
}
