/**
 * create_script and edit_script: write a C# file (whole, from a template, or by a checked text
 * edit), then compile as compile_scripts does and answer with every compiler message. A
 * compile that fails is a failed call whose data carries the messages; the file stays written
 * (as in Unity, where the editor keeps its previous scripts until the errors are fixed). A
 * compile that succeeds reloads the domain: the answer arrives after the reload. Files are not
 * Undo steps, in Unity either.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { isReservedWord } from '../csharp/lexer.js';
import { projectScripts } from '../csharp/project-scripts.js';
import { SCRIPT_TEMPLATES, inAssetsEditor, inEditorFolder, isEditorOnly, scriptFromTemplate } from '../csharp/templates.js';
import { compileFailure, compileOutcome, compileScripts } from './compile-scripts.js';
import { replaceOnce, scriptClassName, scriptPath, sha256 } from './script-files.js';
import { didYouMean, invalidArgument } from './tool-errors.js';
import { defineTool, type MainThreadContext } from './tool.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const written = {
  path: z.string().describe('Project-relative, e.g. "Assets/Scripts/Player.cs".'),
  sha256: z.string().describe('The SHA-256 of the file as written: give it to edit_script as expectedSha256 to refuse an edit if the file changed since.'),
  compile: compileOutcome,
};

/** A name a C# type or namespace part may have. */
function checkIdentifier(tool: string, field: string, name: string, hint: string): void {
  if (!IDENTIFIER.test(name) || isReservedWord(name)) throw invalidArgument(tool, field, `"${name}" is not a C# identifier`, hint);
}

