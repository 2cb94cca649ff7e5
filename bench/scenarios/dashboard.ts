/**
 * 8. The dashboard at scale (issue #25): is the page still usable with 50 agents on one
 * editor and 1,000 recent calls? A real `tether serve` on the sandbox editor; 50 MCP SDK
 * clients (40 over HTTP, 10 each through a `tether mcp` stdio front), each calling
 * read_console, pausing about PAUSE_MS and calling again; the page opened in headless Chromium
 * (logged in through the one-time link) once 1,000 calls are done. Then, while the agents go
 * on calling:
 *   - update latency: from a call's end at its client to its row in the page's recent calls,
 *     and from a long call's start at its client to its row in calls in flight (the page's
 *     MutationObserver stamps the row on the same wall clock);
 *   - memory: the page's JS heap after a forced GC and its DOM nodes, with 1,000 calls listed
 *     and again after MORE calls more (bounded = no growth), and tether serve's RSS.
 * Skipped, saying how to install it, when Chromium is absent (test/dashboard/chromium.ts).
 */
import { attachAgents, Load } from '../helpers/dashboard-agents.js';
import { WatchedPage, type PageMemory, type Table } from '../helpers/dashboard-page.js';
import { chromiumMissing, hasChromium, launchChromium, openDashboard } from '../../test/dashboard/chromium.js';
import { TETHER_BIN, createWorkspace, memoryOf, node, sleep, wallNow } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startServe } from '../lib/setup.js';
import { percentile, round } from '../lib/stats.js';

const AGENTS = 50;
const STDIO_AGENTS = 10;
const RECENT = 1_000;
const PAUSE_MS = 1_000;
/** How long each probing run_tests call stays in flight (one test of --test-ms). */
const IN_FLIGHT_MS = 1_000;
const BUSY_WINDOW_MS = 8_000;
const FINISHED_PROBE = 'get_active_scene';
const IN_FLIGHT_PROBE = 'run_tests';

interface Figures {
  p50: number;
  p90: number;
  max: number;
  samples: number[];
}

function figures(samples: number[]): Figures {
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), max: Math.max(...samples), samples: samples.map((v) => round(v, 1)) };
}

/**
 * `count` probe calls, one at a time, each from the next of `probers` and a random pause
 * apart (so they fall anywhere in the server's send interval): the time from the client's
 * mark (`start` or `end` of the call) to the nth row of the probe tool in `table`.
 */
async function probe(page: WatchedPage, table: Table, count: number, call: (i: number) => Promise<unknown>, mark: 'start' | 'end'): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    await sleep(150 + Math.random() * 350);
    const started = wallNow();
    const running = call(i);
    const ended = mark === 'end' ? (await running, wallNow()) : started;
    const shown = await page.rowAt(table, i + 1);
    latencies.push(shown - ended);
    await running;
  }
  return latencies;
}

function memoryFigures(memory: PageMemory, serveRssMiB: number): Record<string, number> {
  return { heapMiB: round(memory.heapMiB, 2), domNodes: memory.domNodes, listeners: memory.listeners, recentRows: memory.recentRows, serveRssMiB: round(serveRssMiB, 1) };
}

