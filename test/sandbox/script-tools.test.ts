/**
 * create_script, edit_script and compile_scripts' messages through `tether call` and an MCP
 * client: templates and whole files, checked edits, compile errors with their places (a failed
 * call whose data carries them, the file kept), every kind of bad input, and that files are no
 * undo steps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/sandbox/tools/script-files.js';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk, callTool } from '../helpers/tool-call.js';
import { sharedSandbox } from '../helpers/tool-session.js';

interface Compile {
  succeeded: boolean;
  errors: string[];
  messages: Array<{ file: string; line: number; column: number; severity: string; message: string }>;
  domainReload: boolean;
}

interface Written {
  path: string;
  sha256: string;
  compile: Compile;
  previousSha256?: string;
  editedLine?: number;
}

const { workspace } = sharedSandbox({ mcp: false });
const file = (path: string): string => readFileSync(join(workspace.project, path), 'utf8');

describe('script tools through tether call', () => {
  it('creates a script from a template, compiles it and reloads; files are no undo steps', async () => {
    const created = await callOk<Written>(workspace, 'create_script', { path: 'Assets/Scripts/Player.cs' });
    expect(created).toMatchObject({ path: 'Assets/Scripts/Player.cs', compile: { succeeded: true, errors: [], messages: [], domainReload: true } });
    expect(file('Assets/Scripts/Player.cs')).toContain('public class Player : MonoBehaviour');
    expect(created.sha256).toBe(sha256(file('Assets/Scripts/Player.cs')));
    expect(await callOk(workspace, 'undo')).toMatchObject({ performed: 0 });
    expect(existsSync(join(workspace.project, 'Assets/Scripts/Player.cs'))).toBe(true);
  });

  it('fails a compile with every error where it is, keeps the file, and compiles once an edit fixes it', async () => {
    const broken = 'public class Mover\n{\n    int speed = 5\n    void Update()\n    {\n        Move(\n    }\n}\n';
    const failed = await callFails(workspace, 'create_script', { path: 'Assets/Scripts/Mover.cs', contents: broken }, 'TOOL_FAILED');
    expect(failed).toContain('Assets/Scripts/Mover.cs was written (it stays), but the scripts do not compile.');
    expect(failed).toContain('Assets/Scripts/Mover.cs(3,18): error CS1002: ; expected');
    expect(failed).toContain('Assets/Scripts/Mover.cs(7,5): error CS1026: ) expected');
    expect(file('Assets/Scripts/Mover.cs')).toBe(broken);

    // compile_scripts says the same, as a failed call.
    const compiled = await callTool(workspace, 'compile_scripts');
    expect(compiled.code).toBe(1);
    expect(compiled.stderr + compiled.stdout).toContain('Assets/Scripts/Mover.cs(3,18): error CS1002');

    const whole = await callOk<Written>(workspace, 'edit_script', { path: 'Assets/Scripts/Mover.cs', contents: '#warning tune the speed\npublic class Mover { }\n', expectedSha256: sha256(broken) });
    expect(whole).toMatchObject({ previousSha256: sha256(broken), compile: { succeeded: true, errors: [], domainReload: true } });
    expect(whole.compile.messages).toEqual([{ file: 'Assets/Scripts/Mover.cs', line: 1, column: 1, severity: 'warning', message: "CS1030: #warning: 'tune the speed'" }]);
    expect(whole.sha256).toBe(sha256(file('Assets/Scripts/Mover.cs')));
  });

  it('reports a type declared twice at its second declaration, and compiles once a checked edit renames one', async () => {
    // Files compile in the order of their paths: Other/Player.cs comes first, Player.cs holds the second Player.
    const failed = await callFails(workspace, 'create_script', { path: 'Assets/Scripts/Other/Player.cs', template: 'class' }, 'TOOL_FAILED');
    expect(failed).toContain("Assets/Scripts/Player.cs(3,14): error CS0101: The namespace '<global namespace>' already contains a definition for 'Player'");
    const renamed = await callOk<Written>(workspace, 'edit_script', { path: 'Assets/Scripts/Other/Player.cs', oldText: 'class Player', newText: 'class OtherPlayer' });
    expect(renamed).toMatchObject({ editedLine: 1, compile: { succeeded: true } });
  });

  it('refuses bad input, changing nothing (the full set is checked through MCP below)', async () => {
    const path = 'Assets/Scripts/Player.cs';
    const before = file(path);
    expect(await callFails(workspace, 'create_script', { path }, 'INVALID_ARGUMENTS')).toContain('already exists');
    expect(await callFails(workspace, 'create_script', { path: '../Outside.cs' }, 'PATH_OUTSIDE_PROJECT')).toContain('outside the project');
    expect(await callFails(workspace, 'edit_script', { path: 'Assets/Scripts/Playr.cs', contents: '' }, 'NOT_FOUND')).toContain('Did you mean "Assets/Scripts/Player.cs"');
    expect(await callFails(workspace, 'edit_script', { path, oldText: '    {\n    }', newText: '' }, 'INVALID_ARGUMENTS')).toContain('occurs 2 times');
    expect(file(path)).toBe(before);
    // An editor window outside an Editor folder would break the player build: refused, with where to put it.
    const window = await callFails(workspace, 'create_script', { path: 'Assets/Scripts/LevelWindow.cs', template: 'EditorWindow' }, 'INVALID_ARGUMENTS');
    expect(window).toContain('"Assets/Editor/LevelWindow.cs"');
    expect(existsSync(join(workspace.project, 'Assets/Scripts/LevelWindow.cs'))).toBe(false);
  });
});

describe('script tools through an MCP client', () => {
  it('answers with structured content, and a failed compile as isError whose data carries the messages', async () => {
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    for (const name of ['create_script', 'edit_script', 'compile_scripts']) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    expect(tools.find((t) => t.name === 'edit_script')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });

    const window = await client.callTool({ name: 'create_script', arguments: { path: 'Assets/Editor/LevelWindow.cs', template: 'EditorWindow', namespace: 'Game.Tools' } });
    expect(window.isError, textOf(window)).toBeFalsy();
    expect(file('Assets/Editor/LevelWindow.cs')).toContain('namespace Game.Tools\n{\n    public class LevelWindow : EditorWindow');

    const created = await client.callTool({ name: 'create_script', arguments: { path: 'Assets/Data/Stats.cs', template: 'ScriptableObject' } });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ path: 'Assets/Data/Stats.cs', compile: { succeeded: true } });

    const failed = await client.callTool({ name: 'edit_script', arguments: { path: 'Assets/Data/Stats.cs', oldText: '{\n}', newText: '{\n    int hp = "\n}' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('Assets/Data/Stats.cs(6,14): error CS1010: Newline in constant');
    const data = failed._meta?.['tether/error'] as { code: string; data: { written: boolean; messages: Compile['messages'] } } | undefined;
    expect(data?.code).toBe('TOOL_FAILED');
    expect(data?.data.written).toBe(true);
    expect(data?.data.messages[0]).toEqual({ file: 'Assets/Data/Stats.cs', line: 6, column: 14, severity: 'error', message: 'CS1010: Newline in constant' });

    const refused = async (name: string, args: Record<string, unknown>, code: string): Promise<string> => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect((result._meta?.['tether/error'] as { code?: string } | undefined)?.code, textOf(result)).toBe(code);
      return textOf(result);
    };
    const path = 'Assets/Scripts/Player.cs';
    const before = file(path);
    expect(await refused('create_script', { path: 'Scripts/A.cs' }, 'INVALID_ARGUMENTS')).toContain('not under Assets/');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.txt' }, 'INVALID_ARGUMENTS')).toContain('not a C# file');
    expect(await refused('create_script', { path: '/etc/A.cs' }, 'PATH_OUTSIDE_PROJECT')).toContain('outside the project');
    expect(await refused('create_script', { path: 'Assets/Scripts/1st.cs' }, 'INVALID_ARGUMENTS')).toContain('"1st" is not a C# identifier');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.cs', className: 'class', template: 'class' }, 'INVALID_ARGUMENTS')).toContain('"class" is not a C# identifier');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.cs', namespace: 'Game..AI' }, 'INVALID_ARGUMENTS')).toContain('namespace');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.cs', className: 'B' }, 'INVALID_ARGUMENTS')).toContain('name the file "B.cs"');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.cs', contents: '', template: 'class' }, 'INVALID_ARGUMENTS')).toContain('template');
    expect(await refused('create_script', { path: 'Assets/Scripts/A.cs', template: 'Behaviour' }, 'INVALID_ARGUMENTS')).toContain('template');
    expect(await refused('edit_script', { path }, 'INVALID_ARGUMENTS')).toContain('neither contents nor oldText');
    expect(await refused('edit_script', { path, contents: 'x', oldText: 'y', newText: 'z' }, 'INVALID_ARGUMENTS')).toContain('both');
    expect(await refused('edit_script', { path, oldText: 'Start' }, 'INVALID_ARGUMENTS')).toContain('newText');
    expect(await refused('edit_script', { path, oldText: '', newText: 'x' }, 'INVALID_ARGUMENTS')).toContain('empty');
    expect(await refused('edit_script', { path, oldText: 'Nowhere', newText: '' }, 'INVALID_ARGUMENTS')).toContain('occurs 0 times');
    expect(await refused('edit_script', { path, contents: '', expectedSha256: '0'.repeat(64) }, 'INVALID_ARGUMENTS')).toContain(`its SHA-256 is now ${sha256(before)}`);
    expect(await refused('edit_script', { path, contents: '', expectedSha256: 'abc' }, 'INVALID_ARGUMENTS')).toContain('expectedSha256');
    expect(await refused('edit_script', { path: 'Assets/Scripts/Gone.cs', contents: '' }, 'NOT_FOUND')).toContain('create_script makes a new one');
    writeFileSync(join(workspace.project, 'Assets/Scripts/Crlf.cs'), 'public class Crlf\r\n{\r\n}\r\n');
    expect(await refused('edit_script', { path: 'Assets/Scripts/Crlf.cs', oldText: 'Crlf\n{', newText: 'Crlf {' }, 'INVALID_ARGUMENTS')).toContain('"\\r\\n"');
    expect(file(path)).toBe(before);
    expect(existsSync(join(workspace.project, 'Assets/Scripts/A.cs'))).toBe(false);

    const compiled = await client.callTool({ name: 'compile_scripts', arguments: {} });
    expect(compiled.isError).toBe(true);
    expect((compiled.structuredContent as Compile).messages.map((m) => `${m.line},${m.column}`)).toContain('6,14');
    await client.callTool({ name: 'edit_script', arguments: { path: 'Assets/Data/Stats.cs', oldText: '    int hp = "\n', newText: '' } });
    const clean = await client.callTool({ name: 'compile_scripts', arguments: {} });
    expect(clean.isError, textOf(clean)).toBeFalsy();
  });
});
