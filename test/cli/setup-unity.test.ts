/**
 * `tether setup unity --project PATH` through the real CLI on temporary folders (what it says,
 * its exit code, the manifest's bytes afterwards), and the path and manifest logic behind it
 * under both Windows and POSIX path rules.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path, { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npxCacheWarning, olderThan } from '../../src/cli/commands/setup-unity.js';
import { ManifestError, referencesFolder, unityFileReference, withDependency } from '../../src/cli/commands/setup-unity-manifest.js';
import { REPO_ROOT, TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, type Run, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

const REFERENCE = unityFileReference(join(REPO_ROOT, 'unity'));

/** Unity's own layout: 2-space indentation, sorted dependencies, LF, a trailing newline. */
const UNITY_MANIFEST = `{
  "dependencies": {
    "com.unity.collab-proxy": "2.0.5",
    "com.unity.ide.rider": "3.0.24",
    "com.unity.ugui": "1.0.0"
  },
  "scopedRegistries": [{ "name": "Example", "url": "https://registry.example.com", "scopes": ["com.example"] }]
}
`;

function setup(workspace: Workspace, ...args: string[]): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, 'setup', 'unity', ...args], { env: workspace.env });
}

/** A Unity project folder (ProjectSettings/ProjectVersion.txt), with this manifest when one is given. */
function unityProject(workspace: Workspace, manifest?: string, version = '2022.3.10f1'): { project: string; manifestPath: string } {
  const project = join(dirname(workspace.home), 'MyGame');
  mkdirSync(join(project, 'ProjectSettings'), { recursive: true });
  mkdirSync(join(project, 'Assets'), { recursive: true });
  writeFileSync(join(project, 'ProjectSettings', 'ProjectVersion.txt'), `m_EditorVersion: ${version}\nm_EditorVersionWithRevision: ${version} (abc)\n`);
  const manifestPath = join(project, 'Packages', 'manifest.json');
  if (manifest !== undefined) {
    mkdirSync(dirname(manifestPath), { recursive: true });
    writeFileSync(manifestPath, manifest);
  }
  return { project, manifestPath };
}

