/**
 * The project's C# scripts checked as Unity compiles them: every .cs file under Assets/ (not
 * in a folder Unity hides, one starting with "." or ending with "~"), the scripts in an
 * "Editor" folder into the editor assembly and the others into the game's, and a type declared
 * twice in one assembly reported at its second declaration (CS0101), as the compiler does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isIgnored } from '../assets/asset-files.js';
import { assetFilesEndingWith } from '../serialized/asset-files.js';
import { checkSource } from './check-source.js';
import { inEditorFolder } from './templates.js';
import type { DeclaredType } from './declarations.js';
import { LineMap, toCompilerMessage, type CompilerMessage } from './diagnostics.js';

/** The project-relative paths of the scripts, in the order Unity lists them (by path), none in a folder Unity ignores. */
export function projectScripts(projectRoot: string): string[] {
  return assetFilesEndingWith(projectRoot, '.cs').filter((path) => !path.split('/').some(isIgnored));
}

/** Every compiler message of the project's scripts: each file's, then the duplicates across files. */
export function checkProjectScripts(projectRoot: string): CompilerMessage[] {
  const messages: CompilerMessage[] = [];
  const declared = new Map<string, { file: string; type: DeclaredType }>();
  for (const file of projectScripts(projectRoot)) {
    let text: string;
    try {
      text = readFileSync(join(projectRoot, file), 'utf8');
    } catch {
      continue; // removed while we listed it
    }
    const { diagnostics, types } = checkSource(text);
    messages.push(...diagnostics.map((diagnostic) => toCompilerMessage(file, diagnostic)));
    const lines = new LineMap(text);
    const assembly = inEditorFolder(file) ? 'editor' : 'game';
    for (const type of types) {
      const key = `${assembly}|${type.container}|${type.name}|${type.arity}`;
      const first = declared.get(key);
      if (!first) {
        declared.set(key, { file, type });
        continue;
      }
      if (first.type.partial && type.partial) continue;
      const { line, column } = lines.position(type.offset);
      const where = type.container.startsWith('type ') ? `The type '${type.container.slice(5)}'` : `The namespace '${type.container || '<global namespace>'}'`;
      const code = type.container.startsWith('type ') ? 'CS0102' : 'CS0101';
      messages.push({ file, line, column, severity: 'error', message: `${code}: ${where} already contains a definition for '${type.name}'` });
    }
  }
  return messages;
}
