/**
 * Fuzz drivers for `tether serve`: whole HTTP requests from strangers and token holders on
 * fresh connections, and JSON-RPC bodies posted in an authenticated session.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../test/helpers/processes.js';
import { openRawSession } from '../../../test/helpers/serve.js';
import type { ServeTarget } from '../lib/targets.js';
import type { BatchTally, FuzzDriver } from './campaign.js';
import { inParallel } from './host-drivers.js';
import { httpRequests, jsonRpcBodies, type HttpInput } from './http-inputs.js';

/** Under --max-unauthenticated-connections (128): strangers here must not crowd out the legitimate call. */
const CONNECTIONS_AT_ONCE = 48;
const CLOSE_WAIT_MS = 2_000;
/** An answer is whole once the server is this quiet (keep-alive or a stream: the harness stops reading). */
const QUIET_MS = 50;

interface Exchange {
  statuses: number[];
  text: string;
}

/**
 * Writes one input on a fresh connection and reads the answer: once bytes come, until the
 * server closes or is quiet for a moment; if nothing comes within a second (a request the
 * server is still waiting to complete), the harness ends its side and waits a little more. It
 * does not end its side at once: a client's FIN while the server still reads the request is an
 * abort, which Node reports to the handler as an error (and the server's log records it).
 */
function exchange(port: number, input: HttpInput): Promise<Exchange | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    let connected = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(connected ? { statuses: statuses(text), text } : undefined);
    };
    const after = (ms: number, then: () => void): void => {
      clearTimeout(timer);
      timer = setTimeout(then, ms);
    };
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      connected = true;
      socket.write(input.bytes);
      after(1_000, () => {
        socket.end();
        after(CLOSE_WAIT_MS, finish);
      });
    });
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      after(QUIET_MS, finish);
    });
    socket.once('close', finish);
  });
}

/**
 * The dashboard's page and its two files are public, as any login page is: static, the same
 * for everyone, with no data in them (the data comes from /dashboard/events, behind the login
 * cookie and the page secret). An answer that is exactly one of them is not "served".
 */
const PAGE_FILES_DIR = join(REPO_ROOT, 'dist', 'web', 'dashboard');

/** Whether a body is, byte for byte, one of the dashboard's public files. */
function isPublicPageFile(body: string | undefined): boolean {
  // Read now, not once: a build while the harness runs changes them, and serve reads them afresh.
  return body !== undefined && readdirSync(PAGE_FILES_DIR).some((name) => body === readFileSync(join(PAGE_FILES_DIR, name)).toString('latin1'));
}

interface ParsedResponse {
  status: number;
  /** undefined: not whole (cut off, or a chunked body that does not parse). */
  body: string | undefined;
}

/**
 * The responses on a connection, in order: one per pipelined request, "100 Continue" one of
 * them. `rest` is what did not parse as a response (its status lines are judged as they are).
 */
export function parseResponses(text: string): { responses: ParsedResponse[]; rest: string } {
  const responses: ParsedResponse[] = [];
  let at = 0;
  for (;;) {
    const statusLine = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(text.slice(at, at + 200));
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (!statusLine || headEnd < 0) return { responses, rest: text.slice(at) };
    const status = Number(statusLine[1]);
    const head = text.slice(at, headEnd);
    const bodyAt = headEnd + 4;
    if (status < 200 || status === 204 || status === 304) {
      responses.push({ status, body: '' });
      at = bodyAt;
    } else if (/^transfer-encoding: *chunked/im.test(head)) {
      const chunked = dechunked(text, bodyAt);
      responses.push({ status, body: chunked?.body });
      if (!chunked) return { responses, rest: '' };
      at = chunked.end;
    } else {
      const length = /^content-length: *(\d+)/im.exec(head);
      const end = length ? bodyAt + Number(length[1]) : text.length;
      responses.push({ status, body: end <= text.length ? text.slice(bodyAt, end) : undefined });
      at = Math.min(end, text.length);
    }
    if (at >= text.length) return { responses, rest: '' };
  }
}