describe('tether setup unity', () => {
  it('refuses a folder that is not a Unity project: exit 2, says what a Unity project has, writes nothing', async () => {
    const workspace = createWorkspace();
    // The sample project (the sandbox's) has a Packages/manifest.json of its own: it must stay as it is.
    const manifest = join(workspace.project, 'Packages', 'manifest.json');
    const before = readFileSync(manifest, 'utf8');
    const result = await setup(workspace, '--project', workspace.project);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${workspace.project} is not a Unity project: it has no ProjectSettings/ProjectVersion.txt`);
    expect(result.stderr).toContain('Packages/manifest.json');
    expect(result.stdout).toBe('');
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });

  it('refuses a folder that does not exist, and a missing --project, with exit 2', async () => {
    const workspace = createWorkspace();
    const missing = await setup(workspace, '--project', join(workspace.project, 'nowhere'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no folder at');
    const noProject = await setup(workspace);
    expect(noProject.code).toBe(2);
    expect(noProject.stderr).toContain("required option '--project <dir>' not specified");
  });

  it('refuses a project without Packages/manifest.json (exit 2) and creates none', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace);
    const result = await setup(workspace, '--project', project);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no Packages/manifest.json');
    expect(result.stderr).toContain('Open the project in Unity once');
    expect(existsSync(manifestPath)).toBe(false);
  });

  it('adds the package as a file: dependency on the installed unity/ folder, in sorted place, and says how to connect an agent', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace, UNITY_MANIFEST);
    const result = await setup(workspace, '--project', project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(REFERENCE).toBe(`file:${REPO_ROOT}/unity`);
    expect(readFileSync(manifestPath, 'utf8')).toBe(UNITY_MANIFEST.replace('{\n    "com.unity.collab-proxy"', `{\n    "com.tether.host": "${REFERENCE}",\n    "com.unity.collab-proxy"`));
    expect(result.stdout).toContain(`Unity project: ${project} (Unity 2022.3.10f1)`);
    expect(result.stdout).toContain(`Added to ${manifestPath}:\n  "com.tether.host": "${REFERENCE}"`);
    expect(result.stdout).toContain(`tether mcp --project ${project}`);
    expect(result.stdout).toContain(`tether serve --project ${project}`);
    expect(result.stdout).toContain('Next, in Unity:');
    // The stdio configuration printed is one a client can use as it is.
    const config = /^ {4}(\{"mcpServers".*)$/m.exec(result.stdout)![1]!;
    expect(JSON.parse(config)).toEqual({
      mcpServers: { unity: { command: process.execPath, args: [TETHER_BIN, 'mcp', '--project', project], env: { TETHER_HOME: workspace.home } } },
    });
  });

  it('changes nothing on a second run: same bytes, same modification time', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace, UNITY_MANIFEST);
    expect((await setup(workspace, '--project', project)).code).toBe(0);
    const bytes = readFileSync(manifestPath);
    const { mtimeMs, ino } = statSync(manifestPath);
    const again = await setup(workspace, '--project', project);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`com.tether.host is already in ${manifestPath} (${REFERENCE}): nothing to change.`);
    expect(readFileSync(manifestPath).equals(bytes)).toBe(true);
    expect(statSync(manifestPath)).toMatchObject({ mtimeMs, ino });
  });

  it('keeps CRLF line endings, 4-space indentation, unsorted keys and a missing trailing newline', async () => {
    const workspace = createWorkspace();
    const manifest = ['{', '    "dependencies": {', '        "com.unity.ugui": "1.0.0",', '        "com.unity.2d.sprite": "1.0.0"', '    },', '    "testables": ["com.unity.ugui"]', '}'].join('\r\n');
    const { project, manifestPath } = unityProject(workspace, manifest);
    const result = await setup(workspace, '--project', project);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(manifestPath, 'utf8')).toBe(
      [
        '{',
        '    "dependencies": {',
        '        "com.unity.ugui": "1.0.0",',
        '        "com.unity.2d.sprite": "1.0.0",',
        `        "com.tether.host": "${REFERENCE}"`,
        '    },',
        '    "testables": ["com.unity.ugui"]',
        '}',
      ].join('\r\n'),
    );
  });

  it('--dry-run prints the change and writes nothing', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace, UNITY_MANIFEST);
    const { mtimeMs } = statSync(manifestPath);
    const result = await setup(workspace, '--project', project, '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Dry run: would change ${manifestPath}:\n+ "com.tether.host": "${REFERENCE}"\nNothing was written.`);
    expect(readFileSync(manifestPath, 'utf8')).toBe(UNITY_MANIFEST);
    expect(statSync(manifestPath).mtimeMs).toBe(mtimeMs);
  });

  it('replaces a com.tether.host entry that points elsewhere, with a notice (and shows it in a dry run)', async () => {
    const workspace = createWorkspace();
    const old = UNITY_MANIFEST.replace('"com.unity.collab-proxy"', '"com.tether.host": "file:/old/tether/unity",\n    "com.unity.collab-proxy"');
    const { project, manifestPath } = unityProject(workspace, old);
    const dry = await setup(workspace, '--project', project, '--dry-run');
    expect(dry.stdout).toContain(`- "com.tether.host": "file:/old/tether/unity"\n+ "com.tether.host": "${REFERENCE}"`);
    expect(readFileSync(manifestPath, 'utf8')).toBe(old);
    const result = await setup(workspace, '--project', project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Notice: ${manifestPath} had "com.tether.host": "file:/old/tether/unity"; it now points at this installation of Tether instead.`);
    expect(result.stdout).toContain(`Replaced in ${manifestPath}:\n  "com.tether.host": "${REFERENCE}"`);
    expect(readFileSync(manifestPath, 'utf8')).toBe(old.replace('file:/old/tether/unity', REFERENCE));
  });

  it('takes an existing relative file: entry on the same folder as already there', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace);
    const relative = path.relative(join(project, 'Packages'), join(REPO_ROOT, 'unity'));
    const manifest = `{\n  "dependencies": {\n    "com.tether.host": "file:${relative}/"\n  }\n}\n`;
    mkdirSync(dirname(manifestPath), { recursive: true });
    writeFileSync(manifestPath, manifest);
    const result = await setup(workspace, '--project', project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing to change');
    expect(readFileSync(manifestPath, 'utf8')).toBe(manifest);
  });

  it('leaves a manifest that is not valid JSON alone and says so (exit 1)', async () => {
    const workspace = createWorkspace();
    const { project, manifestPath } = unityProject(workspace, '{ "dependencies": { ');
    const result = await setup(workspace, '--project', project);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not add com.tether.host to ${manifestPath}: it is not valid JSON`);
    expect(readFileSync(manifestPath, 'utf8')).toBe('{ "dependencies": { ');
  });

  it('warns when the project was made with a Unity older than the package supports', async () => {
    const workspace = createWorkspace();
    const { project } = unityProject(workspace, UNITY_MANIFEST, '2020.3.48f1');
    const result = await setup(workspace, '--project', project, '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Warning: the Tether package needs Unity 2021.3 or later; this project was last opened with 2020.3.48f1.');
  });
});