/** Writes the file, compiles, and answers; a failed compile throws with the messages (the file stays). */
function writeAndCompile(context: MainThreadContext, tool: string, path: string, text: string): { path: string; sha256: string; compile: z.infer<typeof compileOutcome> } {
  const full = context.project.resolveInside(path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  const hash = sha256(text);
  context.console.write('log', `${tool}: wrote ${path}`);
  const compile = compileScripts(context);
  if (!compile.succeeded) {
    throw new TetherError('TOOL_FAILED', compileFailure(compile, `${path} was written (it stays), but the scripts do not compile. `), {
      tool,
      path,
      written: true,
      sha256: hash,
      ...compile,
    });
  }
  return { path, sha256: hash, compile };
}

export const scriptTools = [
  defineTool({
    name: 'create_script',
    title: 'Create script',
    description:
      'Creates a C# script under Assets/ from its whole text or from a template (MonoBehaviour, ScriptableObject, EditorWindow, plain class), then compiles the project\'s scripts. Answers with every compiler message; with compile errors the call fails (the file stays written: fix it with edit_script). On success the editor reloads its code domain and the answer arrives after the reload. Never overwrites a file.',
    input: z.object({
      path: z.string().describe('Where to create it, e.g. "Assets/Scripts/Player.cs". Must not exist yet.'),
      contents: z.string().optional().describe('The whole file. Omit it to start from a template.'),
      template: z.enum(SCRIPT_TEMPLATES).optional().describe('What to start from when contents is omitted (default MonoBehaviour).'),
      className: z.string().optional().describe('The class a template declares. Default: the file name; a MonoBehaviour or ScriptableObject must match it.'),
      namespace: z.string().optional().describe('A namespace to put the template\'s class in, e.g. "Game.Player".'),
    }),
    output: z.object(written),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    execution: { longRunning: true },
    run: ({ path: input, contents, template, className, namespace }, context) => {
      const tool = 'create_script';
      const path = scriptPath(context.project, input, tool);
      if (existsSync(context.project.resolveInside(path))) {
        throw invalidArgument(tool, 'path', `${path} already exists`, 'Change it with edit_script, or choose another path; create_script never overwrites a file.');
      }
      if (contents !== undefined) {
        const extra = template !== undefined ? 'template' : className !== undefined ? 'className' : namespace !== undefined ? 'namespace' : undefined;
        if (extra) throw invalidArgument(tool, extra, 'it applies to a template, and contents was given', `Give either the whole file (contents) or a template with its ${extra}.`);
        return writeAndCompile(context, tool, path, contents);
      }
      const chosen = template ?? 'MonoBehaviour';
      const name = className ?? scriptClassName(path);
      checkIdentifier(tool, className === undefined ? 'path' : 'className', name, 'Name the class with letters, digits and "_", not starting with a digit (give className, or rename the file).');
      for (const part of namespace?.split('.') ?? []) checkIdentifier(tool, 'namespace', part, 'Give names joined by ".", e.g. "Game.Player".');
      if ((chosen === 'MonoBehaviour' || chosen === 'ScriptableObject') && name !== scriptClassName(path)) {
        const problem = `a ${chosen} named "${name}" in ${path}`;
        throw invalidArgument(tool, 'className', problem, `Unity finds a ${chosen} by its file's name: name the file "${name}.cs", or leave className out.`);
      }
      if (isEditorOnly(chosen) && !inEditorFolder(path)) {
        // Unity would compile it in the editor, and build_player would then fail (UnityEditor missing), far from the cause.
        const suggestion = inAssetsEditor(path);
        throw invalidArgument(
          tool,
          'path',
          `the ${chosen} template uses UnityEditor, and ${path} is not in an Editor folder, so a player build would fail to compile it`,
          `Put it in a folder named Editor, e.g. "${suggestion}". (Only folder names are checked, not assembly definitions: for an editor-only .asmdef's folder, give the whole text as contents.)`,
          { path, suggestion },
        );
      }
      return writeAndCompile(context, tool, path, scriptFromTemplate(chosen, name, namespace));
    },
  }),

  defineTool({
    name: 'edit_script',
    title: 'Edit script',
    description:
      'Changes a C# script under Assets/: replaces its whole text (contents), or replaces oldText, which must occur exactly once, with newText. Refuses a stale edit when expectedSha256 (from create_script, edit_script or a read) differs from the file\'s. Then compiles the project\'s scripts and answers with every compiler message; with compile errors the call fails (the edit stays: fix it with another edit). On success the editor reloads its code domain and the answer arrives after the reload.',
    input: z.object({
      path: z.string().describe('The script, e.g. "Assets/Scripts/Player.cs".'),
      contents: z.string().optional().describe('The whole new file. Give this, or oldText and newText.'),
      oldText: z.string().optional().describe('Text to replace, exactly as it is in the file; it must occur exactly once.'),
      newText: z.string().optional().describe('What replaces oldText (may be empty).'),
      expectedSha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hexadecimal').optional().describe('Refuse the edit unless the file\'s SHA-256 is this (what an earlier answer gave).'),
    }),
    output: z.object({
      ...written,
      previousSha256: z.string().describe('The SHA-256 of the file before the edit.'),
      editedLine: z.number().int().optional().describe('Where oldText was (from 1).'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    execution: { longRunning: true },
    run: ({ path: input, contents, oldText, newText, expectedSha256 }, context) => {
      const tool = 'edit_script';
      const path = scriptPath(context.project, input, tool);
      const full = context.project.resolveInside(path);
      if (!existsSync(full)) {
        const { suggestions, hint } = didYouMean(path, projectScripts(context.project.root));
        throw new TetherError('NOT_FOUND', `${tool}: no script at "${path}".${hint} create_script makes a new one.`, { tool, path, suggestions });
      }
      const current = readFileSync(full, 'utf8');
      const previousSha256 = sha256(current);
      if (expectedSha256 !== undefined && expectedSha256 !== previousSha256) {
        throw invalidArgument(tool, 'expectedSha256', `${path} changed since (its SHA-256 is now ${previousSha256})`, 'Read the file again and make your edit against what it holds now.', { expected: expectedSha256, actual: previousSha256 });
      }
      if ((contents === undefined) === (oldText === undefined)) {
        throw invalidArgument(tool, contents === undefined ? 'contents' : 'oldText', contents === undefined ? 'neither contents nor oldText was given' : 'both contents and oldText were given', 'Give the whole new file (contents), or oldText and newText.');
      }
      if (oldText !== undefined && newText === undefined) throw invalidArgument(tool, 'newText', 'it is missing', 'Give the text that replaces oldText ("" to delete it).');
      const edit = contents === undefined ? replaceOnce(current, oldText!, newText!, path, tool) : undefined;
      const result = writeAndCompile(context, tool, path, edit?.text ?? contents!);
      return { ...result, previousSha256, ...(edit ? { editedLine: edit.line } : {}) };
    },
  }),
];
