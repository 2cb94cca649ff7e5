/**
 * build_player in the sandbox: where the player goes (inside the project unless the caller
 * says otherwise, never into the folders the editor owns), which scenes, which options; then
 * a build that blocks the main thread as BuildPipeline.BuildPlayer does, fails as Unity's does
 * when the scripts do not compile, and answers with the build report's summary. The player
 * lists each scene's GameObjects as its saved file has them (a build reads scenes from disk).
 * Each build appends a line to Library/Builds/build-log.jsonl (what tests count).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { enabledBuildScenes } from '../build-settings.js';
import type { SceneFile } from '../game-object.js';
import { inHierarchyOrder } from '../hierarchy-order.js';
import { byIdOf, pathIn } from '../prefabs/instance-parts.js';
import { isSceneFile, sceneFileOf, scenePath } from '../scene-paths.js';
import { scriptCompileErrors } from './script-compilation.js';
import { didYouMean, invalidArgument } from './tool-errors.js';
import type { MainThreadContext } from './tool.js';

export const BUILD_TARGETS = ['StandaloneLinux64', 'StandaloneWindows64', 'StandaloneOSX', 'Android', 'iOS', 'WebGL'] as const;

/** The build target a new project has on each editor platform: the sandbox's active one (EditorUserBuildSettings.activeBuildTarget). */
const ACTIVE_TARGETS: Readonly<Record<string, (typeof BUILD_TARGETS)[number]>> = { linux: 'StandaloneLinux64', darwin: 'StandaloneOSX', win32: 'StandaloneWindows64' };

export function activeBuildTarget(platform: NodeJS.Platform = process.platform): (typeof BUILD_TARGETS)[number] {
  return ACTIVE_TARGETS[platform] ?? 'StandaloneLinux64';
}
/** BuildOptions the tool passes on, by name (Development has its own argument). */
export const BUILD_OPTIONS = ['AllowDebugging', 'ConnectWithProfiler', 'StrictMode', 'CleanBuildCache', 'DetailedBuildReport', 'CompressWithLz4', 'CompressWithLz4HC'] as const;

/** Folders the editor owns: a player written there would be imported (Assets) or clobber its state. */
const EDITOR_FOLDERS = ['Assets', 'Library', 'Packages', 'ProjectSettings', 'UserSettings', 'Temp', 'Logs'];

export const buildSummary = z.object({
  status: z.string().describe('"succeeded".'),
  result: z.string().describe('The build report\'s result: "Succeeded".'),
  target: z.enum(BUILD_TARGETS),
  development: z.boolean(),
  outputPath: z.string().describe('The folder of the player: project-relative, or absolute when outside the project.'),
  location: z.string().describe('What the build wrote there: the executable, package or folder.'),
  scenes: z.array(z.string()).describe('The scenes built, in order.'),
  options: z.array(z.string()),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int(),
  totalSize: z.number().int().describe('Bytes of the build output.'),
  totalErrors: z.number().int(),
  totalWarnings: z.number().int(),
});

export interface BuildRequest {
  target: (typeof BUILD_TARGETS)[number];
  development: boolean;
  scenes?: string[] | undefined;
  outputPath?: string | undefined;
  allowOutsideProject?: boolean | undefined;
  options?: Array<(typeof BUILD_OPTIONS)[number]> | undefined;
}

/** The player's file (or folder) in `folder`, named as each platform needs (the Unity package's BuildPaths). */
function locationIn(folder: string, target: string, product: string): string {
  const extension: Record<string, string> = { StandaloneWindows64: '.exe', StandaloneLinux64: '.x86_64', StandaloneOSX: '.app', Android: '.apk' };
  const suffix = extension[target];
  return suffix === undefined ? folder : `${folder}/${product}${suffix}`;
}

/** The folder the player goes to: `outputPath` (default Builds/<target>) checked, as shown and as a full path. */
function outputFolder(context: MainThreadContext, request: BuildRequest): { shown: string; full: string } {
  const root = context.project.root;
  const given = request.outputPath?.replaceAll('\\', '/') ?? `Builds/${request.target}`;
  const full = resolve(root, given);
  const inside = relative(root, full);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    if (!request.allowOutsideProject) {
      throw new TetherError(
        'PATH_OUTSIDE_PROJECT',
        `build_player would write the player to "${given}", outside the project ${root}, replacing what is there. Build inside the project (by default Builds/${request.target}), or pass allowOutsideProject: true if you mean that folder.`,
        { path: given, projectPath: root, tool: 'build_player', field: 'outputPath' },
      );
    }
    return { shown: full, full };
  }
  const shown = inside.replaceAll('\\', '/');
  const top = shown.split('/')[0] ?? '';
  if (shown === '' || EDITOR_FOLDERS.some((folder) => folder.toLowerCase() === top.toLowerCase())) {
    throw invalidArgument('build_player', 'outputPath', `"${given}" is ${shown === '' ? 'the project folder itself' : `inside ${top}/, which the editor owns`}`, `Give a folder of its own, e.g. "Builds/${request.target}".`);
  }
  return { shown, full };
}

