/**
 * Chaos against non-idempotent calls made without idempotency keys: agents over stdio and
 * HTTP create uniquely named objects, each once, while a seeded
 * schedule kills (-9) and stops (SIGTERM) the editor, the fronts and `tether serve`, reloads
 * the editor, kills it a few milliseconds into a call, cuts or stalls every connection, and
 * agents vanish mid-call. The editor's own logs judge what every agent was told: no operation
 * ran twice, none reported a success ran other than once, none reported not run had run.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostsDir } from '../../../src/discovery/tether-home.js';
import { connectToHost } from '../../../src/link/host-client.js';
import { listHostRecords } from '../../../src/discovery/host-record.js';
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { startSandbox, type SandboxProcess, type Workspace } from '../../../test/helpers/processes.js';
import { startServe, type Served } from '../../../test/helpers/serve.js';
import { TcpProxy } from '../../../test/helpers/tcp-proxy.js';
import { HttpAgent, StdioAgent, type ChaosAgent, type Told } from './agents.js';
import { operationName, readEditorLog } from './editor-log.js';

export const FAULTS = ['editor-kill', 'editor-term', 'mid-call-kill', 'reload', 'front-kill', 'front-term', 'serve-kill', 'serve-term', 'link-drop', 'link-half-open'] as const;
export type Fault = (typeof FAULTS)[number] | 'client-vanish';
const WEIGHTS: Record<(typeof FAULTS)[number], number> = {
  'editor-kill': 2,
  'editor-term': 1,
  'mid-call-kill': 2,
  reload: 2,
  'front-kill': 2,
  'front-term': 1,
  'serve-kill': 1,
  'serve-term': 1,
  'link-drop': 2,
  'link-half-open': 1,
};

export interface RoundPlan {
  seed: number;
  faults: number;
  stdioAgents: number;
  httpAgents: number;
  chaosEveryMs: [number, number];
  thinkMs: [number, number];
}

export interface RoundOutcome {
  faults: Map<Fault, number>;
  /** What agents were told, by kind and code ("not-run HOST_UNAVAILABLE"). */
  told: Map<string, number>;
  operations: number;
  duplicates: number;
  falseSuccesses: number;
  ranButToldNotRun: number;
  /** Examples of each violation, for the report. */
  examples: string[];
}

const EDITOR_ARGS = ['--build-seconds', '0.3', '--reload-ms', '200', '--compile-ms', '50', '--heartbeat-ms', '200'];

