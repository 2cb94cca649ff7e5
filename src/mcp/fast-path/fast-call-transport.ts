/**
 * `tether mcp`'s stdio transport with a fast path for plain tool calls. Once a 2025-era
 * client has initialized, a stdin line that is a plain `tools/call` of a catalog tool
 * (fast-call-request.ts) is answered here: the same tools/call handler the
 * SDK runs (tool-call.ts) runs with a context the SDK's Server builds, and its result goes
 * to stdout as the SDK would write it (tool-result-wire.ts), without the SDK parsing the
 * request with its schemas, routing it, validating the result with zod when it needs no
 * validating, or tracking it. Every other line goes to the SDK as it came: it still owns the
 * protocol (initialize, lists, tasks, errors, the 2026 era, anything in doubt).
 *
 * Cancellation and close are kept as the SDK keeps them for its own requests: a
 * `notifications/cancelled` naming a fast-path call aborts it and no response is sent; a
 * closed transport aborts every call still running.
 *
 * Whatever the path, the lines are framed here, and what the SDK would drop or mishandle is
 * answered here (inbound-requests.ts): a line that is not JSON, a message that is not valid,
 * a request whose id one still running has, and a line longer than the SDK reads (it would
 * close the session): each gets its JSON-RPC error and the session goes on.
 */
import type { Readable, Writable } from 'node:stream';
import { INVALID_REQUEST, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult, JSONRPCMessage, ProtocolEra, RequestId, Server, ServerContext } from '@modelcontextprotocol/server';
import type { LiftedStrings } from '../../protocol/index.js';
import { idJson } from '../../protocol/json-params.js';
import type { Front } from '../front.js';
import { FRONT_TOOL_NAMES } from '../front-tools.js';
import { SplicingStdioTransport } from '../splicing-stdio-transport.js';
import { fastCallContext } from './call-context.js';
import { CallSignal } from './call-signal.js';
import { cancelledRequestId, fastCallRequest, legacyInitializeId, type FastCallRequest } from './fast-call-request.js';
import { InboundRequests, inUse, type Refusal } from './inbound-requests.js';
import { wireToolResult } from './tool-result-wire.js';

/** What the fast path serves with: the SDK server of the connection and its tools/call handler. */
export interface FastCallServing {
  server: Server;
  era: ProtocolEra;
  /** The front the server uses now. */
  front(): Front;
  /** The tools/call handler the server runs (tool-call.ts). */
  run(request: CallToolRequest, ctx: ServerContext): Promise<CallToolResult>;
}

export interface FastCallTransportOptions {
  /** False: every line goes to the SDK (TETHER_FAST_PATH=0; the differential test compares the two). */
  enabled: boolean;
  stdin?: Readable;
  stdout?: Writable;
  /** Told once, when the first call takes the fast path (a log line: tests and operators see it is on). */
  onFirstFastCall?(): void;
  /** Told when the transport closes, whoever closed it (the SDK does, on an error writing stdout): the session is over. */
  onClosed?(): void;
}

/** The longest line the SDK's stdio transport reads (with its newline): past it, it would end the session. */
const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1;
const NEWLINE = Buffer.from('\n');

/** The SDK's JSON-RPC error codes the fast path may answer with. */
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

export class FastCallTransport extends SplicingStdioTransport {
  private serving: FastCallServing | undefined;
  private initializeId: RequestId | undefined;
  private ready = false;
  private answered = false;
  private readonly inFlight = new Map<RequestId, CallSignal>();
  /** The start of a line not yet complete. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Bytes of a line too long to read, dropped up to its newline (then refused). */
  private dropping = 0;
  private readonly inbound = new InboundRequests();
  /** Fast-path calls whose result holds lifted strings: their response goes through `send`, which splices. */
  private readonly spliced = new Set<RequestId>();
  private closed = false;
  private readonly out: Writable;

