/**
 * The npm package ships the Unity package (unity/, what `tether setup unity` points Unity at)
 * with the .meta files Unity needs, and nothing of unity/Tests~ (the dotnet projects, their
 * builds and test fixtures), as `npm pack` decides it from package.json's "files".
 */
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runToExit } from '../helpers/processes.js';

interface PackReport {
  files: Array<{ path: string }>;
}

describe('the npm package', () => {
  it('ships unity/ with its .meta files and without unity/Tests~', async () => {
    // --ignore-scripts: the pack must not run `prepare` (a full build) to list files.
    const run = await runToExit('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, env: { ...process.env, npm_config_loglevel: 'error' }, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const files = (JSON.parse(run.stdout) as PackReport[])[0]!.files.map((f) => f.path);
    const unity = files.filter((path) => path.startsWith('unity/'));

    expect(unity).toContain('unity/package.json');
    expect(unity).toContain('unity/Editor/Core/Tools/TetherToolAttribute.cs');
    expect(unity).toContain('unity/Editor/Core/Tools/TetherToolAttribute.cs.meta');
    expect(unity).toContain('unity/Editor/Core/Tether.Core.asmdef');
    expect(unity).toContain('unity/Editor/Unity/Tether.Unity.asmdef');
    // Unity identifies every script and assembly definition by the GUID in its .meta file.
    const withoutMeta = unity.filter((path) => /\.(cs|asmdef)$/.test(path) && !unity.includes(`${path}.meta`));
    expect(withoutMeta).toEqual([]);
    expect(unity.filter((path) => path.includes('Tests~'))).toEqual([]);
    expect(unity.filter((path) => /\/(bin|obj)\//.test(path))).toEqual([]);
  }, 60_000);
});
