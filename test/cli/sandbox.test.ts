/**
 * `tether sandbox` refuses a project it could not work in before it says it is ready: an
 * editor that starts on a file would fail every call later, with advice about disk space,
 * and a second editor on a project already open would answer for its own copy of the scene.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherProcess, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

afterEach(cleanupProcesses);

describe('tether sandbox', () => {
  it('refuses a project folder that does not exist, or is a file, with exit 2 and what to pass', async () => {
    const workspace = createWorkspace();
    const missing = new TetherProcess(['sandbox', '--project', join(dirname(workspace.home), 'nowhere')], workspace.env);
    expect(await missing.exited).toBe(2);
    expect(missing.stderr).toMatch(/nowhere does not exist\. Create it or pass another --project\./);

    const file = join(dirname(workspace.home), 'a-file');
    writeFileSync(file, 'not a project');
    const notAFolder = new TetherProcess(['sandbox', '--project', file], workspace.env);
    expect(await notAFolder.exited).toBe(2);
    expect(notAFolder.stderr).toContain(`${file} is a file, not a project folder. Pass the folder that holds Assets/ with --project.`);
  });

  it('does not start without a journal it can open, and says so as a failure (exit 1), not as a bug', async () => {
    const workspace = createWorkspace();
    const journal = join(workspace.project, 'Library', 'Tether', 'journal.jsonl');
    mkdirSync(journal, { recursive: true }); // a folder where the journal file goes
    const sandbox = new TetherProcess(['sandbox', '--project', workspace.project], workspace.env);
    expect(await sandbox.exited).toBe(1);
    expect(sandbox.stderr).toContain(`tether: The host could not open its journal ${journal} (EISDIR`);
    expect(sandbox.stderr).toContain("Give the journal a file's path, not a folder's, then start it again. [INTERNAL_ERROR]");
    expect(sandbox.stderr).not.toContain('please report it');
    expect(sandbox.lines).toEqual([]);
  });
});

describe('a project already open in a sandbox', () => {
  it('is refused to a second editor, which says who has it; once the first quits, or dies, it opens', async () => {
    const workspace = createWorkspace();
    const first = await startSandbox(workspace);
    const second = new TetherProcess(['sandbox', '--project', workspace.project], workspace.env);
    expect(await second.exited).toBe(2);
    expect(second.stderr).toContain(`Another editor (process ${first.sandbox.child.pid}) has ${workspace.project} open`);
    // Refused before it said it was ready or wrote a host record: clients see one editor.
    expect(second.lines).toEqual([]);
    expect(readdirSync(join(workspace.home, 'hosts'))).toHaveLength(1);

    await first.sandbox.stop();
    const afterQuit = await startSandbox(workspace);
    await afterQuit.sandbox.kill(); // a crash leaves its lock behind
    await startSandbox(workspace);
  });
});