describe('the file: reference', () => {
  it('is the absolute path with forward slashes on Windows', () => {
    expect(unityFileReference('C:\\Users\\Ada\\AppData\\Roaming\\npm\\node_modules\\tether-mcp\\unity', path.win32)).toBe('file:C:/Users/Ada/AppData/Roaming/npm/node_modules/tether-mcp/unity');
    expect(unityFileReference('D:\\tools\\tether\\unity\\', path.win32)).toBe('file:D:/tools/tether/unity');
    expect(unityFileReference('C:/mixed\\slashes/unity', path.win32)).toBe('file:C:/mixed/slashes/unity');
  });

  it('keeps backslashes for a UNC path on Windows (forward slashes would read as a file:// Git URL)', () => {
    const reference = unityFileReference('\\\\server\\share\\tether\\unity', path.win32);
    expect(reference).toBe('file:\\\\server\\share\\tether\\unity');
    expect(reference.startsWith('file://')).toBe(false);
  });

  it('is the absolute path on macOS and Linux', () => {
    expect(unityFileReference('/usr/local/lib/node_modules/tether-mcp/unity', path.posix)).toBe('file:/usr/local/lib/node_modules/tether-mcp/unity');
    expect(unityFileReference('/home/ada/tether/./unity/', path.posix)).toBe('file:/home/ada/tether/unity');
  });

  it('refuses a relative path', () => {
    expect(() => unityFileReference('tether/unity', path.posix)).toThrow(/absolute/);
    expect(() => unityFileReference('tether\\unity', path.win32)).toThrow(/absolute/);
  });

  it('recognizes an existing entry for the same folder, however it is written', () => {
    const win = 'C:\\Users\\Ada\\tether\\unity';
    const winPackages = 'C:\\Projects\\MyGame\\Packages';
    expect(referencesFolder('file:C:/Users/Ada/tether/unity', win, winPackages, path.win32)).toBe(true);
    expect(referencesFolder('file:c:\\users\\ada\\tether\\unity\\', win, winPackages, path.win32)).toBe(true);
    expect(referencesFolder('file:../../../Users/Ada/tether/unity', win, winPackages, path.win32)).toBe(true);
    expect(referencesFolder('file:C:/Users/Ada/other/unity', win, winPackages, path.win32)).toBe(false);
    const posix = '/home/ada/tether/unity';
    expect(referencesFolder('file:/home/ada/tether/unity/', posix, '/home/ada/MyGame/Packages', path.posix)).toBe(true);
    expect(referencesFolder('file:../../tether/unity', posix, '/home/ada/MyGame/Packages', path.posix)).toBe(true);
    expect(referencesFolder('file:/home/ada/Tether/unity', posix, '/home/ada/MyGame/Packages', path.posix)).toBe(false);
    expect(referencesFolder('0.1.0', posix, '/home/ada/MyGame/Packages', path.posix)).toBe(false);
    expect(referencesFolder('file:///home/ada/tether/unity', posix, '/home/ada/MyGame/Packages', path.posix)).toBe(false);
  });
});

