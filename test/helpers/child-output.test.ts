/**
 * runToExit and ChildWithLines are what the CLI tests read a command's output through: once
 * they say the command ended, they must hold all of its output. Node emits a child's 'exit'
 * when the process ends, which can be before its pipes are drained; that is most likely how a
 * refused `tether call` once came back with an empty stderr under CI load.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChildWithLines, cleanupProcesses, runToExit } from './processes.js';

// The child leaves a grandchild holding its stderr, which writes a line once the child has
// gone (its stdin, a pipe from the child, ends then) and a moment after, so that the line
// arrives well after the child's exit: only a Run that waits for the pipes to close has it.
const CHILD = `
const { spawn } = require('node:child_process');
const late = spawn(process.execPath, ['-e', "process.stdin.resume(); process.stdin.on('end', () => setTimeout(() => process.stderr.write('[LATE]\\\\n'), 100))"], { stdio: ['pipe', 'ignore', 'inherit'] });
late.stdin.unref();
late.unref();
process.stdout.write('[OUT]\\n');
process.stderr.write('[EARLY]\\n');
process.exitCode = 1;
`;

afterEach(cleanupProcesses);

describe('runToExit', () => {
  it("resolves with everything written to the child's pipes, not only what was read by its exit", async () => {
    const run = await runToExit(process.execPath, ['-e', CHILD], { env: process.env });
    expect(run).toEqual({ code: 1, stdout: '[OUT]\n', stderr: '[EARLY]\n[LATE]\n' });
  });
});

describe('ChildWithLines', () => {
  it('has every line of stdout and stderr once it says the child exited', async () => {
    const child = new ChildWithLines(process.execPath, ['-e', CHILD], process.env);
    expect(await child.exited).toBe(1);
    expect({ lines: child.lines, stderrLines: child.stderrLines, stderr: child.stderr }).toEqual({ lines: ['[OUT]'], stderrLines: ['[EARLY]', '[LATE]'], stderr: '[EARLY]\n[LATE]\n' });
  });
});
