/**
 * Chaos: agents make many non-idempotent calls (each creates one uniquely named GameObject,
 * retried with its idempotency key as an agent that wants exactly-once would) while a seeded
 * schedule reloads the editor, kills and restarts it, kills fronts, and agents cancel or drop
 * their requests. Afterwards the scene on disk is the judge: no operation ran twice, every
 * reported success really ran once, no requester got another's result, and no unknown
 * outcome was reported as success.
 */
import { expect } from 'vitest';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { sceneText, startSandbox, type SandboxProcess, type Workspace } from '../helpers/processes.js';

export interface ChaosOptions {
  seed: number;
  agents: number;
  operationsPerAgent: number;
  /** Time between chaos events. */
  chaosEveryMs: [number, number];
  /** An agent's pause between operations. */
  thinkMs: [number, number];
}

type Outcome = 'succeeded' | 'cancelled' | 'unknown' | 'failed';

interface Operation {
  name: string;
  outcome?: Outcome;
  detail?: string;
  createdId?: number;
  attempts: number;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What one chaos run of the fast suite does; the slow suite runs it longer. */
export const CHAOS_RUN = { agents: 4, operationsPerAgent: 25, chaosEveryMs: [400, 1_200], thinkMs: [100, 500] } satisfies Omit<ChaosOptions, 'seed'>;

/** Replays a run: its seed, whichever suite it came from, given to the same test again. */
export const SEED_VARIABLE = 'TETHER_CHAOS_SEED';

/**
 * The seed of this run: TETHER_CHAOS_SEED when set (to replay a failure), else `fallback` (the
 * fast suite's fixed seed, or the slow suite's random one). Printed, so any run can be replayed.
 */
export function chaosSeed(fallback: number): number {
  const given = process.env[SEED_VARIABLE];
  const seed = given === undefined || given === '' ? fallback : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`${SEED_VARIABLE}=${given} is not an integer seed.`);
  console.info(`chaos seed ${seed} (${replayHint(seed)})`);
  return seed;
}

function replayHint(seed: number): string {
  return `replay: run the same test with ${SEED_VARIABLE}=${seed}`;
}

const RETRY_CODES = new Set(['HOST_UNAVAILABLE', 'CONNECTION_CLOSED', 'HOST_NOT_FOUND', 'REQUEST_TIMEOUT']);

/** What a run did, in one line: its operations' outcomes and the chaos it met. */
export function summary(seed: number, { operations, events }: { operations: Operation[]; events: string[] }): string {
  const tally: Record<string, number> = {};
  for (const op of operations) tally[op.outcome ?? 'none'] = (tally[op.outcome ?? 'none'] ?? 0) + 1;
  return `chaos seed ${seed}: ${operations.length} operations, events [${events.join(', ')}], outcomes ${JSON.stringify(tally)}`;
}