export async function unkeyedRound(workspace: Workspace, plan: RoundPlan): Promise<RoundOutcome> {
  const random = seededRandom(plan.seed);
  const between = ([low, high]: [number, number]): number => low + Math.floor(random() * (high - low));
  const outcome: RoundOutcome = { faults: new Map(), told: new Map(), operations: 0, duplicates: 0, falseSuccesses: 0, ranButToldNotRun: 0, examples: [] };
  const count = (fault: Fault): void => void outcome.faults.set(fault, (outcome.faults.get(fault) ?? 0) + 1);

  let editor: SandboxProcess;
  let port = 0;
  let proxy: TcpProxy | undefined;
  const startEditor = async (): Promise<void> => {
    const started = await startSandbox(workspace, EDITOR_ARGS);
    editor = started.sandbox;
    port = started.ready.port;
    proxy ??= await TcpProxy.start(port);
    proxy.retarget(port);
    proxy.routeRecord(hostsDir(workspace.home), started.ready.instanceId);
  };
  await startEditor();
  let served: Served = await startServe(workspace, ['--wait-ms', '15000']);

  const stdio = Array.from({ length: plan.stdioAgents }, () => new StdioAgent(workspace));
  const agents: ChaosAgent[] = [...stdio, ...Array.from({ length: plan.httpAgents }, (_, i) => new HttpAgent(() => served, `chaos-http-${i}`))];
  const told: Array<{ name: string; told: Told; code?: string }> = [];
  let inFlight = 0;
  let running = true;

  const agentLoop = async (agent: ChaosAgent, index: number): Promise<void> => {
    for (let i = 0; running; i++) {
      await sleep(between(plan.thinkMs));
      const name = `op-${plan.seed}-${index}-${i}`;
      const vanish = random() < 0.04 ? between([0, 400]) : undefined;
      if (vanish !== undefined) count('client-vanish');
      inFlight++;
      const answer = await agent.call('create_gameobject', { name }, vanish).finally(() => inFlight--);
      told.push({ name, ...answer });
    }
  };

  const restartEditorLater = async (): Promise<void> => {
    await sleep(between([50, 500]));
    await startEditor();
  };

  const inject = async (fault: (typeof FAULTS)[number]): Promise<void> => {
    switch (fault) {
      case 'editor-kill':
        await editor.kill();
        return restartEditorLater();
      case 'editor-term':
        await editor.stop();
        return restartEditorLater();
      case 'mid-call-kill': {
        // A few milliseconds into a call: before it is sent, while it runs, or as it answers.
        const until = Date.now() + 3_000;
        while (inFlight === 0 && Date.now() < until) await sleep(2);
        await sleep(between([0, 100]));
        await editor.kill();
        return restartEditorLater();
      }
      case 'reload': {
        const record = listHostRecords(hostsDir(workspace.home)).find((r) => r.pid === editor.pid);
        if (!record) return;
        const session = await connectToHost({ port, token: record.token, timeoutMs: 5_000, clientName: 'chaos-reload' });
        await session.rpc.request('calls/start', { callId: randomUUID(), tool: 'compile_scripts', arguments: {} }, { timeoutMs: 10_000 }).catch(() => undefined);
        session.rpc.close();
        return;
      }
      case 'front-kill':
      case 'front-term': {
        const pid = stdio[Math.floor(random() * stdio.length)]?.frontPid;
        if (pid) process.kill(pid, fault === 'front-kill' ? 'SIGKILL' : 'SIGTERM');
        return;
      }
      case 'serve-kill':
      case 'serve-term':
        if (fault === 'serve-kill') await served.server.kill();
        else await served.server.stop();
        await sleep(between([50, 500]));
        served = await startServe(workspace, ['--wait-ms', '15000']);
        return;
      case 'link-drop':
        proxy?.dropAll();
        return;
      case 'link-half-open':
        proxy?.stallAll(between([1_000, 4_000]));
        return;
    }
  };

  const totalWeight = FAULTS.reduce((sum, f) => sum + WEIGHTS[f], 0);
  const pickFault = (): (typeof FAULTS)[number] => {
    let roll = random() * totalWeight;
    for (const fault of FAULTS) if ((roll -= WEIGHTS[fault]) < 0) return fault;
    return 'link-drop';
  };

  const loops = agents.map((agent, index) => agentLoop(agent, index));
  for (let injected = 0; injected < plan.faults; injected++) {
    await sleep(between(plan.chaosEveryMs));
    const fault = pickFault();
    count(fault);
    try {
      await inject(fault);
    } catch {
      // A fault that could not be injected (the editor was already down) still counts as tried; the disk judges.
      if (editor!.child.exitCode !== null || editor!.child.signalCode !== null) await startEditor().catch(() => undefined);
    }
  }
  running = false;
  await Promise.all(loops);
  await Promise.all(agents.map((agent) => agent.close()));
  await served.server.stop();
  await editor!.stop();
  await proxy?.close();

  const log = readEditorLog(workspace.project, operationName);
  for (const { name, told: what, code } of told) {
    outcome.operations++;
    const key = code ? `${what} ${code}` : what;
    outcome.told.set(key, (outcome.told.get(key) ?? 0) + 1);
    const ran = log.executionsOf(name);
    const example = (problem: string): void => void (outcome.examples.length < 10 && outcome.examples.push(`${name} ${problem} (told ${what}${code ? ` ${code}` : ''}; seed ${plan.seed})`));
    if (ran > 1) {
      outcome.duplicates++;
      example(`ran ${ran} times`);
    }
    if (what === 'succeeded' && ran !== 1) {
      outcome.falseSuccesses++;
      example(`was reported a success and ran ${ran} times`);
    }
    if (what === 'not-run' && ran > 0) {
      outcome.ranButToldNotRun++;
      example('was reported not run, and ran');
    }
  }
  return outcome;
}
