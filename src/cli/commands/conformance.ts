/**
 * `tether conformance --project DIR`: runs the host conformance suite against the running
 * host of DIR and prints one line per check and a summary (or, with --json, a JSON report).
 * Exit code 0 when every selected check passed or was skipped, 1 when any failed, 2 when the
 * suite could not run at all (no such host, no such check).
 */
import { resolve } from 'node:path';
import { CHECKS, HostNotFoundError, HostUnreachableError, formatHeader, formatResult, formatSummary, runConformance, selectChecks } from '../../conformance/index.js';
import { ExitError } from '../exit-error.js';

export async function run(options: { project: string; json?: boolean; only?: string }): Promise<number> {
  if (selectChecks(CHECKS, options.only).length === 0) {
    throw new ExitError(`No check id contains "${options.only}". The checks are:\n${CHECKS.map((c) => `  ${c.id}`).join('\n')}`, 2);
  }
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const live = !options.json;
  let report;
  try {
    report = await runConformance({
      project: resolve(options.project),
      ...(options.only ? { only: options.only } : {}),
      ...(live ? { onStart: (subject) => print(formatHeader(subject)), onResult: (result) => print(formatResult(result)) } : {}),
    });
  } catch (error) {
    if (error instanceof HostNotFoundError || error instanceof HostUnreachableError) throw new ExitError(error.message, 2);
    throw error;
  }
  if (options.json) print(JSON.stringify(report, null, 2));
  else print(formatSummary(report.summary));
  return report.summary.failed > 0 ? 1 : 0;
}
