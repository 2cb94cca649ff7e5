/**
 * `tether call`'s result, once the editor has given it: the text on stdout (JSON with --json),
 * images written to files (image-files.ts). The call has run by then, so nothing that goes
 * wrong here may be reported as its failure (exit 1: a script retrying on it would run it
 * again). Every part that can be written is; what could not be comes back to the command,
 * which reports it as RESULT_NOT_WRITTEN (exit 4).
 */
import { TetherError, type ToolResult } from '../protocol/index.js';
import { stdoutWritten } from './broken-pipe.js';
import { ImageNotWritten, defaultPath, outPath, writeImage } from './image-files.js';

export interface OutputOptions {
  toolName: string;
  /** Where an image goes (numbered when there are several). */
  out?: string;
  json: boolean;
}

/** A part of the result that did not reach its place. */
export interface Unwritten {
  what: 'stdout' | 'image';
  path?: string;
  errno?: string;
  reason: string;
}

export interface Written {
  unwritten: Unwritten[];
  /** The image files written. */
  saved: string[];
  /** With --json, whether the result went to stdout; when an image was not written, it goes inside the failure instead. */
  printed: boolean;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Writes the result. An image goes to a file, never to a temporary folder: to --out, else to
 * the current folder (image-files.ts). With --json the result is printed whole (the image as
 * base64) and an image written only when --out asks.
 */
export async function writeResult(result: ToolResult, options: OutputOptions): Promise<Written> {
  const images = result.content.filter((item) => item.type === 'image');
  if (options.out && images.length === 0) process.stderr.write(`tether: the result has no image; nothing was written to ${options.out}.\n`);
  const saved = new Map<object, string>();
  const notSaved = new Map<object, ImageNotWritten>();
  if (options.out || !options.json) {
    const now = new Date();
    images.forEach((image, index) => {
      const extension = EXTENSIONS[image.mimeType] ?? 'bin';
      const path = options.out ? outPath(options.out, index) : defaultPath(options.toolName, now, index, images.length, extension);
      try {
        saved.set(image, writeImage(path, Buffer.from(image.data, 'base64'), options.out !== undefined));
      } catch (error) {
        if (!(error instanceof ImageNotWritten)) throw error;
        notSaved.set(image, error);
      }
    });
  }
  const unwritten: Unwritten[] = [...notSaved.values()].map((error) => ({
    what: 'image',
    path: error.path,
    ...(error.failure.code ? { errno: error.failure.code } : {}),
    reason: error.message,
  }));
  // With --json, an image asked for and not written makes the answer a failure, which carries the result.
  const printed = !options.json || unwritten.length === 0;
  if (options.json) {
    if (printed) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    for (const path of saved.values()) process.stderr.write(`tether: image saved to ${path}\n`);
  } else {
    for (const item of result.content) {
      if (item.type === 'text') process.stdout.write(`${item.text}\n`);
      else if (item.type === 'image') process.stdout.write(`[${item.mimeType} image ${saved.has(item) ? `saved to ${saved.get(item)}` : 'not saved: see below'}]\n`);
      else process.stdout.write(`${JSON.stringify(item)}\n`);
    }
  }
  const failure = await stdoutWritten();
  if (failure) unwritten.push({ what: 'stdout', ...(failure.code ? { errno: failure.code } : {}), reason: `stdout could not be written (${failure.message})` });
  return { unwritten, saved: [...saved.values()], printed };
}

export interface CompletedCall {
  tool: string;
  callId: string;
  /** Read-only or idempotent: calling it again to get the result is safe. */
  rerunnable: boolean;
  result: ToolResult;
}

/** The call completed, and its result (or part of it) could not be written: what happened, and what not to do about it. */
export function resultNotWritten(call: CompletedCall, written: Written): TetherError {
  const isError = call.result.isError === true;
  const images = written.unwritten.some((part) => part.what === 'image');
  const kept = written.saved.length > 0 ? ` Written: ${written.saved.join(', ')}.` : '';
  const fix = images ? 'name a file in a folder that exists and can be written (--out), or free some disk space' : 'free some disk space, or write stdout elsewhere';
  const next = call.rerunnable
    ? `"${call.tool}" is safe to call again (read-only or idempotent) once that is fixed: ${fix}.`
    : `Its effects have happened: do not call it again to get the result. For the next call, ${fix}.`;
  return new TetherError(
    'RESULT_NOT_WRITTEN',
    `"${call.tool}" completed in the editor${isError ? ' (its result reports a failure)' : ''}, but its result could not be written: ${written.unwritten.map((part) => part.reason).join('; ')}.${kept} ${next}`,
    {
      callId: call.callId,
      tool: call.tool,
      isError,
      unwritten: written.unwritten,
      saved: written.saved,
      ...(written.printed ? {} : { result: call.result }),
    },
  );
}
