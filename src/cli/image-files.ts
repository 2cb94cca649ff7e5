/**
 * Where `tether call` writes the images of a result: to --out (FILE-2, FILE-3… after the first
 * when there are several, with --out's own extension or none, as given), else to the current
 * folder as TOOL-YYYYMMDD-HHMMSS.EXT, never over an existing file. --out is checked before the
 * call is sent: a call that ran must not lose its image to a path that could never be written.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { TetherError } from '../protocol/index.js';

/** A usage error (exit 2) about --out, found before anything is sent. */
function badOut(out: string, why: string): TetherError {
  return new TetherError('INVALID_PARAMS', `--out ${out}: ${why}. Nothing was sent to the editor.`, { field: '--out', out });
}

/**
 * Refuses an --out no image could be written to: a folder, a file in a folder that does not
 * exist or cannot be written, a file that cannot be replaced. What can still go wrong later (a
 * full disk, the folder removed meanwhile) is reported after the call, as a result not written.
 */
export function checkOut(out: string): void {
  const path = resolve(out);
  const file = statOf(path);
  if (file instanceof Error) throw badOut(out, `it cannot be looked at (${file.message})`);
  if (file?.isDirectory()) throw badOut(out, `it is a folder; name a file in it, e.g. --out ${join(out, 'image.png')}`);
  const folder = dirname(path);
  const parent = statOf(folder);
  if (parent === undefined) throw badOut(out, `its folder ${folder} does not exist; create it first, or name a file in a folder that exists`);
  if (parent instanceof Error) throw badOut(out, `its folder ${folder} cannot be looked at (${parent.message})`);
  if (!parent.isDirectory()) throw badOut(out, `${folder}, where it would go, is not a folder`);
  // A file that is there is replaced, as `curl -o` does; one that is not is created in the folder.
  const target = file ? path : folder;
  try {
    accessSync(target, constants.W_OK);
  } catch (error) {
    throw badOut(out, `${file ? 'the file' : 'its folder'} ${target} cannot be written (${(error as Error).message})`);
  }
}

/** What stat says of a path: undefined when nothing is there. */
function statOf(path: string): ReturnType<typeof statSync> | Error | undefined {
  try {
    return statSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as Error);
  }
}

/** Image `index` (from 0) of a result, with --out: --out as given for the first; FILE-2.EXT, FILE-3.EXT… (or FILE-2, … when --out has no extension) for the next. */
export function outPath(out: string, index: number): string {
  if (index === 0) return resolve(out);
  const given = extname(out);
  return resolve(`${given ? out.slice(0, -given.length) : out}-${index + 1}${given}`);
}

/** Image `index` of `count`, without --out: TOOL-YYYYMMDD-HHMMSS[-N].EXT in the current folder. */
export function defaultPath(toolName: string, at: Date, index: number, count: number, extension: string): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  const numbered = count > 1 ? `-${index + 1}` : '';
  return resolve(`${toolName.replace(/[^\w.-]/g, '_')}-${stamp}${numbered}.${extension}`);
}

/** A file that could not be written: where, and the system's word for why. */
export class ImageNotWritten extends Error {
  constructor(
    readonly path: string,
    readonly failure: NodeJS.ErrnoException,
  ) {
    super(`the image could not be written to ${path} (${failure.message})`);
  }
}

/**
 * Writes the file and returns its path: --out (`replace`) replaces what is there, as `curl -o`
 * does; a name Tether chose never does (NAME-2.png, …). Throws ImageNotWritten.
 */
export function writeImage(path: string, bytes: Buffer, replace: boolean): string {
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? path : `${path.slice(0, -extname(path).length)}-${attempt}${extname(path)}`;
    try {
      writeFileSync(candidate, bytes, { flag: replace ? 'w' : 'wx' });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !replace && attempt < 100) continue;
      throw new ImageNotWritten(candidate, error as NodeJS.ErrnoException);
    }
  }
}
