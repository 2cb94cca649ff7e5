/**
 * `tether sandbox` refuses a project it could not work in before it says it is ready: an
 * editor that starts on a file would fail every call later, with advice about disk space.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherProcess, cleanupProcesses, createWorkspace } from '../helpers/processes.js';

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
});
