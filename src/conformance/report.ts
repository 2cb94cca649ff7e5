/** The report's text form: one line per check and a summary line scripts can match. */
import { whereStated } from './requirements.js';
import type { CheckResult, ConformanceReport } from './types.js';

const MARKS = { passed: '✓', failed: '✗', skipped: '-' } as const;

export function summarize(results: readonly CheckResult[]): ConformanceReport['summary'] {
  const count = (status: CheckResult['status']): number => results.filter((r) => r.status === status).length;
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

/**
 * "✓ id  title (12 ms)", with the reason after a dash for failed and skipped checks, and for
 * a failure the requirement and where protocol.md states it; always one line.
 */
export function formatResult(result: CheckResult): string {
  const where = result.status === 'failed' ? ` (${whereStated(result.requirement)})` : '';
  const detail = result.detail ? ` — ${result.status === 'skipped' ? 'skipped: ' : ''}${result.detail.replace(/\s*\n\s*/g, ' ')}${where}` : where;
  const duration = result.status === 'skipped' && result.durationMs === 0 ? '' : ` (${formatDuration(result.durationMs)})`;
  return `${MARKS[result.status]} ${result.id}  ${result.title}${duration}${detail}`;
}

/** "N passed, N failed", plus ", N skipped" when any were. */
export function formatSummary({ passed, failed, skipped }: ConformanceReport['summary']): string {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

export function formatHeader(report: Pick<ConformanceReport, 'host' | 'conformanceKit'>): string {
  const { host } = report;
  return `Conformance of ${host.name} (${host.kind} ${host.version}, protocol ${host.protocolVersion}) pid ${host.pid}, port ${host.port}, project ${host.projectPath}; conformance kit: ${report.conformanceKit ? 'yes' : 'no'}`;
}

export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`;
}
