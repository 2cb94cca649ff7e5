/**
 * play_mode: enters or exits play mode (entering reloads the code domain, as in Unity, unless
 * the project's Enter Play Mode Options turn that off: enter-play-mode-options.ts), and
 * while playing pauses, resumes or steps one frame (EditorApplication.isPaused and Step).
 * The sandbox's game runs at 60 frames a second while playing and not paused; its frame
 * count and pause live in Library/Tether/play-pause.json, so they survive the domain reload
 * entering causes, as Unity's do. Entering is refused while the scripts do not compile, as the
 * Unity package refuses it (EditorUtility.scriptCompilationFailed; see script-compilation.ts).
 *
 * Also what play mode means for the scene tools (the Unity package's PlayModeRules and
 * PlayModeEdits): the scene-file tools are refused while playing, and an edit of a scene says
 * that it lasts only until play mode exits. The sandbox keeps such an edit, unsaved, when play
 * mode exits (its play mode is a flag); Unity puts the scenes back as they were.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { reloadsOnEnteringPlayMode } from '../enter-play-mode-options.js';
import type { Project } from '../project.js';
import { refuseWhileScriptsFail } from './script-compilation.js';
import { defineTool, type MainThreadContext } from './tool.js';

const FRAME_MS = 1000 / 60;

/** The game's clock: `frame` counted at `since` (epoch ms), advancing from then unless paused. */
interface PlayClock {
  paused: boolean;
  frame: number;
  since: number;
}

function clockPath(project: Project): string {
  return join(project.library, 'Tether', 'play-pause.json');
}

function readClock(project: Project): PlayClock {
  return project.readJson<PlayClock>(clockPath(project), { paused: false, frame: 0, since: Date.now() });
}

/** The frame the game is at now (Time.frameCount). */
function frameNow(clock: PlayClock): number {
  return clock.paused ? clock.frame : clock.frame + Math.floor((Date.now() - clock.since) / FRAME_MS);
}

/** Whether play mode is paused, as get_editor_state reports it (false outside play mode). */
export function isPaused(context: MainThreadContext): boolean {
  return context.playing && readClock(context.project).paused;
}

/** `reloads`: whether entering reloads the domain, when the caller has read the project's setting already. */
export function setPlayMode(context: MainThreadContext, action: 'enter' | 'exit', reloads?: boolean): Record<string, unknown> {
  if (action === 'enter') {
    if (context.playing) return { playing: true, changed: false };
    context.playing = true;
    context.project.writeJson(clockPath(context.project), { paused: false, frame: 0, since: Date.now() } satisfies PlayClock);
    context.console.write('log', 'Entering play mode');
    if (!(reloads ?? reloadsOnEnteringPlayMode(context.project))) return { playing: true, changed: true, domainReload: false };
    context.requestReload('play');
    return { playing: true, changed: true, domainReload: true, note: ENTERING_NOTE };
  }
  if (!context.playing) return { playing: false, changed: false };
  context.playing = false;
  context.project.writeJson(clockPath(context.project), { paused: false, frame: 0, since: Date.now() } satisfies PlayClock);
  context.console.write('log', 'Exited play mode');
  return { playing: false, changed: true };
}

/**
 * What entering says when it reloads the domain (PlayModeRules.EnteringNote): Unity's answer comes
 * as it leaves edit mode, before the reload it cannot outlive, so before play mode is seen entered.
 */
const ENTERING_NOTE =
  "Unity answered as it left edit mode, before the domain reload that entering play mode makes: a compile error found on the way, or a project's script, can still keep it in edit mode. get_editor_state says playing once it plays.";

/** What an edit of a scene made in play mode says in its result (PlayModeRules.EditLostNote). */
export const EDIT_LOST_NOTE =
  'The editor is in play mode: this change lasts only until play mode exits, when Unity puts the scene back as it was. To keep it, exit play mode (play_mode with action "exit") and make it again.';

/**
 * Refuses a scene-file tool in play mode, as Unity's EditorSceneManager opens, creates and
 * saves scenes in edit mode only: TOOL_FAILED (data: tool), as build_player refuses play mode
 * in the Unity package (PlayModeRules.RequireEditMode).
 */
