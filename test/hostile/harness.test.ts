/**
 * The hostile harness's own parts (bench/hostile/): what its figures are computed with must
 * be right, and a seed must replay the very same inputs, or a failure found once could not be
 * found again. The suites themselves run with `npm run hostile`, not here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../bench/hostile/chaos/agents.js';
import { operationName } from '../../bench/hostile/chaos/editor-log.js';
import { batchSeed } from '../../bench/hostile/fuzz/campaign.js';
import { postHandshakeFrames, preHandshakeInputs } from '../../bench/hostile/fuzz/host-inputs.js';
import { httpRequests, jsonRpcBodies } from '../../bench/hostile/fuzz/http-inputs.js';
import { stdinLines } from '../../bench/hostile/fuzz/mcp-stdin.js';
import { servedSomething } from '../../bench/hostile/fuzz/serve-drivers.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { Mutator } from '../../bench/hostile/fuzz/mutator.js';
import { seededRandom } from '../../test/chaos/chaos-scenario.js';
import { ZERO, atMost, figure, flat, meetsBar } from '../../bench/hostile/lib/figures.js';
import { afterWarmUp, slope, slopePerHour } from '../../bench/hostile/lib/stats.js';
import { hourlySlope, judged } from '../../bench/hostile/soak/sampler.js';

describe('slopes', () => {
  it('is the least-squares slope, per second and per hour', () => {
    const points = [0, 10, 20, 30].map((t) => ({ t, y: 100 + 0.5 * t }));
    expect(slope(points)).toBeCloseTo(0.5);
    expect(slopePerHour(points)).toBeCloseTo(1_800);
    // Noise around a flat line: a slope near zero.
    expect(
      slope([
        { t: 0, y: 5 },
        { t: 1, y: 7 },
        { t: 2, y: 5 },
        { t: 3, y: 7 },
        { t: 4, y: 5 },
        { t: 5, y: 7 },
      ]),
    ).toBeCloseTo(0.171, 3);
    expect(slope([{ t: 0, y: 1 }])).toBeNaN();
  });

  it('leaves the first fifth out as warm-up', () => {
    const points = Array.from({ length: 11 }, (_, t) => ({ t, y: t < 2 ? 1_000 : 10 }));
    expect(afterWarmUp(points).map((p) => p.t)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(slope(afterWarmUp(points))).toBe(0);
  });

  it("judge the editor after its journal's fill when that is longer than the first fifth", () => {
    // A series starting at 100 s that fills for 15 minutes, then holds with a sawtooth.
    const points = Array.from({ length: 181 }, (_, i) => ({ t: 100 + i * 20, y: i * 20 < 900 ? i * 5 : 225 + (i % 3) }));
    expect(hourlySlope(points)).toBeGreaterThan(5);
    expect(judged(points, 900)[0]!.t).toBe(1_000);
    expect(Math.abs(hourlySlope(points, 900))).toBeLessThan(0.5);
    // The first fifth still goes when it is the longer.
    expect(judged(points, 60)[0]!.t).toBe(100 + 720);
  });
});

describe('bars', () => {
  it('meets 0 only with 0, flat under its limit, and never with NaN', () => {
    expect(meetsBar(0, ZERO)).toBe(true);
    expect(meetsBar(1, ZERO)).toBe(false);
    expect(meetsBar(-1, atMost(0))).toBe(true);
    expect(meetsBar(4.9, flat(5))).toBe(true);
    expect(meetsBar(5.1, flat(5))).toBe(false);
    expect(meetsBar(Number.NaN, flat(5))).toBe(false);
    expect(figure('x', 2, 'crashes', ZERO, 7)).toMatchObject({ meets: false, seed: 7 });
  });
});

describe('seeds', () => {
  it('derive a different seed for every batch, the same each time', () => {
    const seeds = Array.from({ length: 1_000 }, (_, batch) => batchSeed(42, batch));
    expect(new Set(seeds).size).toBe(1_000);
    expect(batchSeed(42, 7)).toBe(seeds[7]);
    expect(batchSeed(43, 7)).not.toBe(seeds[7]);
  });

  it('replay every generator byte for byte', () => {
    const address = { hostHeader: '127.0.0.1:1', token: 'secret-token' };
    for (const make of [
      (seed: number) => preHandshakeInputs(seed, 200),
      (seed: number) => postHandshakeFrames(seed, 200),
      (seed: number) => stdinLines(seed, 200).map((line) => Buffer.from(line)),
      (seed: number) => httpRequests(seed, 200, address).map((input) => input.bytes),
      (seed: number) => jsonRpcBodies(seed, 200).map((body) => Buffer.from(body)),
    ]) {
      const once = Buffer.concat(make(11));
      expect(Buffer.concat(make(11)).equals(once)).toBe(true);
      expect(Buffer.concat(make(12)).equals(once)).toBe(false);
    }
  });

  it('mutate within the size asked for', () => {
    const mutator = new Mutator(seededRandom(5), [Buffer.from('Content-Length: 2\r\n\r\n{}')], 512);
    for (let i = 0; i < 2_000; i++) expect(mutator.next().length).toBeLessThanOrEqual(512);
  });

  it('mark as authenticated exactly the requests that hold the token', () => {
    const address = { hostHeader: '127.0.0.1:1', token: 'secret-token' };
    const inputs = httpRequests(3, 500, address);
    for (const input of inputs) expect(input.authenticated, JSON.stringify(input.bytes.toString('latin1').slice(0, 300))).toBe(input.bytes.includes('secret-token'));
    expect(inputs.filter((input) => input.authenticated).length).toBeGreaterThan(50);
    expect(inputs.filter((input) => !input.authenticated).length).toBeGreaterThan(200);
  });
});

describe('what agents are told', () => {
  const failed = (code: string, data?: Record<string, unknown>) => ({ isError: true, _meta: { 'tether/error': { code, data } } });

  it('reads a result as ran, did not run, unknown, or another failure', () => {
    expect(classify({})).toEqual({ told: 'succeeded' });
    expect(classify(failed('HOST_UNAVAILABLE'))).toEqual({ told: 'not-run', code: 'HOST_UNAVAILABLE' });
    expect(classify(failed('CANCELLED', { started: false }))).toEqual({ told: 'not-run', code: 'CANCELLED' });
    expect(classify(failed('CANCELLED', { started: true }))).toEqual({ told: 'failed', code: 'CANCELLED' });
    expect(classify(failed('OUTCOME_UNKNOWN'))).toEqual({ told: 'unknown', code: 'OUTCOME_UNKNOWN' });
    expect(classify(failed('TOOL_FAILED'))).toEqual({ told: 'failed', code: 'TOOL_FAILED' });
  });

  it('finds an operation by the name the chaos gives it', () => {
    expect(operationName({ name: 'op-1-2-3' })).toBe('op-1-2-3');
    expect(operationName({ name: 'Player' })).toBeUndefined();
  });
});

describe("a stranger's answers from tether serve", () => {
  const page = readFileSync(join(REPO_ROOT, 'dist', 'web', 'dashboard', 'index.html')).toString('latin1');
  const chunked = (status: string, body: string): string => `HTTP/1.1 ${status}\r\ntransfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const sized = (status: string, body: string): string => `HTTP/1.1 ${status}\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

  it("count the dashboard's public page as a refusal, after 100 Continue or before another answer", () => {
    expect(servedSomething(chunked('200 OK', page), false)).toBe(false);
    expect(servedSomething(`HTTP/1.1 100 Continue\r\n\r\n${sized('200 OK', page)}`, false)).toBe(false);
    expect(servedSomething(`${chunked('200 OK', page)}HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n`, false)).toBe(false);
    expect(servedSomething(sized('401 Unauthorized', '{"error":"UNAUTHORIZED"}'), false)).toBe(false);
    expect(servedSomething('HTTP/1.1 204 No Content\r\n\r\n', true)).toBe(false);
  });

  it('count anything else that succeeds as served, also pipelined behind the page or cut off', () => {
    expect(servedSomething(chunked('200 OK', '{"result":{}}'), false)).toBe(true);
    expect(servedSomething(`${chunked('200 OK', page)}${sized('200 OK', '{"result":{}}')}`, false)).toBe(true);
    expect(servedSomething(chunked('200 OK', page.slice(0, -1)), false)).toBe(true);
    expect(servedSomething(`HTTP/1.1 200 OK\r\ncontent-length: 99999\r\n\r\n${page}`, false)).toBe(true);
    expect(servedSomething('HTTP/1.1 204 No Content\r\n\r\n', false)).toBe(true);
    expect(servedSomething('garbage\r\nHTTP/1.1 200 OK\r\n\r\n', false)).toBe(true);
  });
});