/**
 * The scenes to build, as the Unity package's ScenesToBuild: those given (each must exist), or
 * the enabled scenes of the Build Settings (build-settings.ts), which may be none: then Unity
 * builds the open scene (BuildPlayerOptions.scenes: "If empty, the currently open Scene will be
 * built"), and the summary says `scenes: []`, as the package's does.
 */
function buildScenes(context: MainThreadContext, scenes: string[] | undefined): string[] {
  if (scenes === undefined) return enabledBuildScenes(context.project);
  const known = context.scenes.assets();
  return scenes.map((input, index) => {
    const path = scenePath(context.project, input, 'build_player', `scenes.${index}`);
    if (known.includes(path)) return path;
    const { suggestions, hint } = didYouMean(path, known);
    throw new TetherError('NOT_FOUND', `build_player: no scene at "${path}".${hint} list_scenes shows the project's scenes.`, { tool: 'build_player', path, suggestions });
  });
}

/**
 * What the player holds of a scene: its GameObjects as its asset has them, since a build reads
 * the scene files on disk, as Unity's does: unsaved changes are not built (save_scene first).
 */
function builtScene(context: MainThreadContext, path: string): string {
  const data = context.project.readJson<SceneFile | undefined>(context.project.resolveInside(sceneFileOf(path)), undefined);
  const objects = data && isSceneFile(data) ? data.objects : [];
  const byId = byIdOf(objects);
  return `${path}\n${inHierarchyOrder(objects)
    .map((o) => `  ${pathIn(byId, o)}\n`)
    .join('')}`;
}

/**
 * A player build: blocks the main thread synchronously for the configured time, like
 * BuildPipeline.BuildPlayer, and appends one line to Library/Builds/build-log.jsonl.
 */
export function buildPlayer(context: MainThreadContext, target: BuildRequest['target'], development: boolean, more: Partial<BuildRequest> = {}): z.infer<typeof buildSummary> {
  // As the Unity package's BuildPlayerTool: BuildPipeline does not build in play mode.
  if (context.playing) {
    throw new TetherError('TOOL_FAILED', 'Unity cannot build a player in play mode. Exit play mode (play_mode with action "exit"), then build.', { tool: 'build_player', target });
  }
  const request: BuildRequest = { ...more, target, development };
  const options = [...new Set([...(development ? ['Development'] : []), ...(request.options ?? [])])];
  const output = outputFolder(context, request);
  const scenes = buildScenes(context, request.scenes);
  const product = basename(context.project.root).replace(/[^\w .-]/g, '_') || 'Player';
  const location = locationIn(output.shown, target, product);
  const startedAt = new Date().toISOString();
  const log = (status: string, extra: Record<string, unknown> = {}): void =>
    context.project.appendLine(context.project.buildLogPath, { callId: context.callId, target, development, status, startedAt, finishedAt: new Date().toISOString(), outputPath: output.shown, scenes, options, ...extra });
  context.console.write('log', `Build started for ${target}`);
  const compileErrors = scriptCompileErrors(context);
  if (compileErrors.length > 0) {
    log('failed', { totalErrors: compileErrors.length });
    context.console.write('error', 'Error building Player because scripts have compile errors in the editor');
    throw new TetherError('TOOL_FAILED', `The ${target} build failed with ${compileErrors.length} error(s): Unity does not build a player while scripts have compile errors. Fix them (edit_script), then build again:\n${compileErrors.join('\n')}`, {
      tool: 'build_player',
      target,
      result: 'Failed',
      totalErrors: compileErrors.length,
      errors: compileErrors,
    });
  }
  let reported = 0;
  const completed = context.block(context.settings.buildMs, (fraction) => {
    const step = Math.floor(fraction * 10);
    if (step > reported && step < 10) {
      reported = step;
      context.progress({ progress: step * 10, total: 100, message: `Building ${target}: ${step * 10}%` });
    }
  });
  if (!completed) {
    log('cancelled');
    context.console.write('warning', `Build for ${target} was cancelled`);
    throw new TetherError('CANCELLED', `The ${target} build was cancelled after it started; no player was produced.`, { target, started: true });
  }
  const finishedAt = new Date().toISOString();
  // What the player holds: with no scene listed, the open one, as Unity builds it.
  const built = scenes.length > 0 ? scenes : [context.scenes.active.path];
  const player = `Sandbox player for ${target} (${built.join(', ')}), built ${finishedAt}${development ? ', development' : ''}\n${built.map((path) => builtScene(context, path)).join('')}`;
  const locationFull = resolve(context.project.root, location);
  // A macOS app, an iOS project and a WebGL site are folders; the other players are one file.
  const isFolder = location === output.shown || location.endsWith('.app');
  mkdirSync(isFolder ? locationFull : output.full, { recursive: true });
  writeFileSync(isFolder ? join(locationFull, 'player.txt') : locationFull, player);
  log('succeeded');
  context.console.write('log', `Build succeeded for ${target}`);
  return {
    status: 'succeeded',
    result: 'Succeeded',
    target,
    development,
    outputPath: output.shown,
    location,
    scenes,
    options,
    startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
    totalSize: Buffer.byteLength(player),
    totalErrors: 0,
    totalWarnings: 0,
  };
}

