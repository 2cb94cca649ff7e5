/**
 * Usage errors, as a script sees them: exit 2 (commander's own errors too), a message that
 * names the option and what it takes, and nothing started.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

describe('tether usage errors', () => {
  it.each([
    [['serve', '--port', '99999'], "option '--port <n>' argument '99999' is invalid. expected a port number from 0 to 65535"],
    [['sandbox', '--project', '.', '--port', '-1'], "option '--port <n>' argument '-1' is invalid"],
    [['serve', '--max-body-bytes', '0'], "option '--max-body-bytes <n>' argument '0' is invalid. expected a positive integer"],
    [['serve', '--interactive-sessions', '0'], "option '--interactive-sessions <n>' argument '0' is invalid. expected a positive integer"],
    [['call', 'get_hierarchy', '--bogus'], "unknown option '--bogus'"],
  ])('tether %j exits 2 and says what is wrong', async (args, message) => {
    const run = new TetherProcess(args, createWorkspace().env);
    expect(await run.exited).toBe(2);
    expect(run.stderr).toContain(`error: ${message}`);
    expect(run.lines).toEqual([]);
  });

  it('exits 2 all the same when its stderr has no reader (`2>&1 | head` gone)', async () => {
    const child = spawn(process.execPath, [TETHER_BIN, 'serve', '--port', '99999'], { env: createWorkspace().env, stdio: ['ignore', 'ignore', 'pipe'] });
    // Closed before the command writes a byte: every write to stderr meets a closed pipe.
    child.stderr.destroy();
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(2);
  });

  it('exits 0 for --help and --version', async () => {
    const env = createWorkspace().env;
    for (const args of [['--version'], ['serve', '--help']]) expect(await new TetherProcess(args, env).exited).toBe(0);
  });
});
