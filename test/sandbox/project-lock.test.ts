/**
 * The project lock under contention: real processes starting at the same moment, on a free
 * project and on one whose lock a crashed editor left behind (its pid dead, or reused by
 * another process). Exactly one gets it each time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** One would-be editor: waits for the go file, tries the lock, says what it got, holds it a moment. */
const CONTENDER = `
import { existsSync } from 'node:fs';
const [root, go] = process.argv.slice(1);
const { lockProject } = await import(${JSON.stringify(LOCK_MODULE)});
const { Project } = await import(${JSON.stringify(PROJECT_MODULE)});
process.stdout.write('ready\\n');
while (!existsSync(go)) await new Promise((resolve) => setImmediate(resolve));
let got = false;
try { lockProject(new Project(root)); got = true; } catch (error) { if (error.code !== 'PROJECT_IN_USE') throw error; }
process.stdout.write(got ? 'got' : 'refused');
setTimeout(() => process.exit(0), 100);
`;

async function contend(root: string, contenders: number): Promise<string[]> {
  const go = join(root, 'go');
  const started = Array.from({ length: contenders }, () => spawn(process.execPath, ['--input-type=module', '-e', CONTENDER, '--', root, go], { stdio: ['ignore', 'pipe', 'inherit'] }));
  children.push(...started);
  let ready = 0;
  let allReady!: () => void;
  const everyoneReady = new Promise<void>((resolve) => (allReady = resolve));
  const outcomes = started.map(
    (child) =>
      new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out === 'ready\n' && ++ready === contenders) allReady();
        });
        child.once('exit', () => resolve(out.replace('ready\n', '')));
      }),
  );
  // Every contender has loaded the module and polls for the go file: they start together.
  await everyoneReady;
  writeFileSync(go, '');
  return Promise.all(outcomes);
}

describe('the project lock', () => {
  it('goes to exactly one of several editors starting at once, on a free project and on one a dead or reused process holds', async () => {
    const leftBehind = [
      undefined,
      // By an editor that crashed: a pid no process has.
      { pid: 2 ** 22 + 7 },
      // By one whose pid another process has since: alive, but it started at another time.
      { pid: process.pid, since: '1' },
    ];
    for (let round = 0; round < 9; round++) {
      const root = mkdtempSync(join(tmpdir(), 'tether-lock-'));
      dirs.push(root);
      const stale = leftBehind[round % leftBehind.length];
      if (stale) {
        mkdirSync(join(root, 'Temp'));
        writeFileSync(join(root, 'Temp', 'TetherEditorLock'), JSON.stringify(stale));
      }
      const outcomes = await contend(root, 6);
      expect(outcomes.filter((o) => o === 'got'), `round ${round}: ${outcomes.join(' ')}`).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'refused')).toHaveLength(5);
    }
  }, 60_000);
});
