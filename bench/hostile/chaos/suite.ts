/**
 * The chaos suite: at least `faults` faults against non-idempotent calls, in rounds of a fresh
 * editor each (a round's seed replays it). Calls with idempotency keys go through the chaos
 * scenario the test suite runs (test/chaos/chaos-scenario.ts: reloads, kill -9 of the editor,
 * killed fronts, cancellations, retries with the same key), judged by its own assertions and
 * again here from the editor's logs; calls without keys, through every fault of
 * unkeyed-chaos.ts. Figures: faults by kind, what agents were told, and the three zeros.
 */
import { runChaos } from '../../../test/chaos/chaos-scenario.js';
import { closeMcpSessions } from '../../../test/helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../../../test/helpers/processes.js';
import { batchSeed } from '../fuzz/campaign.js';
import { ZERO, NONE, atLeast, type SuiteRecorder } from '../lib/figures.js';
import { readEditorLog } from './editor-log.js';
import { unkeyedRound } from './unkeyed-chaos.js';

export interface ChaosPlan {
  seed: number;
  /** Faults in all, about a third keyed. */
  faults: number;
  quick: boolean;
}

/** Only the chaos scenario's events that are faults (its "build" is a long call, not a fault). */
const KEYED_FAULTS = new Set(['reload', 'crash', 'kill-front']);

export async function runChaosSuite(plan: ChaosPlan, recorder: SuiteRecorder, log: (line: string) => void): Promise<void> {
  const faults = new Map<string, number>();
  const add = (kind: string, n = 1): void => void faults.set(kind, (faults.get(kind) ?? 0) + n);
  const zeros = { duplicates: 0, falseSuccesses: 0, ranButToldNotRun: 0 };
  const told = new Map<string, number>();
  let operations = 0;
  const examples: string[] = [];
  const keyedTarget = Math.round(plan.faults / 3);
  let total = 0;

  // Keyed: the chaos scenario, round after round.
  for (let round = 0; total < keyedTarget; round++) {
    const seed = batchSeed(plan.seed, round) >>> 1;
    const workspace = createWorkspace();
    try {
      const { operations: ops, events } = await runChaos(workspace, {
        seed,
        agents: 4,
        operationsPerAgent: plan.quick ? 8 : 25,
        chaosEveryMs: plan.quick ? [150, 500] : [300, 900],
        thinkMs: [50, 300],
      });
      for (const event of events) if (KEYED_FAULTS.has(event)) add(`keyed: ${event}`);
      total += events.filter((e) => KEYED_FAULTS.has(e)).length;
      // The scenario judged by the scene; judged again by the editor's execution log, per callId.
      const executions = readEditorLog(workspace.project, (args) => (typeof args.name === 'string' ? args.name : undefined));
      for (const op of ops) {
        operations++;
        const outcome = `keyed: ${op.outcome ?? 'none'}`;
        told.set(outcome, (told.get(outcome) ?? 0) + 1);
        const ran = executions.executionsOf(op.name);
        if (ran > 1) zeros.duplicates++;
        if (op.outcome === 'succeeded' && ran !== 1) zeros.falseSuccesses++;
        if (ran > 1 || (op.outcome === 'succeeded' && ran !== 1)) examples.push(`${op.name} (keyed) ran ${ran} times, told ${op.outcome}; seed ${seed}`);
      }
      log(`keyed chaos round ${round} (seed ${seed}): ${ops.length} operations, ${events.length} events; ${total} keyed faults so far`);
    } catch (error) {
      recorder.fail(`keyed chaos round ${round}`, error, seed);
      total += 5; // a round that failed still spent faults; go on with another seed
    } finally {
      await closeMcpSessions();
      await cleanupProcesses();
    }
  }

  // Unkeyed: every fault kind, over stdio and HTTP, for the rest of the faults.
  const keyed = total;
  const unkeyedTarget = plan.faults - keyedTarget;
  total = 0;
  for (let round = 0; total < unkeyedTarget; round++) {
    const seed = batchSeed(plan.seed ^ 0x5bd1e995, round) >>> 1;
    const roundFaults = Math.min(plan.quick ? 15 : 60, unkeyedTarget - total);
    try {
      const outcome = await unkeyedRound(createWorkspace(), { seed, faults: roundFaults, stdioAgents: 3, httpAgents: 2, chaosEveryMs: [150, 600], thinkMs: [20, 200] });
      for (const [kind, n] of outcome.faults) add(`unkeyed: ${kind}`, n);
      total += [...outcome.faults.values()].reduce((sum, n) => sum + n, 0);
      operations += outcome.operations;
      for (const [what, n] of outcome.told) told.set(`unkeyed: ${what}`, (told.get(`unkeyed: ${what}`) ?? 0) + n);
      zeros.duplicates += outcome.duplicates;
      zeros.falseSuccesses += outcome.falseSuccesses;
      zeros.ranButToldNotRun += outcome.ranButToldNotRun;
      examples.push(...outcome.examples);
      log(`unkeyed chaos round ${round} (seed ${seed}): ${outcome.operations} operations; ${keyed + total} faults so far`);
    } catch (error) {
      recorder.fail(`unkeyed chaos round ${round}`, error, seed);
      total += roundFaults;
    } finally {
      await closeMcpSessions();
      await cleanupProcesses();
    }
  }

  const faultCount = [...faults.values()].reduce((a, b) => a + b, 0);
  recorder.add('chaos: faults injected', faultCount, 'faults', atLeast(plan.faults), [...faults].map(([k, n]) => `${k} ${n}`).join(', '));
  recorder.add('chaos: non-idempotent operations', operations, 'operations', NONE, [...told].map(([k, n]) => `${k} ${n}`).join(', '));
  recorder.add('chaos: operations that ran more than once (editor log)', zeros.duplicates, 'operations', ZERO);
  recorder.add('chaos: successes reported for what did not run exactly once', zeros.falseSuccesses, 'operations', ZERO);
  recorder.add('chaos: "did not run" reported for what ran', zeros.ranButToldNotRun, 'operations', ZERO);
  for (const example of examples.slice(0, 10)) recorder.note(`chaos: ${example}`);
}
