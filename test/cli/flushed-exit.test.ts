/**
 * `tether` ends through exitWhenFlushed (src/cli/flushed-exit.ts): on POSIX, a write to a pipe
 * is asynchronous, and process.exit() would drop what is still queued, such as the message
 * that says why a command failed. A mebibyte on each stream is more than a pipe takes at once,
 * so most of it is still queued when the process asks to exit.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runToExit } from '../helpers/processes.js';

const MODULE = pathToFileURL(join(REPO_ROOT, 'dist', 'cli', 'flushed-exit.js')).href;
const MIB = 1 << 20;

describe('exitWhenFlushed', () => {
  it('exits with the code once all that was written to stdout and stderr is out', async () => {
    const script = [
      `const { exitWhenFlushed } = await import(${JSON.stringify(MODULE)});`,
      `process.stdout.write('o'.repeat(${MIB}) + 'OUT');`,
      `process.stderr.write('e'.repeat(${MIB}) + 'why it failed');`,
      'exitWhenFlushed(3);',
    ].join('\n');
    const run = await runToExit(process.execPath, ['--input-type=module', '-e', script], { env: process.env });
    expect(run.code).toBe(3);
    expect(run.stdout).toHaveLength(MIB + 3);
    expect(run.stderr).toHaveLength(MIB + 'why it failed'.length);
    expect(run.stderr.endsWith('why it failed')).toBe(true);
  });
});
