/**
 * `tether setup unity --project PATH`: installs the Tether host package into a Unity project,
 * as a `file:` dependency in its Packages/manifest.json on the unity/ folder of this
 * installation, then says how to connect an agent. Run again, it changes nothing; a
 * com.tether.host entry pointing elsewhere is replaced, with a notice. `--dry-run` shows the
 * change and writes nothing. A folder that is not a Unity project is a usage error (exit 2).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { tokenPath } from '../../http/serve-state.js';
import { ExitError } from '../exit-error.js';
import { packageRoot } from '../package-root.js';
import { replaceFile } from '../replace-file.js';
import { ManifestError, referencesFolder, unityFileReference, withDependency } from './setup-unity-manifest.js';

export const UNITY_PACKAGE_NAME = 'com.tether.host';

export interface SetupUnityOptions {
  project: string;
  dryRun?: boolean;
}

export function run(options: SetupUnityOptions): void {
  const project = resolve(options.project);
  const editorVersion = unityProjectVersion(project);
  const manifestPath = join(project, 'Packages', 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new ExitError(`${project} has no Packages/manifest.json, which Unity writes when it opens a project. Open the project in Unity once, then run tether setup unity again.`, 2);
  }
  const packageDir = unityPackageDir();
  const reference = unityFileReference(packageDir);
  const text = readFileSync(manifestPath, 'utf8');
  let change;
  try {
    change = withDependency(text, UNITY_PACKAGE_NAME, reference, (existing) => referencesFolder(existing, packageDir, dirname(manifestPath)));
  } catch (error) {
    if (error instanceof ManifestError)
      throw new ExitError(`Could not add ${UNITY_PACKAGE_NAME} to ${manifestPath}: ${error.message}. Fix the file (Unity will not load packages from it either), then run this again.`);
    throw error;
  }
  const entry = (value: unknown): string => `"${UNITY_PACKAGE_NAME}": ${JSON.stringify(value)}`;
  const out: string[] = [`Unity project: ${project}${editorVersion ? ` (Unity ${editorVersion})` : ''}`];
  const minimum = minimumUnity(packageDir);
  if (editorVersion && minimum && olderThan(editorVersion, minimum)) {
    out.push(`Warning: the Tether package needs Unity ${minimum} or later; this project was last opened with ${editorVersion}.`);
  }
  const transient = npxCacheWarning(packageDir);
  if (transient) out.push(transient);
  if (change.kind === 'unchanged') {
    out.push(`${UNITY_PACKAGE_NAME} is already in ${manifestPath} (${change.current}): nothing to change.`);
  } else if (options.dryRun) {
    out.push(`Dry run: would change ${manifestPath}:`, ...(change.kind === 'replaced' ? [`- ${entry(change.previous)}`] : []), `+ ${entry(reference)}`, 'Nothing was written.');
  } else {
    if (change.kind === 'replaced') {
      out.push(`Notice: ${manifestPath} had ${entry(change.previous)}; it now points at this installation of Tether instead.`);
    }
    // Written beside it and renamed over it, so Unity never reads half a manifest; the file keeps its mode.
    replaceFile(manifestPath, change.text, { mode: statSync(manifestPath).mode & 0o7777, holder: 'Unity' });
    out.push(`${change.kind === 'replaced' ? 'Replaced in' : 'Added to'} ${manifestPath}:`, `  ${entry(reference)}`);
  }
  out.push('', ...nextSteps(project, options.dryRun === true && change.kind !== 'unchanged'));
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The Unity version in ProjectSettings/ProjectVersion.txt, which every Unity project has. */
function unityProjectVersion(project: string): string | undefined {
  if (!existsSync(project) || !statSync(project).isDirectory()) {
    throw new ExitError(`There is no folder at ${project}. Pass the folder of a Unity project (the one Unity Hub opens).`, 2);
  }
  const versionFile = join(project, 'ProjectSettings', 'ProjectVersion.txt');
  if (!existsSync(versionFile)) {
    throw new ExitError(
      `${project} is not a Unity project: it has no ProjectSettings/ProjectVersion.txt. A Unity project folder holds Assets/, Packages/manifest.json and ProjectSettings/ProjectVersion.txt; pass that folder (the one Unity Hub opens).`,
      2,
    );
  }
  return /^m_EditorVersion:\s*(\S+)/m.exec(readFileSync(versionFile, 'utf8'))?.[1];
}

/** This installation's unity/ folder, the package Unity loads. */
function unityPackageDir(): string {
  const dir = join(packageRoot(), 'unity');
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
    if (manifest.name === UNITY_PACKAGE_NAME) return dir;
  } catch {
    // reported below
  }
  throw new ExitError(`This installation of Tether lacks its Unity package (${join(dir, 'package.json')}, named ${UNITY_PACKAGE_NAME}). Reinstall tether-mcp.`);
}

function minimumUnity(packageDir: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { unity?: string };
  return manifest.unity;
}

/** A warning when this Tether runs from npx's cache, a folder npm may delete under Unity's feet. */
export function npxCacheWarning(packageDir: string): string | undefined {
  if (!/[\\/]_npx[\\/]/.test(packageDir)) return undefined;
  return `Warning: this Tether runs from npx's cache (${packageDir}), which npm may clear, and Unity would lose the package. Install Tether (npm install -g tether-mcp) and run tether setup unity from there.`;
}

/** "2021.3.5f1" older than "2021.3"? Compares the year and minor numbers only. */
export function olderThan(version: string, minimum: string): boolean {
  const parts = (v: string): number[] =>
    v
      .split('.')
      .slice(0, 2)
      .map((p) => Number.parseInt(p, 10));
  const [year = 0, minor = 0] = parts(version);
  const [minYear = 0, minMinor = 0] = parts(minimum);
  return year < minYear || (year === minYear && minor < minMinor);
}

function nextSteps(project: string, dryRun: boolean): string[] {
  const bin = join(packageRoot(), 'bin', 'tether.js');
  const home = process.env.TETHER_HOME ? { env: { TETHER_HOME: tetherHome() } } : {};
  const stdioConfig = { mcpServers: { unity: { command: process.execPath, args: [bin, 'mcp', '--project', project], ...home } } };
  return [
    dryRun ? 'Once added, in Unity:' : 'Next, in Unity:',
    '  Switch to the editor (or open the project). The Package Manager resolves the package and Unity',
    '  compiles it; the Tether host then starts with the editor, listening on 127.0.0.1 only, and comes',
    '  back by itself after every domain reload. Calls cut short by a reload or a crash are never run twice.',
    ...(process.env.TETHER_HOME ? [`  TETHER_HOME is set (${tetherHome()}): Unity must see the same TETHER_HOME, or agents will not find the editor.`] : []),
    '',
    'Connect an agent:',
    `  stdio, one agent per process (Claude Code, Cursor, VS Code, Codex…):  tether mcp --project ${project}`,
    `    ${JSON.stringify(stdioConfig)}`,
    `    Claude Code: claude mcp add unity -- ${process.execPath} ${bin} mcp --project ${project}`,
    `  HTTP, several agents at once:  tether serve --project ${project}`,
    `    (serves http://127.0.0.1:7420/mcp; the bearer token is kept in ${tokenPath(tetherHome())})`,
    '',
    `Check it once Unity runs: tether hosts, then tether tools --project ${project}`,
  ];
}