export async function run(ctx: Context): Promise<Entry[]> {
  if (!hasChromium) {
    ctx.log(`dashboard: skipped, ${chromiumMissing}`);
    ctx.diagnostics.dashboard = { skipped: chromiumMissing };
    return [];
  }
  const more = ctx.quick ? 1_000 : 3_000;
  const finishedProbes = ctx.quick ? 20 : 50;
  const inFlightProbes = ctx.quick ? 10 : 25;

  const ws = createWorkspace({ sample: true, logLevel: 'warn' });
  const sandbox = node(TETHER_BIN, ['sandbox', '--project', ws.project, '--test-ms', String(IN_FLIGHT_MS), '--log-format', 'json'], ws.env);
  await sandbox.waitForLine((l) => l.includes('"event":"ready"'), 60_000);
  const { serve, url, token } = await startServe(ws);
  ctx.log(`dashboard: attaching ${AGENTS} agents (${AGENTS - STDIO_AGENTS} HTTP, ${STDIO_AGENTS} stdio)`);
  const agents = await attachAgents(AGENTS, STDIO_AGENTS, ws, url, token);
  const load = new Load(agents, PAUSE_MS);
  const browser = await launchChromium();
  try {
    const loadStarted = Date.now();
    await load.until(RECENT);
    const callsPerSecond = RECENT / ((Date.now() - loadStarted) / 1000);
    ctx.log(`dashboard: ${RECENT} calls at ${callsPerSecond.toFixed(1)}/s; opening the page`);

    const opened = Date.now();
    const tab = await openDashboard(browser, ws.env).catch((error: Error) => {
      throw new Error(`${error.message}\ntether serve: exit ${serve.child.exitCode ?? serve.child.signalCode ?? 'running'}; ${serve.stderrLines.slice(-5).join('\n')}`);
    });
    const page = await WatchedPage.watch(tab, { recent: FINISHED_PROBE, inflight: IN_FLIGHT_PROBE });
    await page.recentRowsAtLeast(RECENT);
    const openMs = Date.now() - opened;
    const atFull = await page.memory();
    const serveAtFull = memoryOf(serve.pid).rssKB / 1024;
    const fullDone = load.done;
    // The page's main-thread share while the agents call, with nothing of the bench's polling it.
    await sleep(BUSY_WINDOW_MS);
    const afterWindow = await page.memory();
    const seconds = BUSY_WINDOW_MS / 1000;
    const share = (key: 'taskSeconds' | 'scriptSeconds' | 'layoutSeconds' | 'styleSeconds'): number => round((afterWindow[key] - atFull[key]) / seconds, 3);
    const busy = share('taskSeconds');

    ctx.log(`dashboard: ${finishedProbes} finished-call probes, ${inFlightProbes} in-flight probes`);
    // Probes alternate between a stdio agent and an HTTP one: both fronts' logs feed the page.
    const probers = [agents[0]!, agents[AGENTS - 1]!];
    const finished = await probe(page, 'recent', finishedProbes, (i) => probers[i % 2]!.client.callTool({ name: FINISHED_PROBE, arguments: {} }), 'end');
    const inFlight = await probe(
      page,
      'inflight',
      inFlightProbes,
      (i) => probers[i % 2]!.client.callTool({ name: IN_FLIGHT_PROBE, arguments: { testNames: ['Player.MovesForward'] } }, { timeout: 60_000 }),
      'start',
    );

    await load.until(fullDone + more);
    await sleep(1_000);
    const after = await page.memory();
    const serveAfter = memoryOf(serve.pid).rssKB / 1024;
    const f = figures(finished);
    const s = figures(inFlight);
    const total = load.done;
    ctx.diagnostics.dashboard = {
      agents: { http: AGENTS - STDIO_AGENTS, stdio: STDIO_AGENTS, pauseMs: PAUSE_MS },
      callsPerSecond: round(callsPerSecond, 1),
      backgroundCalls: total,
      backgroundFailures: load.failed,
      pageOpenToFullListMs: openMs,
      finishedToRowMs: { ...f, p50: round(f.p50, 1), p90: round(f.p90, 1), max: round(f.max, 1) },
      startedToInFlightRowMs: { ...s, p50: round(s.p50, 1), p90: round(s.p90, 1), max: round(s.max, 1) },
      memory: { [`at ${fullDone} calls`]: memoryFigures(atFull, serveAtFull), [`at ${total} calls`]: memoryFigures(after, serveAfter) },
      pageMainThreadShare: { tasks: busy, script: share('scriptSeconds'), layout: share('layoutSeconds'), style: share('styleSeconds'), overSeconds: round(seconds, 1) },
      note: 'Latencies are wall-clock, on a machine shared with other work: noisy. The page is opened once 1,000 calls are done; memory is read after a forced GC in the page.',
    };
    const growth = `from ${fullDone} to ${total} calls`;
    return [
      entry({ name: `dashboard: a finished call's row in the page, p50 (${AGENTS} agents calling)`, metric: 'dashboard_update_p50', value: f.p50, unit: 'ms' }),
      entry({
        name: `dashboard: a finished call's row in the page, p90 (${AGENTS} agents calling)`,
        metric: 'dashboard_update_p90',
        value: f.p90,
        unit: 'ms',
        goal: { on: 'value', op: '<=', target: 250 },
      }),
      entry({ name: `dashboard: a finished call's row in the page, max (reference)`, metric: 'dashboard_update_max', value: f.max, unit: 'ms' }),
      entry({ name: `dashboard: a started call's row in calls in flight, p50`, metric: 'dashboard_inflight_p50', value: s.p50, unit: 'ms' }),
      entry({ name: `dashboard: a started call's row in calls in flight, p90`, metric: 'dashboard_inflight_p90', value: s.p90, unit: 'ms', goal: { on: 'value', op: '<=', target: 500 } }),
      entry({ name: `dashboard: page open to ${RECENT} recent calls shown (reference)`, metric: 'dashboard_open', value: openMs, unit: 'ms' }),
      entry({ name: `dashboard page JS heap with ${RECENT} recent calls, after GC`, metric: 'dashboard_heap', value: atFull.heapMiB, unit: 'MiB', goal: { on: 'value', op: '<=', target: 50 } }),
      entry({ name: `dashboard page JS heap growth ${growth}`, metric: 'dashboard_heap_growth', value: after.heapMiB - atFull.heapMiB, unit: 'MiB', goal: { on: 'value', op: '<=', target: 2 } }),
      entry({ name: `dashboard page DOM nodes with ${RECENT} recent calls`, metric: 'dashboard_dom_nodes', value: atFull.domNodes, unit: 'nodes', goal: { on: 'value', op: '<=', target: 25_000 } }),
      entry({ name: `dashboard page DOM node growth ${growth}`, metric: 'dashboard_dom_growth', value: after.domNodes - atFull.domNodes, unit: 'nodes', goal: { on: 'value', op: '<=', target: 500 } }),
      // Wall-clock share, inflated when the agents saturate the machine: a reference, not a goal.
      entry({ name: `dashboard page main-thread share while ${AGENTS} agents call (reference)`, metric: 'dashboard_busy', value: busy * 100, unit: '%' }),
      entry({ name: `tether serve RSS with ${AGENTS} agents and the page open (reference)`, metric: 'dashboard_serve_rss', value: serveAfter, unit: 'MiB' }),
      entry({ name: `tether serve RSS growth ${growth} (reference)`, metric: 'dashboard_serve_rss_growth', value: serveAfter - serveAtFull, unit: 'MiB' }),
    ];
  } finally {
    await load.stop();
    await browser.close();
    await Promise.all(agents.map((agent) => agent.close()));
    await serve.stop();
    await sandbox.stop();
  }
}
