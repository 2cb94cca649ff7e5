/**
 * "The first ten minutes": `tether sandbox` and `tether start` pointed at a real Unity project
 * ran silently and wrote their own scene, Library/ and Temp/ into it. They refuse (exit 2),
 * say that Unity opens such a project with the Tether package, and touch nothing.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherProcess, cleanupProcesses, createWorkspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

/** A Unity project as Unity Hub leaves it: ProjectSettings/ProjectVersion.txt and an Assets/ folder. */
function unityProject(root: string): string {
  mkdirSync(join(root, 'ProjectSettings'), { recursive: true });
  mkdirSync(join(root, 'Assets'), { recursive: true });
  writeFileSync(join(root, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 2022.3.20f1\n');
  return root;
}

describe('the sandbox editor on a Unity project', () => {
  for (const command of ['sandbox', 'start']) {
    it(`tether ${command} refuses it, names tether setup unity, and writes nothing into it`, async () => {
      const workspace = createWorkspace();
      const project = unityProject(join(workspace.project, '..', 'unity-project'));
      const before = readdirSync(project, { recursive: true }).sort();
      const run = new TetherProcess([command, '--project', project, ...(command === 'start' ? ['--port', '0'] : [])], workspace.env);
      expect(await run.exited, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${project} is a Unity project (it has ProjectSettings/ProjectVersion.txt): Unity opens it, with the Tether package installed`);
      expect(run.stderr).toContain(`tether setup unity --project ${project}`);
      expect(run.lines).toEqual([]);
      expect(readdirSync(project, { recursive: true }).sort()).toEqual(before);
    });
  }
});
