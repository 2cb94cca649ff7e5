/**
 * The answer to calls/start with its JSON written by hand: a host sends one for every call,
 * and `JSON.stringify` of the whole response frame walked the envelope and the answer's own
 * members (fixed keys, a callId, a flag and two timestamps) on each. The tool's result is
 * written from its shape when it has the common one (tool-result-json.ts), and any other goes
 * through `JSON.stringify`; the rest is written here, and the frame writer puts the envelope
 * around it (jsonBody). The bytes are those of `JSON.stringify` of the answer
 * (test/protocol/call-start-result-json.test.ts holds them to it).
 */
import { JsonParams } from './json-params.js';
import { jsonText, quoteJson } from './json-parts.js';
import type { CallStartResult } from './methods.js';
import { commonToolResultJson, isCommonToolResult } from './tool-result-json.js';

/** The answer's keys in the order the host builds it (outcomeOf); `attachedTo` only for an alias. */
const KEYS = ['callId', 'result', 'replayed', 'attachedTo', 'startedAt', 'finishedAt'] as const;

/**
 * The answer with its JSON, or the answer as it is (for the frame writer to stringify) when it
 * is of another shape: keys out of that order or others beside them, a member of another
 * type, or a result that holds a long string (which the frame writer encodes in slices).
 */
export function callStartResultJson(answer: CallStartResult): CallStartResult | JsonParams {
  if (!inKeyOrder(answer)) return answer;
  const { callId, result, replayed, attachedTo, startedAt, finishedAt } = answer;
  if (typeof callId !== 'string' || typeof replayed !== 'boolean' || typeof startedAt !== 'number' || typeof finishedAt !== 'number') return answer;
  if (attachedTo !== undefined && typeof attachedTo !== 'string') return answer;
  const resultJson = isCommonToolResult(result) ? commonToolResultJson(result) : jsonText(result);
  if (resultJson === undefined) return answer;
  let json = `{"callId":${quoteJson(callId)},"result":${resultJson},"replayed":${replayed}`;
  if (attachedTo !== undefined) json += `,"attachedTo":${quoteJson(attachedTo)}`;
  return new JsonParams(answer, `${json},"startedAt":${timestampJson(startedAt)},"finishedAt":${timestampJson(finishedAt)}}`);
}

/** Whether the answer's own keys are KEYS in order (attachedTo may be absent), and only those. */
function inKeyOrder(answer: CallStartResult): boolean {
  if (typeof answer !== 'object' || answer === null || Object.getPrototypeOf(answer) !== Object.prototype) return false;
  let at = 0;
  for (const key in answer) {
    if (at === 3 && key !== 'attachedTo') at++; // attachedTo is the optional one
    if (key !== KEYS[at]) return false;
    at++;
  }
  return at === KEYS.length;
}

/** "000" to "999": the digits of a timestamp written three at a time, without a number's conversion. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
/** The millions of the timestamp last written and their text: they change every 17 minutes. */
let lastMillions = -1;
let lastMillionsText = '';

/**
 * `JSON.stringify(ms)` of a timestamp. An epoch time in ms is past 2^31, so V8 keeps it as a
 * double and writes it through its shortest-double algorithm (~500 instructions each); an
 * integer is written here from its millions (remembered) and two groups of three digits. Any
 * other number (a fraction, a small or negative one, not finite) is left to JSON.stringify.
 */
export function timestampJson(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 1_000_000) return JSON.stringify(ms);
  const millions = Math.floor(ms / 1_000_000);
  if (millions !== lastMillions) {
    lastMillionsText = String(millions);
    lastMillions = millions;
  }
  const rest = ms - millions * 1_000_000;
  const thousands = Math.floor(rest / 1000);
  return lastMillionsText + (THREE_DIGITS[thousands] as string) + (THREE_DIGITS[rest - thousands * 1000] as string);
}