describe('editing the manifest text', () => {
  const never = (): boolean => false;

  it('fills an empty dependencies object at the right indentation', () => {
    const change = withDependency('{\n\t"dependencies": {}\n}\n', 'com.tether.host', 'file:/t/unity', never);
    expect(change).toEqual({ kind: 'added', text: '{\n\t"dependencies": {\n\t\t"com.tether.host": "file:/t/unity"\n\t}\n}\n' });
  });

  it('adds a dependencies object when there is none', () => {
    expect(withDependency('{\n  "scopedRegistries": []\n}', 'com.tether.host', 'file:/t/unity', never)).toEqual({
      kind: 'added',
      text: '{\n  "scopedRegistries": [],\n  "dependencies": {\n    "com.tether.host": "file:/t/unity"\n  }\n}',
    });
    expect(withDependency('{}', 'com.tether.host', 'file:/t/unity', never)).toEqual({
      kind: 'added',
      text: '{\n  "dependencies": {\n    "com.tether.host": "file:/t/unity"\n  }\n}',
    });
  });

  it('follows a one-line object, keeps a byte order mark, and escapes a UNC path', () => {
    const change = withDependency('\uFEFF{"dependencies": {"a.b": "1", "z.z": "2"}}', 'com.tether.host', 'file:\\\\server\\share', never);
    expect(change).toEqual({ kind: 'added', text: '\uFEFF{"dependencies": {"a.b": "1", "com.tether.host": "file:\\\\\\\\server\\\\share", "z.z": "2"}}' });
    expect(JSON.parse((change as { text: string }).text.slice(1)).dependencies['com.tether.host']).toBe('file:\\\\server\\share');
  });

  it('reads keys and strings with escapes and nested values correctly', () => {
    const text = '{"x": {"dependencies": {"no": 1}}, "s": "a \\" } {", "dependencies": {"q\\"k": [1, {"a": "}"}], "r": null}}';
    const change = withDependency(text, 'com.tether.host', 'file:/t', never);
    expect(change.kind).toBe('added');
    expect(JSON.parse((change as { text: string }).text)).toEqual({ x: { dependencies: { no: 1 } }, s: 'a " } {', dependencies: { 'q"k': [1, { a: '}' }], r: null, 'com.tether.host': 'file:/t' } });
  });

  it('says unchanged when the entry already means the same, replaces it otherwise', () => {
    const text = '{ "dependencies": { "com.tether.host": "file:/t/unity/" } }';
    expect(withDependency(text, 'com.tether.host', 'file:/t/unity', () => true)).toEqual({ kind: 'unchanged', current: 'file:/t/unity/' });
    expect(withDependency(text, 'com.tether.host', 'file:/t/unity', never)).toEqual({
      kind: 'replaced',
      previous: 'file:/t/unity/',
      text: '{ "dependencies": { "com.tether.host": "file:/t/unity" } }',
    });
  });

  it('refuses what is not a manifest', () => {
    expect(() => withDependency('[1]', 'n', 'v', never)).toThrow(ManifestError);
    expect(() => withDependency('{"dependencies": []}', 'n', 'v', never)).toThrow(/"dependencies" is not an object/);
    expect(() => withDependency('{"dependencies": {', 'n', 'v', never)).toThrow(/not valid JSON/);
  });
});

describe('the Unity version check', () => {
  it('compares year and minor', () => {
    expect(olderThan('2020.3.48f1', '2021.3')).toBe(true);
    expect(olderThan('2021.2.1f1', '2021.3')).toBe(true);
    expect(olderThan('2021.3.0f1', '2021.3')).toBe(false);
    expect(olderThan('6000.0.23f1', '2021.3')).toBe(false);
  });
});

describe('a Tether run through npx', () => {
  it('is warned about: npm may clear its cache, and Unity would lose the package', () => {
    expect(npxCacheWarning('/home/ada/.npm/_npx/4f2a/node_modules/tether-mcp/unity')).toMatch(/npx's cache .*\(npm install -g tether-mcp\)/);
    expect(npxCacheWarning('C:\\Users\\Ada\\AppData\\Local\\npm-cache\\_npx\\4f2a\\node_modules\\tether-mcp\\unity')).toBeDefined();
    expect(npxCacheWarning('/usr/local/lib/node_modules/tether-mcp/unity')).toBeUndefined();
  });
});
