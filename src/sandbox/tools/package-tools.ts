/**
 * list_packages, add_package, remove_package: the Package Manager's Client.List, Add and
 * Remove over the sandbox's manifest (src/sandbox/packages/). A change is resolved as Unity
 * resolves it, then recompiled: the editor reloads its code domain after the answer. Tether's
 * own package is never removed (the agent would lose the editor).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { gitPackageName, isPackageName, parsePackageSpec } from '../packages/package-id.js';
import { PACKAGE_SOURCES, ProjectPackages, type PackageInfo } from '../packages/project-packages.js';
import { REGISTRY, registryPackage } from '../packages/registry.js';
import { didYouMean, invalidArgument } from './tool-errors.js';
import { defineTool, type MainThreadContext } from './tool.js';

/** Tether's own package: removing it would cut the agent off from the editor. */
export const TETHER_PACKAGE = 'com.tether.host';

const packageInfo = z.object({
  name: z.string(),
  version: z.string(),
  displayName: z.string(),
  source: z.enum(PACKAGE_SOURCES),
  packageId: z.string().describe('What the manifest resolves, e.g. "com.unity.textmeshpro@3.0.6".'),
  isDirectDependency: z.boolean().describe('Listed in Packages/manifest.json (else a dependency of one that is).'),
});

const reloads = z.boolean().describe('The editor resolves the packages and reloads its code domain after this answer.');

/** The manifest value and the name `identifier` adds, checked against the registry or the disk. */
function toAdd(packages: ProjectPackages, identifier: string): { name: string; value: string } {
  const tool = 'add_package';
  const spec = parsePackageSpec(identifier, tool);
  if (spec.kind === 'git') {
    const name = gitPackageName(spec.url);
    if (!name) {
      throw new TetherError('TOOL_FAILED', `The sandbox cannot fetch "${spec.url}" to read its package's name, and takes it from the repository's name or its ?path= folder, which is no package name here. Unity would fetch it; in the sandbox, name the repository (or folder) after the package, e.g. ".../com.company.tool.git".`, { tool, identifier });
    }
    return { name, value: spec.url };
  }
  if (spec.kind === 'local') {
    const local = packages.readLocal(spec.path);
    if (!local) {
      const where = resolve(dirname(packages.manifestPath), spec.path);
      const problem = spec.tarball ? 'is not a package tarball named name-version.tgz' : existsSync(where) ? 'has no package.json with a name and a version' : 'does not exist';
      throw new TetherError('NOT_FOUND', `add_package: ${where} ${problem}. A "file:" path is relative to the project's Packages/ folder, e.g. "file:../../MyPackage".`, { tool, identifier, path: where });
    }
    return { name: local.name, value: `file:${spec.path}` };
  }
  const known = registryPackage(spec.name);
  if (!known) {
    const { suggestions, hint } = didYouMean(spec.name, Object.keys(REGISTRY));
    throw new TetherError('NOT_FOUND', `add_package: the registry has no package "${spec.name}".${hint}`, { tool, name: spec.name, suggestions });
  }
  if (spec.version !== undefined && !known.versions.includes(spec.version)) {
    throw new TetherError('NOT_FOUND', `add_package: the registry has no version ${spec.version} of ${spec.name}; it has ${known.versions.join(', ')}.`, { tool, name: spec.name, version: spec.version, versions: known.versions });
  }
  return { name: spec.name, value: spec.version ?? known.versions.at(-1)! };
}

/** Resolving packages after a change: the editor is busy, then recompiles and reloads. */
function resolveChange(context: MainThreadContext, what: string): void {
  context.announce('compiling', context.settings.compileMs);
  context.progress({ message: `Resolving packages (${what})` });
  context.block(context.settings.compileMs);
  context.console.write('log', `Packages resolved: ${what}`);
  context.requestReload('compile');
}

