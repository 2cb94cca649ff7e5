/**
 * The payloads every side of the benchmark returns: N MiB of plain ASCII text, or a PNG
 * whose file is N MiB (random, incompressible pixels, stored with deflate level 0), as
 * base64. Built once per size and kept, so a call measures the bridge, not the generator.
 */
import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';

export type PayloadKind = 'text' | 'png';

const MiB = 1024 * 1024;
const texts = new Map<number, string>();
const pngs = new Map<number, string>();

/** `mb` MiB of ASCII that needs no JSON escaping (the common case of a log or a file). */
export function textPayload(mb: number): string {
  let text = texts.get(mb);
  if (text === undefined) {
    const line = 'The quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ.\n';
    const bytes = Math.round(mb * MiB);
    text = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
    texts.set(mb, text);
  }
  return text;
}

/** A PNG file of about `mb` MiB, base64 (what an MCP image content carries). */
export function pngPayload(mb: number): string {
  let data = pngs.get(mb);
  if (data === undefined) {
    const width = 1024;
    const height = Math.max(1, Math.round((mb * MiB) / (width * 4 + 1)));
    const png = new PNG({ width, height });
    randomBytes(width * height * 4).copy(png.data);
    data = PNG.sync.write(png, { deflateLevel: 0, filterType: 0 }).toString('base64');
    pngs.set(mb, data);
  }
  return data;
}

/** Builds the payloads of a `--prewarm text:50,png:10` list ahead, so no call pays for it. */
export function prewarm(list: string | undefined): void {
  for (const item of (list ?? '').split(',').filter(Boolean)) {
    const [kind, mb] = item.split(':');
    if (kind === 'png') pngPayload(Number(mb));
    else textPayload(Number(mb));
  }
}

/** The result of one of the bench tools (`echo`, `payload`) for servers that answer by hand. */
export function answerTool(name: string, args: Record<string, unknown>): { content: Array<Record<string, string>>; isError?: true } {
  if (name === 'echo') return { content: [{ type: 'text', text: String(args.text ?? 'pong') }] };
  if (name === 'payload') return payloadResult(args.kind as PayloadKind, Number(args.mb));
  return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
}

/** The MCP tool result for a payload, exactly as the host's handler returns it. */
export function payloadResult(kind: PayloadKind, mb: number): { content: Array<Record<string, string>> } {
  return kind === 'png' ? { content: [{ type: 'image', data: pngPayload(mb), mimeType: 'image/png' }] } : { content: [{ type: 'text', text: textPayload(mb) }] };
}

/** Both bench servers (the Tether host and the SDK floor) advertise these two tools. */
export const ECHO_TOOL = {
  name: 'echo',
  description: 'Returns its text argument (a trivial read-only tool).',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  annotations: { readOnlyHint: true },
} as const;

export const PAYLOAD_TOOL = {
  name: 'payload',
  description: 'Returns N MiB of text, or a PNG of N MiB.',
  inputSchema: {
    type: 'object',
    properties: { kind: { type: 'string', enum: ['text', 'png'] }, mb: { type: 'number', minimum: 0 } },
    required: ['kind', 'mb'],
  },
  annotations: { readOnlyHint: true },
} as const;