export async function runChaos(workspace: Workspace, options: ChaosOptions): Promise<{ operations: Operation[]; events: string[] }> {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = ([low, high]: [number, number]): number => low + Math.floor(random() * (high - low));
  const sandboxArgs = ['--build-seconds', '0.3', '--reload-ms', '200', '--compile-ms', '50', '--heartbeat-ms', '200'];
  let sandbox: SandboxProcess = (await startSandbox(workspace, sandboxArgs)).sandbox;
  const events: string[] = [];
  const fronts: Array<McpSession | undefined> = [];
  let running = true;

  const session = async (agent: number): Promise<McpSession> => {
    const existing = fronts[agent];
    if (existing) return existing;
    const created = await connectMcp(workspace, { args: ['--wait-ms', '15000'] });
    fronts[agent] = created;
    created.transport.onclose = () => {
      if (fronts[agent] === created) fronts[agent] = undefined;
    };
    return created;
  };

  const agent = async (index: number): Promise<Operation[]> => {
    const done: Operation[] = [];
    for (let i = 0; i < options.operationsPerAgent; i++) {
      await new Promise((resolve) => setTimeout(resolve, between(options.thinkMs)));
      const operation: Operation = { name: `op-${options.seed}-${index}-${i}`, attempts: 0 };
      done.push(operation);
      const cancelAfter = random() < 0.1 ? between([0, 400]) : undefined;
      while (!operation.outcome && operation.attempts < 12) {
        operation.attempts++;
        const abort = new AbortController();
        const timer = cancelAfter === undefined ? undefined : setTimeout(() => abort.abort(new Error('agent changed its mind')), cancelAfter);
        try {
          const { client } = await session(index);
          const result = await client.callTool(
            { name: 'create_gameobject', arguments: { name: operation.name }, _meta: { 'tether/idempotencyKey': operation.name } },
            { timeout: 30_000, signal: abort.signal, onprogress: () => undefined },
          );
          const code = (result._meta as Record<string, { code?: string }> | undefined)?.['tether/error']?.code;
          if (!result.isError) {
            const created = (result.structuredContent as { created: { name: string; id: number } }).created;
            expect(created.name, `seed ${options.seed}: ${operation.name} got another operation's result`).toBe(operation.name);
            operation.outcome = 'succeeded';
            operation.createdId = created.id;
          } else if (code && RETRY_CODES.has(code)) {
            // The editor was away. A front that never saw it (one started while the editor was
            // down after a crash) says so at once rather than waiting, so the agent pauses, as
            // one told "no editor is running" would, then tries again with the same key.
            await new Promise((resolve) => setTimeout(resolve, between([200, 600])));
            continue;
          } else if (code === 'OUTCOME_UNKNOWN') {
            operation.outcome = 'unknown';
          } else if (code === 'CANCELLED') {
            operation.outcome = 'cancelled';
          } else {
            operation.outcome = 'failed';
            operation.detail = JSON.stringify(result.content);
          }
        } catch (error) {
          if (abort.signal.aborted) operation.outcome = 'cancelled';
          // Otherwise the front died under us: a new one, and the same key again.
          else await fronts[index]?.close();
          fronts[index] = undefined;
          void error;
        } finally {
          if (timer) clearTimeout(timer);
        }
      }
      operation.outcome ??= 'failed';
    }
    return done;
  };

  const chaos = async (): Promise<void> => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, between(options.chaosEveryMs)));
      if (!running) break;
      const event = pick(['reload', 'crash', 'kill-front', 'kill-front', 'build'] as const);
      events.push(event);
      try {
        if (event === 'crash') {
          await sandbox.kill();
          await new Promise((resolve) => setTimeout(resolve, between([50, 400])));
          sandbox = (await startSandbox(workspace, sandboxArgs)).sandbox;
        } else if (event === 'kill-front') {
          const victim = fronts[Math.floor(random() * fronts.length)];
          if (victim?.transport.pid) process.kill(victim.transport.pid, 'SIGKILL');
        } else {
          const controller = await connectMcp(workspace, { args: ['--wait-ms', '5000'] });
          const tool = event === 'reload' ? 'compile_scripts' : 'build_player';
          await controller.client.callTool({ name: tool, arguments: {} }, { timeout: 20_000 }).catch(() => undefined);
          await controller.close();
        }
      } catch {
        // Chaos about chaos is fine; the judge is the disk.
      }
    }
  };

  const chaosLoop = chaos();
  const operations = (await Promise.all(Array.from({ length: options.agents }, (_, i) => agent(i)))).flat();
  running = false;
  await chaosLoop;
  await Promise.all(fronts.map((f) => f?.close()));
  judge(workspace, operations, options.seed, events);
  return { operations, events };
}

function judge(workspace: Workspace, operations: Operation[], seed: number, events: string[]): void {
  // What the editor holds: the scene's unsaved changes survive kills and restarts, as every edit that completed must be counted.
  const scene = JSON.parse(sceneText(workspace)) as { objects: Array<{ id: number; name: string }> };
  const counts = new Map<string, number>();
  for (const object of scene.objects) counts.set(object.name, (counts.get(object.name) ?? 0) + 1);
  const context = `seed ${seed} (${replayHint(seed)}); events: ${events.join(', ')}`;
  const ids = new Set<number>();
  for (const op of operations) {
    const executed = counts.get(op.name) ?? 0;
    expect(executed, `${op.name} ran ${executed} times; ${context}`).toBeLessThanOrEqual(1);
    if (op.outcome === 'succeeded') {
      expect(executed, `${op.name} was reported a success but never ran; ${context}`).toBe(1);
      expect(ids.has(op.createdId!), `${op.name} got a duplicated result; ${context}`).toBe(false);
      ids.add(op.createdId!);
    }
    expect(op.outcome, `${op.name}: ${op.detail ?? ''}; ${context}`).not.toBe('failed');
  }
  const executions = operations.reduce((sum, op) => sum + (counts.get(op.name) ?? 0), 0);
  const succeeded = operations.filter((op) => op.outcome === 'succeeded').length;
  expect(executions, context).toBeGreaterThanOrEqual(succeeded);
  expect(executions, context).toBeLessThanOrEqual(operations.length);
}
