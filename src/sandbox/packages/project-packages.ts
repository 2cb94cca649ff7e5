/**
 * A project's packages as Unity's Package Manager keeps them: Packages/manifest.json lists the
 * direct dependencies (name to version, Git URL or "file:" path); resolving them against the
 * registry (registry.ts) adds what those depend on. Writing the manifest keeps its other keys
 * and sorts the dependencies by name, as Unity writes it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import type { Project } from '../project.js';
import { gitPackageName, isPackageName, isPackageVersion } from './package-id.js';
import { isBuiltInModule, registryPackage } from './registry.js';

export const PACKAGE_SOURCES = ['Registry', 'BuiltIn', 'Embedded', 'Local', 'LocalTarball', 'Git', 'Unknown'] as const;

export interface PackageInfo {
  name: string;
  version: string;
  displayName: string;
  source: (typeof PACKAGE_SOURCES)[number];
  /** "name@version", "name@file:…", "name@https://…": what the manifest resolves. */
  packageId: string;
  isDirectDependency: boolean;
}

interface Manifest {
  other: Record<string, unknown>;
  dependencies: Record<string, string>;
}

export class ProjectPackages {
  constructor(private readonly project: Project) {}

  get manifestPath(): string {
    return join(this.project.root, 'Packages', 'manifest.json');
  }

  /** The manifest's direct dependencies (none when the project has no manifest yet). */
  dependencies(): Record<string, string> {
    return this.read().dependencies;
  }

  /** Writes the dependencies back, sorted by name, keeping the manifest's other keys. */
  writeDependencies(dependencies: Record<string, string>): void {
    const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    this.project.writeJson(this.manifestPath, { ...this.read().other, dependencies: sorted });
  }

  /** The resolved packages: the direct ones, and (with `indirect`) what they depend on. */
  list(indirect: boolean): PackageInfo[] {
    const direct = Object.entries(this.dependencies()).map(([name, value]) => this.describe(name, value, true));
    if (!indirect) return direct;
    const found = new Map(direct.map((info) => [info.name, info]));
    const queue = [...direct];
    for (let info = queue.shift(); info; info = queue.shift()) {
      for (const [name, version] of Object.entries(registryPackage(info.name)?.dependencies ?? {})) {
        if (found.has(name)) continue;
        const dependency = this.describe(name, version, false);
        found.set(name, dependency);
        queue.push(dependency);
      }
    }
    return [...found.values()].sort((a, b) => Number(b.isDirectDependency) - Number(a.isDirectDependency) || (a.name < b.name ? -1 : 1));
  }

  /** What the manifest's value for `name` resolves to. */
  describe(name: string, value: string, direct: boolean): PackageInfo {
    const base = { name, packageId: `${name}@${value}`, isDirectDependency: direct };
    if (value.startsWith('file:')) {
      const local = this.readLocal(value.slice('file:'.length));
      const tarball = value.toLowerCase().endsWith('.tgz');
      return { ...base, version: local?.version ?? '0.0.0', displayName: local?.displayName ?? name, source: tarball ? 'LocalTarball' : 'Local' };
    }
    if (!isPackageVersion(value)) return { ...base, version: gitVersion(value), displayName: name, source: gitPackageName(value) !== undefined || value.includes('://') ? 'Git' : 'Unknown' };
    const known = registryPackage(name);
    return { ...base, version: value, displayName: known?.displayName ?? name, source: isBuiltInModule(name) ? 'BuiltIn' : 'Registry' };
  }

  /**
   * The package.json of a local package, its path relative to Packages/ as in the manifest (a
   * .tgz is named name-version.tgz); undefined when there is none to read.
   */
  readLocal(path: string): { name: string; version: string; displayName: string } | undefined {
    const full = resolve(dirname(this.manifestPath), path);
    if (full.toLowerCase().endsWith('.tgz')) {
      const match = /^(.+?)-(\d+\.\d+\.\d+[^/\\]*)\.tgz$/i.exec(full.split(/[/\\]/).at(-1) ?? '');
      return match && isPackageName(match[1]!) ? { name: match[1]!, version: match[2]!, displayName: match[1]! } : undefined;
    }
    try {
      const json = JSON.parse(readFileSync(join(full, 'package.json'), 'utf8')) as Record<string, unknown>;
      const name = typeof json.name === 'string' ? json.name : '';
      const version = typeof json.version === 'string' ? json.version : '';
      if (!isPackageName(name) || !isPackageVersion(version)) return undefined;
      return { name, version, displayName: typeof json.displayName === 'string' ? json.displayName : name };
    } catch {
      return undefined;
    }
  }

  private read(): Manifest {
    let text: string;
    try {
      text = readFileSync(this.manifestPath, 'utf8');
    } catch {
      return { other: {}, dependencies: {} };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new TetherError(
        'TOOL_FAILED',
        `Packages/manifest.json is not valid JSON (${(error as Error).message}); Unity cannot resolve the project's packages either. Fix the file, then try again.`,
        { path: 'Packages/manifest.json' },
      );
    }
    const { dependencies, ...other } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
    const entries = Object.entries(typeof dependencies === 'object' && dependencies !== null ? dependencies : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return { other, dependencies: Object.fromEntries(entries) };
  }
}

/** A Git package's version as far as the URL tells ("#v1.2.0" gives 1.2.0). */
function gitVersion(url: string): string {
  const revision = url.split('#')[1]?.replace(/^v/, '') ?? '';
  return isPackageVersion(revision) ? revision : '0.0.0';
}
