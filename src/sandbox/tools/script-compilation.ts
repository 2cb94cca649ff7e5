/**
 * EditorUtility.scriptCompilationFailed in the sandbox, for the tools Unity refuses while it is
 * true (play_mode's "enter", run_tests: the Unity package's PlayModeTool and RunTestsTool).
 *
 * Unity's flag says the last compilation failed. The sandbox compiles whenever its tools change
 * scripts (create_script, edit_script, compile_scripts, the Assets/Refresh item), as Unity
 * recompiles what its refresh finds, so the scripts on disk are the ones last compiled; they are
 * checked as build_player checks them (checkProjectScripts), so that the three tools agree on
 * whether the project compiles. A file written behind the editor's back counts at once here,
 * where Unity would count it after its next refresh, and would then refuse too.
 */
import { TetherError } from '../../protocol/index.js';
import { formatCompilerMessage } from '../csharp/diagnostics.js';
import { checkProjectScripts } from '../csharp/project-scripts.js';
import type { MainThreadContext } from './tool.js';

/** The project's compile errors as the console shows them ("Assets/A.cs(1,15): error CS1513: } expected"); none when the scripts compile. */
export function scriptCompileErrors(context: MainThreadContext): string[] {
  return checkProjectScripts(context.project.root)
    .filter((message) => message.severity === 'error')
    .map(formatCompilerMessage);
}

/**
 * Refuses the call while the scripts do not compile: TOOL_FAILED with Unity's message and data
 * word for word, then the errors, one a line, as build_player lists them. They follow because
 * read_console, which Unity's message points to, holds them only if a compile ran since the
 * file changed: in the sandbox one may not have.
 */
export function refuseWhileScriptsFail(context: MainThreadContext, refusal: string, data: Record<string, unknown>): void {
  const errors = scriptCompileErrors(context);
  if (errors.length === 0) return;
  throw new TetherError('TOOL_FAILED', `${refusal}\n${errors.join('\n')}`, data);
}