export const packageTools = [
  defineTool({
    name: 'list_packages',
    title: 'List packages',
    description: 'Lists the project\'s packages (Package Manager): those in Packages/manifest.json, and with includeIndirect also what they depend on, each with its version and source.',
    input: z.object({
      includeIndirect: z.boolean().default(false).describe('Also list the packages the project\'s packages depend on.'),
    }),
    output: z.object({ count: z.number().int(), packages: z.array(packageInfo) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ includeIndirect }, { project }) => {
      const packages = new ProjectPackages(project).list(includeIndirect);
      return { count: packages.length, packages };
    },
  }),

  defineTool({
    name: 'add_package',
    title: 'Add package',
    description:
      'Adds a package to the project, or changes its version (Package Manager Client.Add): a name ("com.unity.inputsystem", the newest version), a name and version ("com.unity.inputsystem@1.7.0"), a Git URL or a local "file:" path. Waits for the Package Manager; the editor then recompiles and reloads its code domain.',
    input: z.object({
      identifier: z.string().describe('"com.unity.inputsystem", "com.unity.inputsystem@1.7.0", "https://github.com/owner/repo.git?path=/pkg#v1.0.0" or "file:../MyPackage".'),
    }),
    output: z.object({
      package: packageInfo,
      changed: z.boolean().describe('False when the project had it already, as asked.'),
      previous: z.string().optional().describe('What the manifest said before (another version or source).'),
      domainReload: reloads,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    execution: { longRunning: true },
    run: ({ identifier }, context) => {
      const packages = new ProjectPackages(context.project);
      const { name, value } = toAdd(packages, identifier);
      const dependencies = packages.dependencies();
      const previous = dependencies[name];
      const changed = previous !== value;
      if (changed) {
        packages.writeDependencies({ ...dependencies, [name]: value });
        resolveChange(context, `added ${name}@${value}`);
      }
      const added: PackageInfo = packages.describe(name, value, true);
      return { package: added, changed, ...(previous !== undefined && changed ? { previous } : {}), domainReload: changed };
    },
  }),

  defineTool({
    name: 'remove_package',
    title: 'Remove package',
    description:
      'Removes a package the project lists in Packages/manifest.json (Package Manager Client.Remove), by name. Waits for the Package Manager; the editor then recompiles and reloads its code domain. Refuses Tether\'s own package (com.tether.host).',
    input: z.object({
      name: z.string().describe('The package\'s name, e.g. "com.unity.timeline".'),
    }),
    output: z.object({
      removed: z.string(),
      previous: z.string().optional().describe('What the manifest said (version, Git URL or path).'),
      domainReload: reloads,
      note: z.string().optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    execution: { longRunning: true },
    run: ({ name }, context) => {
      const tool = 'remove_package';
      if (!isPackageName(name)) {
        throw invalidArgument(tool, 'name', `"${name}" is not a package name`, 'Give the name alone, lowercase and without a version, e.g. "com.unity.timeline" (list_packages shows them).');
      }
      if (name === TETHER_PACKAGE) {
        throw invalidArgument(tool, 'name', `${name} is Tether's own package`, 'Removing it would cut this agent off from the editor; remove it in the Package Manager window if you mean to.');
      }
      const packages = new ProjectPackages(context.project);
      const dependencies = packages.dependencies();
      const previous = dependencies[name];
      if (previous === undefined) {
        const { suggestions, hint } = didYouMean(name, Object.keys(dependencies));
        throw new TetherError('NOT_FOUND', `${tool}: the project does not list "${name}" in Packages/manifest.json.${hint} list_packages shows what it has.`, { tool, name, suggestions });
      }
      const { [name]: _removed, ...rest } = dependencies;
      packages.writeDependencies(rest);
      resolveChange(context, `removed ${name}`);
      const stillNeeded = packages.list(true).find((info) => info.name === name);
      const note = stillNeeded ? `${name} stays installed as a dependency of another package.` : undefined;
      return { removed: name, previous, domainReload: true, ...(note ? { note } : {}) };
    },
  }),
];