  constructor(private readonly options: FastCallTransportOptions) {
    super(options.stdin, options.stdout);
    this.out = options.stdout ?? process.stdout;
    const sdkOnData = this._ondata;
    this._ondata = (chunk) => this.onData(chunk, sdkOnData);
  }

  /** Called by the server factory: the fast path serves 2025-era connections only. */
  serve(serving: FastCallServing): void {
    this.serving = serving.era === 'legacy' ? serving : undefined;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    // The initialize answer opens the fast path: from then on the session is set up.
    if (!this.ready && this.initializeId !== undefined && 'result' in message && message.id === this.initializeId) this.ready = this.serving !== undefined;
    // A response frees its request's id.
    if ('id' in message && !('method' in message) && message.id !== undefined) this.inbound.answered(message.id);
    return super.send(message);
  }

  override hold(id: RequestId, lifted: LiftedStrings, signal: AbortSignal): void {
    if (this.inFlight.has(id)) this.spliced.add(id);
    super.hold(id, lifted, signal);
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closed = new Error('Connection closed');
    for (const signal of this.inFlight.values()) signal.abort(closed);
    this.inFlight.clear();
    await super.close();
    this.options.onClosed?.();
  }

  private onData(chunk: Buffer, sdk: (chunk: Buffer) => void): void {
    let from = 0;
    if (this.dropping > 0) {
      const end = chunk.indexOf(10);
      if (end < 0) {
        this.dropping += chunk.length;
        return;
      }
      this.refuse(tooLong(this.dropping + end));
      this.dropping = 0;
      from = end + 1;
    }
    for (let end = chunk.indexOf(10, from); end >= 0; from = end + 1, end = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, end);
      let line = piece;
      if (this.partialBytes > 0) {
        line = Buffer.concat([...this.partial, piece]);
        this.partial = [];
        this.partialBytes = 0;
      }
      if (line.length > MAX_LINE_BYTES) this.refuse(tooLong(line.length));
      else this.take(line, sdk);
    }
    if (from >= chunk.length) return;
    this.partial.push(chunk.subarray(from));
    this.partialBytes += chunk.length - from;
    if (this.partialBytes > MAX_LINE_BYTES) {
      this.dropping = this.partialBytes;
      this.partial = [];
      this.partialBytes = 0;
    }
  }

  /** A whole line: the fast path's, refused, or the SDK's. */
  private take(line: Buffer, sdk: (chunk: Buffer) => void): void {
    if (this.options.enabled && this.tryFastPath(line)) return;
    const refusal = this.inbound.screen(line.toString('utf8'));
    if (refusal) this.refuse(refusal);
    else sdk(Buffer.concat([line, NEWLINE]));
  }

  /** Answers a line with an error in place of handling it. */
  private refuse({ id, code, message }: Refusal): void {
    if (this.closed) return;
    this.writeLine(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`)?.catch((error: unknown) => this.onerror?.(new Error(`Failed to send response: ${String(error)}`)));
  }

  /** True when the fast path answers `line`; false hands it to the SDK. */
  private tryFastPath(line: Buffer): boolean {
    if (!this.ready) {
      this.initializeId = legacyInitializeId(line) ?? this.initializeId;
      return false;
    }
    const serving = this.serving;
    // A call first (most lines are calls): a line that is one is no cancellation, so it is not
    // searched for that too.
    const request = serving && fastCallRequest(line);
    if (!request) {
      const cancelled = cancelledRequestId(line);
      // The SDK sees the notification too; it knows no request of that id, as for any id it never had.
      if (cancelled !== undefined) this.inFlight.get(cancelled)?.abort((JSON.parse(line.toString('utf8')) as { params: { reason?: unknown } }).params.reason);
      return false;
    }
    if (!serving || FRONT_TOOL_NAMES.includes(request.name)) return false;
    // A tool the mirror does not hold yet is the SDK's (the handler may look it up at the
    // editor). The arguments are not checked here: the handler checks them, as on the SDK
    // path, and its invalid-arguments result is written as any other (one validation a call).
    if (!serving.front().tool(request.name)) return false;
    // An id a request still running has: refused, as on the SDK path, never run again.
    if (!this.inbound.opened(request.id)) {
      this.refuse(inUse(request.id));
      return true;
    }
    if (!this.answered) this.options.onFirstFastCall?.();
    this.answered = true;
    void this.answer(serving, request);
    return true;
  }

  /** Runs the call as the SDK would run the handler, and writes its response as the SDK would. */
  private async answer(serving: FastCallServing, request: FastCallRequest): Promise<void> {
    const { id } = request;
    // Not an AbortController: see call-signal.ts.
    const signal = new CallSignal();
    this.inFlight.set(id, signal);
    const ctx = fastCallContext(serving.server, id, request.meta, signal);
    let response: JSONRPCMessage;
    let line: string | undefined;
    try {
      const result = await serving.run({ method: 'tools/call', params: request.params } as CallToolRequest, ctx);
      const wire = wireToolResult(result);
      if (wire.ok && wire.json !== undefined) line = resultLine(id, wire.json);
      response = wire.ok ? ({ result: wire.value, jsonrpc: '2.0', id } as JSONRPCMessage) : errorResponse(id, INVALID_PARAMS, wire.message);
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
      const thrown = typeof code === 'number' && Number.isSafeInteger(code) ? code : INTERNAL_ERROR;
      // The 2025 era's codec sends -32002 (resource not found) as -32602.
      response = errorResponse(id, thrown === -32002 ? INVALID_PARAMS : thrown, message ?? 'Internal error', data);
    }
    try {
      // A cancelled request gets no response, as from the SDK. A result whose long strings
      // are held goes through send, which splices them in.
      if (signal.aborted) return;
      if (line !== undefined && !this.spliced.delete(id)) {
        // Its id is free once its answer is on its way (send frees the others'), not once written:
        // a client that has read it may use the id again before a slow write's drain.
        this.inbound.answered(id);
        await this.writeLine(line);
      } else await this.send(response);
    } catch (error) {
      this.onerror?.(new Error(`Failed to send response: ${String(error)}`));
    } finally {
      this.spliced.delete(id);
      if (this.inFlight.get(id) === signal) this.inFlight.delete(id);
    }
  }

  /**
   * Writes a response line as the SDK's `send` does (resolved at once when stdout takes it,
   * else at its drain, rejected by an error before that), without its `error` listener and
   * promise for every line: a write's error is emitted on a later tick, when the SDK's
   * listener is already gone too, and goes to the transport's own stdout error handler.
   */
  private writeLine(line: string): Promise<void> | undefined {
    if (this.closed) return Promise.reject(new Error('StdioServerTransport is closed'));
    if (this.out.write(line)) return undefined;
    return new Promise((resolve, reject) => {
      const settle = (error?: Error): void => {
        this.out.off('error', settle);
        this.out.off('drain', settle);
        if (error) reject(error);
        else resolve();
      };
      this.out.once('error', settle);
      this.out.once('drain', settle);
    });
  }
}

/** `JSON.stringify({ result, jsonrpc: '2.0', id })` and its newline, as the SDK writes it, from the result's JSON. */
export function resultLine(id: RequestId, resultJson: string): string {
  return `{"result":${resultJson},"jsonrpc":"2.0","id":${idJson(id)}}\n`;
}

/** The refusal of a line longer than the SDK reads: its id cannot be known without reading it all. */
function tooLong(bytes: number): Refusal {
  return {
    id: null,
    code: INVALID_REQUEST,
    message: `Invalid Request: a message of ${bytes} bytes, more than the ${MAX_LINE_BYTES} a line may have; it was not read, and nothing was done. Send large content as a file in the project instead.`,
  };
}

function errorResponse(id: RequestId, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } } as JSONRPCMessage;
}
