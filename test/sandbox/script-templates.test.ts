/**
 * create_script's templates: each is C# the sandbox's checker finds nothing wrong with, and the
 * text is the one unity/Tests~/fixtures/script-templates.json holds, which the Unity package's
 * ScriptTemplatesTests hold its own templates to.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/sandbox/csharp/check-source.js';
import { SCRIPT_TEMPLATES, inAssetsEditor, inEditorFolder, isEditorOnly, scriptFromTemplate, type ScriptTemplate } from '../../src/sandbox/csharp/templates.js';

const FIXTURE = new URL('../../unity/Tests~/fixtures/script-templates.json', import.meta.url);

describe('script templates', () => {
  it('are the texts of the fixture both hosts share', () => {
    const { cases } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: Array<{ template: ScriptTemplate; className: string; namespace?: string; text: string }> };
    expect(cases.map((c) => c.template)).toEqual(SCRIPT_TEMPLATES.flatMap((t) => [t, t]));
    for (const c of cases) expect(scriptFromTemplate(c.template, c.className, c.namespace), `${c.template} ${c.namespace ?? ''}`).toBe(c.text);
  });

  it.each(SCRIPT_TEMPLATES)('%s compiles clean, with and without a namespace', (template) => {
    for (const namespace of [undefined, 'Game.Actors']) {
      const { diagnostics, types } = checkSource(scriptFromTemplate(template, 'Enemy', namespace));
      expect(diagnostics).toEqual([]);
      expect(types.map((t) => `${t.container}:${t.name}`)).toEqual([`${namespace ?? ''}:Enemy`]);
    }
  });

  // As the Unity package's ScriptTemplatesTests: an editor-only template outside an Editor folder
  // compiles in the editor and breaks the player build, so create_script refuses it there.
  it('says which template is editor-only, and which paths are in an Editor folder (any case, as Unity matches)', () => {
    expect(SCRIPT_TEMPLATES.filter(isEditorOnly)).toEqual(['EditorWindow']);
    expect(inEditorFolder('Assets/Editor/LevelWindow.cs')).toBe(true);
    expect(inEditorFolder('Assets/Tools/editor/LevelWindow.cs')).toBe(true);
    expect(inEditorFolder('Assets/Scripts/LevelWindow.cs')).toBe(false);
    expect(inEditorFolder('Assets/Scripts/Editor.cs')).toBe(false);
    expect(inEditorFolder('Assets/EditorTools/LevelWindow.cs')).toBe(false);
    expect(inAssetsEditor('Assets/Scripts/LevelWindow.cs')).toBe('Assets/Editor/LevelWindow.cs');
  });
});
