/**
 * The payload floor: JSON.stringify + JSON.parse of the same tool result, in a fresh process
 * so its peak RSS (VmHWM) belongs to this payload alone.
 *
 *   node stringify-parse.js KIND MB REPS   → prints {ms: [...], baselineKB, afterBuildKB, hwmKB}
 *
 * hwmKB is the peak RSS after the first round: the payload plus one stringify + parse.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { payloadResult, type PayloadKind } from './payloads.js';

function statusKB(field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) : NaN;
}

const [kind = 'text', mb = '1', reps = '3'] = process.argv.slice(2);
const baselineKB = statusKB('VmRSS');
const result = { jsonrpc: '2.0', id: 1, result: payloadResult(kind as PayloadKind, Number(mb)) };
const afterBuildKB = statusKB('VmRSS');
const ms: number[] = [];
let hwmKB = NaN;
for (let i = 0; i < Number(reps); i++) {
  const start = performance.now();
  const parsed = JSON.parse(JSON.stringify(result)) as { id: number };
  ms.push(performance.now() - start);
  if (parsed.id !== 1) throw new Error('round trip failed');
  // The peak of one stringify + parse (later rounds may overlap garbage of earlier ones).
  if (i === 0) hwmKB = statusKB('VmHWM');
}
process.stdout.write(`${JSON.stringify({ ms, baselineKB, afterBuildKB, hwmKB })}\n`);
