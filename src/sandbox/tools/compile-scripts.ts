/**
 * The sandbox's script compilation, shared by compile_scripts, the script tools and the
 * "Assets/Refresh" menu item: the project's C# files (checked by src/sandbox/csharp/) and its
 * custom tools (Assets/Editor/Tools/*.tool.json) compile together; with no error, the domain
 * reloads after the call's result is journaled, as Unity reloads after a successful compile.
 */
import { z } from 'zod';
import type { ToolResult } from '../../protocol/index.js';
import { formatCompilerMessage, type CompilerMessage } from '../csharp/diagnostics.js';
import { checkProjectScripts } from '../csharp/project-scripts.js';
import { compileCustomTools } from './custom-tools.js';
import type { MainThreadContext } from './tool.js';

/** A compiler message as the tools answer it (Unity's CompilerMessage). */
export const compilerMessage = z.object({
  file: z.string().describe('Project-relative, e.g. "Assets/Scripts/Player.cs".'),
  line: z.number().int().describe('From 1.'),
  column: z.number().int().describe('From 1.'),
  severity: z.enum(['error', 'warning', 'info']).describe('Unity also reports info messages.'),
  message: z.string().describe('The code and the text, e.g. "CS1002: ; expected".'),
});

/** What a compile did: compile_scripts' result, and the script tools' "compile". */
export const compileOutcome = z.object({
  succeeded: z.boolean().describe('No error: the editor loads the new scripts (it reloads its code domain).'),
  errors: z.array(z.string()).describe('Each error as the console shows it, e.g. "Assets/Player.cs(12,5): error CS1002: ; expected".'),
  messages: z.array(compilerMessage).describe('Every compiler message (errors and warnings) with its file, line and column.'),
  domainReload: z.boolean().describe('The editor reloads its code domain after this answer (the connection drops for a few seconds).'),
  customTools: z.array(z.string()).optional().describe('The project\'s own tools the compile found.'),
  assembliesCompiled: z.number().int().optional().describe('How many assemblies Unity compiled.'),
  note: z.string().optional(),
});

export type CompileOutcome = z.infer<typeof compileOutcome> & Record<string, unknown>;

/** Compiles the project's scripts, then asks for a domain reload when nothing failed (as Unity does). */
export function compileScripts(context: MainThreadContext): CompileOutcome {
  context.announce('compiling', context.settings.compileMs);
  context.progress({ message: 'Compiling scripts' });
  context.block(context.settings.compileMs);
  const scripts = checkProjectScripts(context.project.root);
  // Scripts that fail to compile leave the old code loaded: the project's tools are not compiled anew either.
  const scriptsFailed = scripts.some((m) => m.severity === 'error');
  const tools = scriptsFailed ? undefined : compileCustomTools(context.project, context.builtInNames);
  const toolErrors = tools?.errors ?? [];
  // A tool file's problem has no line: it is placed at the file's start.
  const toolMessages: CompilerMessage[] = toolErrors.map((text) => {
    const [file = '', ...rest] = text.split(': ');
    return { file, line: 1, column: 1, severity: 'error', message: rest.join(': ') };
  });
  const errors = [...scripts.filter((m) => m.severity === 'error').map(formatCompilerMessage), ...toolErrors];
  for (const message of scripts) context.console.write(message.severity, formatCompilerMessage(message));
  for (const error of toolErrors) context.console.write('error', error);
  context.console.write('log', `Compilation finished: ${tools?.tools.length ?? 0} custom tool(s), ${errors.length} error(s).`);
  const succeeded = errors.length === 0;
  if (succeeded) context.requestReload('compile');
  return {
    succeeded,
    ...(tools ? { customTools: tools.tools.map((t) => t.name) } : {}),
    errors,
    messages: [...scripts, ...toolMessages],
    domainReload: succeeded,
  };
}

/**
 * The answer of a call that compiled. A compile that failed is a failed call, as in Unity
 * (the old code stays loaded): the agent must see it as one, and `tether call` exit 1, not
 * read `"succeeded": false` inside a success.
 */
export function compiledAnswer<T extends Record<string, unknown>>(answer: T, compile: CompileOutcome): T | ToolResult {
  if (compile.succeeded) return answer;
  return { content: [{ type: 'text', text: compileFailure(compile) }], structuredContent: answer, isError: true };
}

/** What a failed compile says: how many errors, that the old scripts stay, and each error. */
export function compileFailure(compile: CompileOutcome, before = ''): string {
  return `${before}Compilation failed with ${compile.errors.length} error(s); the editor kept its previous scripts. Fix these, then compile again:\n${compile.errors.join('\n')}`;
}