/** A chunked body (RFC 9112 §7.1) from `at`, and where it ends; undefined when it is not whole. */
function dechunked(text: string, at: number): { body: string; end: number } | undefined {
  let body = '';
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return { body, end: lineEnd + 4 };
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Whether a stranger was served: a success other than a preflight's 204 or the dashboard's
 * public files, on any of the connection's responses.
 */
export function servedSomething(text: string, preflight: boolean): boolean {
  const served = (status: number): boolean => status >= 200 && status < 400 && !(preflight && status === 204);
  const { responses, rest } = parseResponses(text);
  return responses.some((response) => served(response.status) && !isPublicPageFile(response.body)) || statuses(rest).some(served);
}

function statuses(text: string): number[] {
  return [...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((m) => Number(m[1]));
}

export function serveHttpDriver(serve: ServeTarget): FuzzDriver {
  const seen = { refused: 0, byStatus: new Map<number, number>(), examples: new Map<string, string[]>() };
  /** Up to three examples of each kind of problem, whole enough to replay by hand. */
  const example = (what: string, input: HttpInput, answer: Exchange): void => {
    const kept = seen.examples.get(what) ?? [];
    if (kept.length < 3) kept.push(`${JSON.stringify(input.bytes.subarray(0, 400).toString('latin1'))} => ${JSON.stringify(answer.text.slice(0, 300))}`);
    seen.examples.set(what, kept);
  };
  return {
    name: "tether serve's HTTP requests",
    pid: () => serve.pid,
    sample: () => serve.sample(),
    inspector: () => serve.inspector(),
    legitCall: () => serve.legitCall(),
    reviveIfDead: () => serve.reviveIfDead(),
    close: async () => undefined,
    describe: () =>
      `answers by status: ${[...seen.byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}: ${n.toLocaleString('en-US')}`)
        .join(', ')}; connections refused: ${seen.refused}${[...seen.examples].map(([what, kept]) => `; ${what}, e.g. ${kept.join(' | ')}`).join('')}`,
    async runBatch(_batch, seed, size): Promise<BatchTally> {
      const url = serve.url;
      const inputs = httpRequests(seed, size, { hostHeader: url.host, token: serve.served.token });
      const secrets = serve.secrets();
      const tally = { inputs: 0, servedBeforeAuth: 0, leaks: 0, serverErrors: 0 };
      await inParallel(inputs, CONNECTIONS_AT_ONCE, async (input) => {
        const answer = await exchange(Number(url.port), input);
        if (!answer) {
          seen.refused++;
          return;
        }
        tally.inputs++;
        for (const status of answer.statuses) seen.byStatus.set(status, (seen.byStatus.get(status) ?? 0) + 1);
        if (answer.statuses.includes(500)) {
          tally.serverErrors++;
          example('HTTP 500', input, answer);
        }
        if (input.authenticated) return;
        // A stranger may learn that the token is missing or wrong, a preflight's CORS answer, "100 Continue"
        // and the dashboard's static page (the same bytes for everyone); nothing else.
        // Empty lines before a request line are ignored (RFC 9112 §2.2), by Node too.
        const preflight = /^(?:\r?\n)*OPTIONS /.test(input.bytes.subarray(0, 64).toString('latin1'));
        if (servedSomething(answer.text, preflight)) {
          tally.servedBeforeAuth++;
          example('served without the token', input, answer);
        }
        // A secret the request itself carried (a token pasted into a Host header, say) may come back quoted in its refusal.
        if (secrets.some((secret) => answer.text.includes(secret) && !input.bytes.includes(secret))) {
          tally.leaks++;
          example('secret in the answer', input, answer);
        }
      });
      return tally;
    },
  };
}

/**
 * POSTs a body with these headers; resolves with the status (0: no whole answer within `ms`,
 * a hard deadline: an SSE stream that keeps sending must still end) and the start of the text.
 */
async function post(url: URL, headers: Record<string, string>, body: string, ms: number): Promise<{ status: number; text: string }> {
  const deadline = AbortSignal.timeout(ms);
  let status = -1;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: deadline });
    status = response.status;
    const text = await response.text();
    return { status, text: text.slice(0, 65_536) };
  } catch {
    return { status: deadline.aborted ? 0 : status, text: '' };
  }
}

export function serveJsonRpcDriver(serve: ServeTarget): FuzzDriver {
  let session: Record<string, string> | undefined;
  const seen = { sessions: 0, unanswered: 0, byStatus: new Map<number, number>(), slow: [] as string[] };
  return {
    name: "tether serve's JSON-RPC bodies",
    pid: () => serve.pid,
    sample: () => serve.sample(),
    inspector: () => serve.inspector(),
    legitCall: () => serve.legitCall(),
    reviveIfDead: async () => {
      const death = await serve.reviveIfDead();
      if (death) session = undefined;
      return death;
    },
    close: async () => undefined,
    describe: () =>
      `${seen.sessions} sessions used; answers by status: ${[...seen.byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}: ${n.toLocaleString('en-US')}`)
        .join(', ')}; requests unanswered within 15 s: ${seen.unanswered}${seen.slow.length ? `; slowest: ${seen.slow.join(' | ')}` : ''}`,
    async runBatch(batch, seed, size): Promise<BatchTally> {
      if (!session) {
        try {
          session = await openRawSession(serve.served, {}, 'hostile-fuzz');
          seen.sessions++;
        } catch {
          return { inputs: 0 };
        }
      }
      const headers = session;
      const url = serve.url;
      const tally = { inputs: 0, serverErrors: 0 };
      let gone = false;
      await inParallel(jsonRpcBodies(seed, size), 16, async (body) => {
        const started = Date.now();
        const answer = await post(url, headers, body, 15_000);
        const ms = Date.now() - started;
        if (ms > 5_000 && seen.slow.length < 5) seen.slow.push(`${ms} ms, HTTP ${answer.status}, batch ${batch}: ${body.slice(0, 160)}`);
        tally.inputs++;
        seen.byStatus.set(answer.status, (seen.byStatus.get(answer.status) ?? 0) + 1);
        if (answer.status === 500) tally.serverErrors++;
        if (answer.status === 0) seen.unanswered++;
        if (answer.status === 404) gone = true; // the session ended (evicted, or a fuzzed DELETE): a new one next batch
      });
      if (gone) session = undefined;
      return tally;
    },
  };
}
