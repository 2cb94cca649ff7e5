/**
 * One fuzz campaign against one parser: batches of inputs, each batch from its own seed (the
 * run's seed and the batch's number, so any batch replays alone), and between batches a
 * legitimate call that must be answered. Counts inputs, crashes (the target died and was
 * started again), hangs (the legitimate call was not answered), and whatever the driver
 * judges (answers before authentication, leaks, server errors); samples the target's memory
 * and descriptors before the first batch and after the last, once it has settled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ZERO, NONE, atLeast, atMost, type SuiteRecorder } from '../lib/figures.js';
import { HeapProbe } from '../lib/heap-probe.js';
import type { ProcessSample } from '../lib/proc.js';

/** What a batch saw, beyond the inputs it sent. */
export interface BatchTally {
  inputs: number;
  /** Anything but a refusal given to a peer that had not authenticated (undefined: not judged for this parser). */
  servedBeforeAuth?: number;
  /** Secrets or private paths in what an unauthenticated peer received. */
  leaks?: number;
  /** Answers that say the server failed (HTTP 500, JSON-RPC internal errors for a parse). */
  serverErrors?: number;
  /** Output that is not the protocol (a stdout line that is not JSON-RPC). */
  corruptOutput?: number;
}

export interface FuzzDriver {
  /** Named by what is fuzzed: "host frames before the handshake". */
  name: string;
  /** The process whose parser is fuzzed. */
  pid(): number;
  sample(): ProcessSample | undefined;
  /** The target's inspector URL, where it has one: its live heap is then measured after a collection. */
  inspector?(): string | undefined;
  runBatch(batch: number, seed: number, size: number): Promise<BatchTally>;
  legitCall(): Promise<string | undefined>;
  /** Starts the target again if it died; returns how it died. */
  reviveIfDead(): Promise<string | undefined>;
  /** What the driver saw that explains its figures (answers by kind, reconnections). */
  describe?(): string;
  close(): Promise<void>;
}

export interface CampaignPlan {
  inputs: number;
  batchSize: number;
  seed: number;
  /** First batch to run (a replay of one batch sets it, with `inputs` = batchSize). */
  fromBatch?: number;
}

