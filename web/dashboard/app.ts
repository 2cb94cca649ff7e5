/**
 * The dashboard page: plain DOM. It reads the live feed of tether serve (`/dashboard/events`)
 * and brings the page up to date from each snapshot, row by row (rows.ts): a snapshot brings
 * only the calls that finished since the last one, and the page keeps the latest
 * `recentLimit`. Its one action is cancelling a call, after a confirmation. It logs in with the page secret of its login link (kept in this tab's
 * sessionStorage, sent as a header), and the HttpOnly cookie the same link set.
 */
import type { DashboardSnapshot, RateBucket } from '../../src/http/dashboard/dashboard-feed.js';
import type { EditorView } from '../../src/http/dashboard/editor-watch.js';
import type { HostStatusCall } from '../../src/protocol/index.js';
import type { CallLogLine } from '../../src/mcp/call-log.js';
import { prependRows, setText, syncRows } from './rows.js';

const SECRET_KEY = 'tether-dashboard-secret';
const SECRET_HEADER = 'x-tether-dashboard';

const STATE_CLASS: Record<string, string> = { ready: 'ok', playing: 'ok', compiling: 'warn', reloading: 'warn', building: 'warn', connecting: 'muted', away: 'bad' };
const STATE_COLOR: Record<string, string> = { ok: '#2e9d5b', warn: '#c7862a', bad: '#d0443e', muted: '#8a8f98' };
const OUTCOME_CLASS: Record<string, string> = { success: 'ok', tool_error: 'warn', cancelled: 'muted', unknown: 'bad', failed: 'bad' };

