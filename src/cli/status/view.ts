/**
 * `tether status` for a person: aligned columns, progress as a text bar, times as clock
 * times and durations. Pure: it renders a report to text, so tests need no terminal.
 */
import type { HostStatusCall } from '../../protocol/index.js';
import type { EditorStatus, ServeReport, StatusReport } from './gather.js';

const BAR_WIDTH = 10;

export function renderStatus(report: StatusReport): string {
  const lines: string[] = [];
  if (report.editors.length === 0) lines.push(noEditor(report));
  for (const editor of report.editors) lines.push(...editorLines(editor, report.at), '');
  if (report.serve) lines.push(...serveLines(report.serve, report.at));
  else lines.push('tether serve is not running.');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** No editor to show: none at all, or none for the project asked for (while others may run). */
function noEditor({ project, otherEditors = 0 }: StatusReport): string {
  if (project === undefined) return 'No editor is running. Start one with `npm start`, `tether sandbox --project DIR`, or Unity with the Tether package.';
  const others =
    otherEditors === 0
      ? 'none runs for another project either'
      : `${otherEditors} ${otherEditors === 1 ? 'runs' : 'run'} for other projects (\`tether status\` shows ${otherEditors === 1 ? 'it' : 'them'})`;
  return `No editor is running for ${project}; ${others}. Start one for it with \`tether sandbox --project ${project}\`, or open it in Unity with the Tether package.`;
}

function editorLines(editor: EditorStatus, now: number): string[] {
  const title = [editor.kind, editor.name, editor.version].filter(Boolean).join(' ');
  const state = editor.state ? `${editor.state}${editor.since ? ` for ${duration(now - editor.since)}` : ''}` : 'state unknown';
  const lines = [`${title} — ${editor.project}`, `  ${state} · pid ${editor.pid} · port ${editor.port} · up since ${clock(Date.parse(editor.startedAt))}`];
  if (editor.error) lines.push(`  ${editor.answered ? 'note' : 'NOT ANSWERING'}: ${editor.error}`);
  if (!editor.answered || editor.hostStatusUnsupported) return lines;
  lines.push(`  connections (${editor.connections.length}${more(editor.omitted?.connections)})`);
  if (editor.connections.length === 0) lines.push('    none: no front, tether serve or tether call is attached');
  lines.push(
    ...table(
      editor.connections.map((c) => [c.connectionId, agentName(c.client), c.endpoint, `since ${clock(c.since)}`]),
      '    ',
    ),
  );
  lines.push(`  calls in flight (${editor.calls.length}${more(editor.omitted?.calls)})`);
  if (editor.calls.length === 0) lines.push('    none');
  lines.push(
    ...table(
      editor.calls.map((c) => callRow(c, now)),
      '    ',
    ),
  );
  if (editor.unknownOutcomes.length > 0) {
    lines.push(`  outcome unknown (${editor.unknownOutcomes.length}${more(editor.omitted?.unknownOutcomes)}): the editor stopped while these ran; they may have taken effect.`);
    lines.push(
      ...table(
        editor.unknownOutcomes.map((c) => [c.tool, c.agent ? agentName(c.agent) : '(agent not named)', `interrupted ${c.finishedAt ? clock(c.finishedAt) : ''}`, `callId ${c.callId}`]),
        '    ',
      ),
    );
    lines.push("    Check the editor's state (a read-only tool, its console) before calling them again.");
  }
  return lines;
}

function callRow(call: HostStatusCall, now: number): string[] {
  const since = call.state === 'running' ? call.startedAt : call.queuedAt;
  const where = call.state === 'queued' && call.position !== undefined ? `queued #${call.position + 1}` : call.state;
  const last = call.lastProgress;
  const progress = last?.progress !== undefined ? bar(last.progress, last.total) : '';
  return [
    call.tool,
    call.agent ? agentName(call.agent) : '(agent not named)',
    where,
    since ? duration(now - since) : '',
    progress,
    last?.message ?? '',
    `callId ${call.callId}${call.attachedTo ? ` (shares ${call.attachedTo})` : ''}`,
  ];
}

function serveLines(serve: ServeReport, now: number): string[] {
  const lines = [`tether serve — ${serve.url} · pid ${serve.pid}`];
  if (!serve.answered || !serve.status) return [...lines, `  NOT ANSWERING: ${serve.error ?? 'no answer'}`];
  const { sessions, fronts } = serve.status;
  const counts = Object.entries(sessions)
    .filter(([, value]) => typeof value === 'object' && value !== null && 'size' in value)
    .map(([pool, value]) => `${pool} ${(value as { size: number }).size}`);
  lines.push(`  sessions: ${[...counts, `awake ${String(sessions.awake ?? 0)}`].join(', ')}`);
  for (const front of fronts) {
    lines.push(`  ${front.project ?? '(default project)'}: editor link ${front.link}${front.error ? ` (${front.error})` : ''}`);
    lines.push(`    clients: ${front.clients.length === 0 ? 'none awake' : front.clients.map(agentName).join(', ')}`);
    lines.push(
      ...table(
        front.calls.map((c) => [c.tool, c.agent ? agentName(c.agent) : '(agent not named)', c.state, duration(now - c.startedAt), c.message ?? '', `callId ${c.callId}`]),
        '    ',
      ),
    );
  }
  return lines;
}

/** Rows as columns padded to their widest cell; empty trailing cells dropped. */
export function table(rows: string[][], indent: string): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd());
}

/** "[####......]  40%", or the bare count when there is no total. */
export function bar(progress: number, total?: number): string {
  if (!total || total <= 0) return String(progress);
  const share = Math.min(1, Math.max(0, progress / total));
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}%`;
}

function agentName(agent: { name: string; version?: string }): string {
  return agent.version ? `${agent.name} ${agent.version}` : agent.name;
}

function more(count: number | undefined): string {
  return count ? `, ${count} more not listed` : '';
}

function clock(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toLocaleTimeString('en-GB', { hour12: false }) : '?';
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