export function requireEditMode(context: MainThreadContext, tool: string, verb: 'open' | 'create' | 'save'): void {
  if (!context.playing) return;
  throw new TetherError('TOOL_FAILED', `Unity cannot ${verb} a scene in play mode. Exit play mode (play_mode with action "exit"), then ${verb} it.`, { tool });
}

/**
 * What every tool that edits a scene's GameObjects returns its result through (PlayModeEdits.Noted):
 * in play mode, outside prefab mode (the open prefab is an asset, which leaving play mode does not
 * restore), the result gets EDIT_LOST_NOTE in its note, after the note it already has.
 * `inScene` is false for an edit of an asset.
 */
export function noteEdit<Result extends object>(context: MainThreadContext, result: Result, inScene = true): Result & { note?: string } {
  if (!inScene || !context.playing || context.scenes.stage) return result;
  const note = (result as { note?: unknown }).note;
  return { ...result, note: typeof note === 'string' ? `${note} ${EDIT_LOST_NOTE}` : EDIT_LOST_NOTE };
}

/** The Unity package's PlayModeTool refusal while EditorUtility.scriptCompilationFailed, word for word. */
const PLAY_REFUSED = 'Unity cannot enter play mode while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.';

type PauseAction = 'pause' | 'resume' | 'step';

/** Pauses, resumes or steps the game; only in play mode. */
export function setPaused(context: MainThreadContext, action: PauseAction): Record<string, unknown> {
  if (!context.playing) {
    const problem = `"${action}" needs play mode, and the editor is in edit mode`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for play_mode: action: ${problem}. Enter it first (action "enter").`, { tool: 'play_mode', field: 'action', problem });
  }
  const clock = readClock(context.project);
  const frame = frameNow(clock);
  const write = (next: PlayClock): void => context.project.writeJson(clockPath(context.project), next);
  if (action === 'step') {
    // Step pauses a running game, then plays exactly one frame (the Step button).
    write({ paused: true, frame: frame + 1, since: Date.now() });
    return { playing: true, paused: true, changed: true, frame: frame + 1 };
  }
  const pausing = action === 'pause';
  if (clock.paused === pausing) return { playing: true, paused: pausing, changed: false, frame };
  write({ paused: pausing, frame, since: Date.now() });
  context.console.write('log', pausing ? 'Paused play mode' : 'Resumed play mode');
  return { playing: true, paused: pausing, changed: true, frame };
}

export const playModeTool = defineTool({
  name: 'play_mode',
  title: 'Enter or exit play mode',
  description:
    'Enters or exits play mode. Entering reloads the code domain, as in Unity, unless the project\'s Enter Play Mode Options turn domain reload off. While playing, "pause" and "resume" pause and resume the game and "step" plays one frame and stays paused (the toolbar\'s Pause and Step). Each action answers once the editor has done it.',
  input: z.object({ action: z.enum(['enter', 'exit', 'pause', 'resume', 'step']) }),
  output: z.object({
    playing: z.boolean(),
    changed: z.boolean().describe('False when the editor already was as asked.'),
    paused: z.boolean().optional().describe('After pause, resume and step.'),
    frame: z.number().int().optional().describe('The game\'s frame count (Time.frameCount), after pause, resume and step.'),
    domainReload: z.boolean().optional().describe('Entering reloaded the code domain; the answer arrived after the reload.'),
    note: z.string().optional().describe('When the answer came before Unity had shown the change done: what may still undo it.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  run: ({ action }, context) => {
    // As the Unity package's PlayModeTool: already playing answers unchanged, else compile errors
    // refuse entering (Unity would not enter). Here, not in setPlayMode: Edit/Play is not this tool.
    if (action === 'enter' && !context.playing) {
      refuseWhileScriptsFail(context, PLAY_REFUSED, { tool: 'play_mode', action });
    }
    return action === 'enter' || action === 'exit' ? setPlayMode(context, action) : setPaused(context, action);
  },
});