/** A batch's own seed: the run's seed and the batch number, mixed (replay: --seed S --from-batch B). */
export function batchSeed(seed: number, batch: number): number {
  let x = (seed ^ Math.imul(batch + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
}

/** The target's live heap after a full collection, in MiB; undefined where it cannot be reached. */
async function liveHeapMiB(driver: FuzzDriver): Promise<number | undefined> {
  const probe = await HeapProbe.attach(driver.inspector?.());
  if (!probe) return undefined;
  try {
    return (await probe.usedAfterGc()) / 2 ** 20;
  } catch {
    return undefined;
  } finally {
    probe.close();
  }
}

/** Waits until the target holds no more descriptors than `baseline`, or `ms` passes; returns its last sample. */
async function settled(driver: FuzzDriver, baseline: number, ms: number): Promise<ProcessSample | undefined> {
  const until = Date.now() + ms;
  let last = driver.sample();
  while (last && last.descriptors > baseline && Date.now() < until) {
    await sleep(250);
    last = driver.sample();
  }
  return last;
}

export async function runCampaign(driver: FuzzDriver, plan: CampaignPlan, recorder: SuiteRecorder, log: (line: string) => void): Promise<void> {
  const warm = await driver.legitCall();
  if (warm) throw new Error(`${driver.name}: the legitimate call failed before any fuzzing: ${warm}`);
  const before = driver.sample();
  const heapBefore = await liveHeapMiB(driver);
  const totals = { inputs: 0, crashes: 0, hangs: 0, servedBeforeAuth: 0, leaks: 0, serverErrors: 0, corruptOutput: 0 };
  const judged = { servedBeforeAuth: false, leaks: false, serverErrors: false, corruptOutput: false };
  const incidents: string[] = [];
  const started = Date.now();
  let lastLog = started;
  const first = plan.fromBatch ?? 0;
  for (let batch = first; totals.inputs < plan.inputs; batch++) {
    const seed = batchSeed(plan.seed, batch);
    const size = Math.min(plan.batchSize, plan.inputs - totals.inputs);
    const tally = await driver.runBatch(batch, seed, size);
    totals.inputs += tally.inputs;
    for (const key of ['servedBeforeAuth', 'leaks', 'serverErrors', 'corruptOutput'] as const) {
      const value = tally[key];
      if (value === undefined) continue;
      judged[key] = true;
      totals[key] += value;
      if (value > 0) incidents.push(`${key} ${value} in batch ${batch} (replay: --seed ${plan.seed} --from-batch ${batch} --inputs ${plan.batchSize})`);
    }
    const death = await driver.reviveIfDead();
    if (death) {
      totals.crashes++;
      incidents.push(`crash in batch ${batch} (replay: --seed ${plan.seed} --from-batch ${batch} --inputs ${plan.batchSize}): ${death}`);
    }
    const unanswered = await driver.legitCall();
    if (unanswered) {
      // Once more after a moment: a reload the fuzz asked for (compile_scripts) is not a hang.
      await sleep(2_000);
      const again = await driver.legitCall();
      if (again) {
        totals.hangs++;
        incidents.push(`no answer to a legitimate call after batch ${batch} (replay: --seed ${plan.seed} --from-batch ${batch}): ${again}`);
      }
    }
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      const rate = totals.inputs / ((Date.now() - started) / 1000);
      log(`${driver.name}: ${totals.inputs.toLocaleString('en-US')} inputs (${Math.round(rate)}/s), ${totals.crashes} crashes, ${totals.hangs} hangs`);
    }
  }
  const after = before ? await settled(driver, before.descriptors, 15_000) : undefined;
  const heapAfter = await liveHeapMiB(driver);
  const seconds = (Date.now() - started) / 1000;
  const name = driver.name;
  recorder.add(`${name}: inputs`, totals.inputs, 'inputs', atLeast(plan.inputs), `${Math.round(totals.inputs / seconds)} inputs/s over ${Math.round(seconds)} s`);
  recorder.add(`${name}: crashes`, totals.crashes, 'crashes', ZERO);
  recorder.add(`${name}: hangs (legitimate call unanswered)`, totals.hangs, 'hangs', ZERO);
  if (judged.servedBeforeAuth) recorder.add(`${name}: anything but a refusal before authentication`, totals.servedBeforeAuth, 'answers', ZERO);
  if (judged.leaks) recorder.add(`${name}: token or home path sent to an unauthenticated peer`, totals.leaks, 'answers', ZERO);
  if (judged.serverErrors) recorder.add(`${name}: internal errors (HTTP 500)`, totals.serverErrors, 'answers', ZERO);
  if (judged.corruptOutput) recorder.add(`${name}: output lines that are not JSON-RPC`, totals.corruptOutput, 'lines', ZERO);
  if (before && after) {
    recorder.add(
      `${name}: descriptors gained (after, once settled, less before)`,
      after.descriptors - before.descriptors,
      'descriptors',
      atMost(0),
      `${before.descriptors} before, ${after.descriptors} after`,
    );
    recorder.add(
      `${name}: RSS after, less before`,
      Math.round((after.rssKiB - before.rssKiB) / 1024),
      'MiB',
      NONE,
      `${Math.round(before.rssKiB / 1024)} MiB before, ${Math.round(after.rssKiB / 1024)} MiB after`,
    );
  } else {
    recorder.note(`${name}: no /proc here, so memory and descriptors were not sampled.`);
  }
  if (heapBefore !== undefined && heapAfter !== undefined) {
    recorder.add(
      `${name}: live heap after a full collection, after less before`,
      Math.round((heapAfter - heapBefore) * 10) / 10,
      'MiB',
      NONE,
      `${heapBefore.toFixed(1)} MiB before, ${heapAfter.toFixed(1)} MiB after`,
    );
  }
  const described = driver.describe?.();
  if (described) recorder.note(`${name}: ${described}`);
  for (const incident of incidents.slice(0, 20)) recorder.note(`${name}: ${incident}`);
  if (incidents.length > 20) recorder.note(`${name}: ${incidents.length - 20} more incidents not listed`);
}
