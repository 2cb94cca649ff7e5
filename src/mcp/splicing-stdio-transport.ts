/**
 * The stdio transport of `tether mcp`: the SDK's, except that a tool result holding
 * placeholders for long strings (lifted from the host's frame, see
 * protocol/lifted-strings.ts) is written with the original bytes spliced back in. A 50 MB
 * result thus goes from the host's socket to the client's pipe without being decoded,
 * parsed, serialized or encoded again by the front.
 *
 * The tools/call handler holds the lifted strings under the request's id; the response with
 * that id (a result, or an error that replaced it) releases them, as do a cancelled request
 * and a closed transport.
 */
import { Buffer } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import type { LiftedStrings } from '../protocol/index.js';
import { PLACEHOLDER_LENGTH, PLACEHOLDER_PREFIX } from '../link/long-string-lifter.js';

/** What a tools/call handler uses to have its result written with the lifted strings spliced in. */
export interface ResultSplicer {
  /** The response to `id` is written with `lifted`'s literals in place of their placeholders. */
  hold(id: RequestId, lifted: LiftedStrings, signal: AbortSignal): void;
}

export class SplicingStdioTransport extends StdioServerTransport implements ResultSplicer {
  private readonly held = new Map<RequestId, LiftedStrings>();

  constructor(
    stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {
    super(stdin, stdout);
  }

  hold(id: RequestId, lifted: LiftedStrings, signal: AbortSignal): void {
    this.held.set(id, lifted);
    // A cancelled request gets no response: nothing would release it.
    signal.addEventListener('abort', () => this.held.delete(id), { once: true });
  }

  override close(): Promise<void> {
    this.held.clear();
    return super.close();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    const lifted = id === undefined ? undefined : this.held.get(id);
    if (!lifted || id === undefined) return super.send(message);
    this.held.delete(id);
    return this.writeSpliced(JSON.stringify(message), lifted);
  }

  /** Writes the message's JSON with each quoted placeholder replaced by its literal's bytes. */
  private writeSpliced(json: string, lifted: LiftedStrings): Promise<void> {
    const parts: Uint8Array[] = [];
    let from = 0;
    for (let at = json.indexOf(`"${PLACEHOLDER_PREFIX}`); at >= 0; at = json.indexOf(`"${PLACEHOLDER_PREFIX}`, from)) {
      const placeholder = json.slice(at + 1, at + 1 + PLACEHOLDER_LENGTH);
      const literal = json[at + 1 + PLACEHOLDER_LENGTH] === '"' ? lifted.literal(placeholder) : undefined;
      if (!literal) {
        // Not one of ours after all (cannot happen with a random prefix): write it as it is.
        parts.push(Buffer.from(json.slice(from, at + 1)));
        from = at + 1;
        continue;
      }
      parts.push(Buffer.from(json.slice(from, at)), literal);
      from = at + PLACEHOLDER_LENGTH + 2;
    }
    parts.push(Buffer.from(`${json.slice(from)}\n`));
    return new Promise((resolve, reject) => {
      this.stdout.cork();
      for (const part of parts.slice(0, -1)) this.stdout.write(part);
      // Resolves once the last part is handed to the OS, as the SDK's send does (after drain).
      this.stdout.write(parts.at(-1) as Uint8Array, (error) => (error ? reject(error) : resolve()));
      this.stdout.uncork();
    });
  }
}
