/**
 * The project lock under contention: real processes trying it at the same moment, on a free
 * project and on one whose lock a crashed editor left behind (its pid dead, or reused by
 * another process). Exactly one gets it each time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const LOCK_MODULE = pathToFileURL(join(REPO_ROOT, 'dist', 'sandbox', 'project-lock.js')).href;
const PROJECT_MODULE = pathToFileURL(join(REPO_ROOT, 'dist', 'sandbox', 'project.js')).href;

/**
 * A would-be editor that stays up for every round: each project root read on stdin, it tries
 * to lock at once and answers "got" or "refused" (and keeps what it got). Waiting on stdin
 * costs no CPU, so the suite's timing tests running beside it are not starved.
 */
const CONTENDER = `
import { createInterface } from 'node:readline';
const { lockProject } = await import(${JSON.stringify(LOCK_MODULE)});
const { Project } = await import(${JSON.stringify(PROJECT_MODULE)});
process.stdout.write('ready\\n');
for await (const root of createInterface({ input: process.stdin })) {
  let got = false;
  try { lockProject(new Project(root)); got = true; } catch (error) { if (error.code !== 'PROJECT_IN_USE') throw error; }
  process.stdout.write(got ? 'got\\n' : 'refused\\n');
}
`;

/** Starts the contenders; resolves once each has loaded the lock and waits for a root. */
async function contenders(count: number): Promise<Array<{ child: ChildProcess; next(): Promise<string> }>> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CONTENDER], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(child);
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const next = async (): Promise<string> => String((await lines.next()).value);
      expect(await next()).toBe('ready');
      return { child, next };
    }),
  );
}

describe('the project lock', () => {
  it('goes to exactly one of several editors trying at once, on a free project and on one a dead or reused process holds', async () => {
    const editors = await contenders(6);
    const leftBehind = [
      undefined,
      // By an editor that crashed: a pid no process has.
      { pid: 2 ** 22 + 7 },
      // By one whose pid another process has since: alive, but it started at another time.
      { pid: process.pid, since: '1' },
    ];
    for (let round = 0; round < 30; round++) {
      const root = mkdtempSync(join(tmpdir(), 'tether-lock-'));
      dirs.push(root);
      const stale = leftBehind[round % leftBehind.length];
      if (stale) {
        mkdirSync(join(root, 'Temp'));
        writeFileSync(join(root, 'Temp', 'TetherEditorLock'), JSON.stringify(stale));
      }
      for (const { child } of editors) child.stdin!.write(`${root}\n`);
      const outcomes = await Promise.all(editors.map(({ next }) => next()));
      expect(
        outcomes.filter((o) => o === 'got'),
        `round ${round}: ${outcomes.join(' ')}`,
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'refused')).toHaveLength(5);
    }
  });
});