function $(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from the page`);
  return found;
}

/** An element with text and attributes: the page never parses HTML from data. */
function el(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString();
}

function agentName(agent: { name: string; version?: string } | undefined): string {
  return agent ? `${agent.name}${agent.version ? ` ${agent.version}` : ''}` : 'unnamed agent';
}

function projectName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

function bodyOf(id: string): HTMLElement {
  return $(id).querySelector('tbody') as HTMLElement;
}

function cell(row: HTMLTableRowElement, index: number): HTMLElement {
  return row.cells[index] as HTMLElement;
}

// --- login -----------------------------------------------------------------------------------

function pageSecret(): string | undefined {
  const match = /^#session=([\w-]+)$/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(SECRET_KEY, match[1]);
    // Out of the address bar and the history at once.
    history.replaceState(null, '', '/');
  }
  return sessionStorage.getItem(SECRET_KEY) ?? undefined;
}

function showLogin(): void {
  $('login').hidden = false;
  $('content').hidden = true;
  setConnection('logged out', 'muted');
}

function setConnection(text: string, kind: string): void {
  const badge = $('connection');
  badge.textContent = text;
  badge.className = `badge ${kind}`;
}

// --- drawing ---------------------------------------------------------------------------------

/** What the editor cards last showed: they are drawn again only when it changes, or a second on. */
let editorsShown = '';

function drawEditors(snapshot: DashboardSnapshot): void {
  // The status (calls, connections) changes with every call and is not on the cards.
  const shown = JSON.stringify([Math.floor(snapshot.now / 1000), snapshot.editors.map(({ status: _status, ...card }) => card)]);
  if (shown === editorsShown) return;
  editorsShown = shown;
  const cards = snapshot.editors.map((editor) => {
    const kind = STATE_CLASS[editor.state] ?? 'muted';
    const lastReload = editor.reloads.at(-1);
    return el(
      'div',
      { class: 'card', 'data-project': editor.project },
      el('div', { class: 'project' }, projectName(editor.project)),
      el('div', { class: 'muted' }, `${editor.name ?? editor.kind ?? 'editor'}${editor.version ? ` ${editor.version}` : ''} · ${editor.project}`),
      timeline(editor, snapshot.now),
      el('span', { class: `badge ${kind}`, 'data-state': editor.state }, editor.state),
      ' ',
      el('span', { class: 'muted' }, lastReload === undefined ? '' : `last reload ${duration(lastReload)} (${editor.reloads.length} seen)`),
      ...(editor.error && editor.state !== 'ready' ? [el('div', { class: 'muted' }, editor.error)] : []),
    );
  });
  $('editors').replaceChildren(...(cards.length > 0 ? cards : [el('p', { class: 'muted' }, 'No editor is running. Start one: npm start, or open a Unity project with the Tether package.')]));
}

/** The editor's states over the last ten minutes as coloured spans. */
function timeline(editor: EditorView, now: number): HTMLElement {
  const windowMs = 10 * 60_000;
  const start = now - windowMs;
  const strip = el('div', { class: 'timeline', title: 'state over the last 10 minutes' });
  editor.timeline.forEach((span, i) => {
    const from = Math.max(span.at, start);
    const to = editor.timeline[i + 1]?.at ?? now;
    if (to <= start) return;
    const part = el('span', { title: `${span.state} from ${clock(span.at)}` });
    part.style.width = `${((to - from) / windowMs) * 100}%`;
    part.style.background = STATE_COLOR[STATE_CLASS[span.state] ?? 'muted'] ?? '#888';
    if (i === 0 && span.at > start) part.style.marginLeft = `${((span.at - start) / windowMs) * 100}%`;
    strip.append(part);
  });
  return strip;
}

/** Sets a progress cell (made by inFlightRow) to the call's last report. */
function showProgress(td: HTMLElement, call: HostStatusCall): void {
  const meter = td.firstElementChild as HTMLElement;
  const bar = meter.firstElementChild as HTMLElement;
  const progress = call.lastProgress;
  const fraction = progress?.progress !== undefined && progress.total ? Math.min(1, progress.progress / progress.total) : undefined;
  bar.classList.toggle('indeterminate', fraction === undefined);
  if (fraction === undefined) {
    meter.removeAttribute('aria-valuenow');
    bar.style.removeProperty('width');
  } else {
    const percent = String(Math.round(fraction * 100));
    if (meter.getAttribute('aria-valuenow') !== percent) meter.setAttribute('aria-valuenow', percent);
    bar.style.width = `${percent}%`;
  }
  setText(td.lastElementChild as HTMLElement, progress?.message ?? call.state);
}

interface InFlight {
  project: string;
  call: HostStatusCall;
  now: number;
}

function elapsed({ call, now }: InFlight): string {
  return duration(now - (call.startedAt ?? call.queuedAt));
}

function inFlightRow(item: InFlight, secret: string): HTMLTableRowElement {
  const { project, call } = item;
  const cancel = el('button', { class: 'danger', 'data-call': call.callId }, 'Cancel');
  cancel.addEventListener('click', () => confirmCancel(cancel, project, call, secret));
  const progress = el('td', {}, el('div', { class: 'progress', role: 'progressbar' }, el('div', { class: 'bar' })), el('div', { class: 'progress-message' }));
  showProgress(progress, call);
  return el(
    'tr',
    { 'data-call': call.callId },
    el('td', {}, call.tool),
    el('td', {}, agentName(call.agent)),
    el('td', {}, projectName(project)),
    el('td', {}, elapsed(item)),
    progress,
    el('td', {}, cancel),
  ) as HTMLTableRowElement;
}

function drawInFlight(snapshot: DashboardSnapshot, secret: string): void {
  const items = snapshot.editors.flatMap((editor) => (editor.status?.calls ?? []).map((call) => ({ project: editor.project, call, now: snapshot.now })));
  syncRows(bodyOf('inflight'), items, {
    key: ({ project, call }) => `${project}\n${call.callId}`,
    create: (item) => inFlightRow(item, secret),
    update: (row, item) => {
      setText(cell(row, 3), elapsed(item));
      showProgress(cell(row, 4), item.call);
    },
    empty: 'Nothing running.',
    columns: 6,
  });
}

/** A cancel asks twice: the call may be a build of many minutes. */
function confirmCancel(button: HTMLElement, project: string, call: HostStatusCall, secret: string): void {
  const cell = button.parentElement as HTMLElement;
  const yes = el('button', { class: 'danger', 'data-confirm': call.callId }, `Stop ${call.tool}`);
  const no = el('button', {}, 'Keep running');
  no.addEventListener('click', () => cell.replaceChildren(button));
  yes.addEventListener('click', () => {
    cell.replaceChildren(el('span', { class: 'muted' }, 'asking the editor…'));
    void fetch('/dashboard/cancel', { method: 'POST', headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret }, body: JSON.stringify({ project, callId: call.callId }) }).then(
      async (response) => {
        const answer = (await response.json()) as { message?: string };
        cell.replaceChildren(el('span', { class: response.ok ? 'muted' : 'bad' }, response.ok ? 'cancel sent' : (answer.message ?? `refused (${response.status})`)));
      },
    );
  });
  cell.replaceChildren(yes, ' ', no);
}

interface AgentRow {
  key: string;
  name: string;
  via: string;
  editor: string;
  since: string;
}

function drawAgents(snapshot: DashboardSnapshot): void {
  // tether serve's own link stands for its HTTP agents, which are listed one by one below.
  const stdio = snapshot.editors.flatMap((editor) =>
    (editor.status?.connections ?? [])
      .filter((connection) => connection.client.name !== 'tether-serve')
      .map((connection): AgentRow => ({
        key: `${editor.project}\n${connection.connectionId}`,
        name: agentName(connection.client),
        via: 'tether mcp (stdio)',
        editor: projectName(editor.project),
        since: clock(connection.since),
      })),
  );
  // HTTP agents have no id the page sees; the same client twice is one row more, in order.
  const seen = new Map<string, number>();
  const http = snapshot.httpAgents.map((agent): AgentRow => {
    const name = agentName(agent);
    const nth = (seen.get(name) ?? 0) + 1;
    seen.set(name, nth);
    return { key: `http\n${name}\n${agent.project ?? ''}\n${nth}`, name, via: 'tether serve (HTTP)', editor: agent.project ? projectName(agent.project) : '—', since: '—' };
  });
  const calls = (row: AgentRow): string => String(snapshot.callsByAgent[row.name] ?? 0);
  syncRows(bodyOf('agents'), [...stdio, ...http], {
    key: (row) => row.key,
    create: (row) => el('tr', {}, el('td', {}, row.name), el('td', {}, row.via), el('td', {}, row.editor), el('td', {}, row.since), el('td', {}, calls(row))) as HTMLTableRowElement,
    update: (tr, row) => setText(cell(tr, 4), calls(row)),
    empty: 'No agent attached.',
    columns: 5,
  });
}

function recentRow(call: CallLogLine): HTMLTableRowElement {
  const kind = OUTCOME_CLASS[call.outcome] ?? 'muted';
  const word = call.outcome === 'unknown' ? 'outcome unknown: may have run' : call.outcome.replace('_', ' ');
  return el(
    'tr',
    { 'data-outcome': call.outcome, 'data-call': call.callId },
    el('td', {}, clock(call.time)),
    el('td', {}, call.tool),
    el('td', {}, call.agent ?? 'unnamed agent'),
    el('td', {}, duration(call.durationMs)),
    el('td', {}, el('span', { class: `badge ${kind}` }, word), call.code ? ` ${call.code}` : ''),
  ) as HTMLTableRowElement;
}

/** The calls new in this snapshot go on top; the page keeps `recentLimit` of them. */
function drawRecent(snapshot: DashboardSnapshot, first: boolean): void {
  const body = bodyOf('recent');
  // The first snapshot of a feed holds every call kept: after a reconnect, start over from it.
  if (first) body.replaceChildren();
  prependRows(body, snapshot.recent.map(recentRow), snapshot.recentLimit, 'No calls yet.', 5);
}

function drawUnknown(snapshot: DashboardSnapshot): void {
  const items = snapshot.editors.flatMap((editor) => (editor.status?.unknownOutcomes ?? []).map((call) => ({ project: editor.project, call })));
  syncRows(bodyOf('unknown'), items, {
    key: ({ project, call }) => `${project}\n${call.callId}`,
    create: ({ project, call }) =>
      el(
        'tr',
        { 'data-call': call.callId },
        el('td', {}, clock(call.queuedAt)),
        el('td', {}, call.tool),
        el('td', {}, agentName(call.agent)),
        el('td', {}, projectName(project)),
        el('td', {}, call.error?.message ?? 'interrupted'),
      ) as HTMLTableRowElement,
    // The journal's word may come later than the call's row.
    update: (row, { call }) => setText(cell(row, 4), call.error?.message ?? 'interrupted'),
    empty: 'None.',
    columns: 5,
  });
}

function plot(id: string, series: Array<{ values: Array<number | undefined>; color: string }>): void {
  const svg = $(id);
  const max = Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== undefined)));
  const lines = series.map(({ values, color }) => {
    const points = values.map((v, i) => `${(i / Math.max(1, values.length - 1)) * 240},${48 - ((v ?? 0) / max) * 46}`).join(' ');
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    line.setAttribute('points', points);
    line.setAttribute('stroke', color);
    return line;
  });
  svg.replaceChildren(...lines);
  svg.setAttribute('aria-label', `max ${Math.round(max)}`);
}

function drawPlots(rates: RateBucket[]): void {
  plot('plot-rate', [{ values: rates.map((b) => b.calls / 5), color: '#3b7ddd' }]);
  plot('plot-latency', [
    { values: rates.map((b) => b.p50Ms), color: '#2e9d5b' },
    { values: rates.map((b) => b.p90Ms), color: '#c7862a' },
  ]);
}

function draw(snapshot: DashboardSnapshot, secret: string, first: boolean): void {
  $('login').hidden = true;
  $('content').hidden = false;
  drawEditors(snapshot);
  drawInFlight(snapshot, secret);
  drawAgents(snapshot);
  drawRecent(snapshot, first);
  drawUnknown(snapshot);
  drawPlots(snapshot.rates);
}

// --- the feed --------------------------------------------------------------------------------

/** Reads server-sent events from a fetch (EventSource cannot send the secret header). */
async function follow(secret: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch('/dashboard/events', { headers: { [SECRET_HEADER]: secret } });
      if (response.status === 401) return showLogin();
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      setConnection('live', 'ok');
      attempt = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let first = true;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split('\n').find((line) => line.startsWith('data: '));
          if (data) {
            draw(JSON.parse(data.slice(6)) as DashboardSnapshot, secret, first);
            first = false;
          }
        }
      }
    } catch {
      // tether serve restarting, or the network between: try again.
    }
    setConnection('reconnecting…', 'warn');
    await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
  }
}

const secret = pageSecret();
if (secret) void follow(secret);
else showLogin();
