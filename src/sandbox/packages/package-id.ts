/**
 * What add_package and remove_package accept, read as Unity's Package Manager reads it: a
 * package name in reverse-domain form ("com.unity.textmeshpro"), a name and a version
 * ("com.unity.textmeshpro@3.0.6"), a Git URL ("https://github.com/owner/repo.git?path=/pkg#v1.2.0"),
 * or a local package ("file:../MyPackage", "file:/abs/my-package-1.0.0.tgz"). Anything else is
 * refused with what to give instead. The Unity package has the same rules (PackageIds.cs).
 */
import { invalidArgument } from '../tools/tool-errors.js';

export type PackageSpec = { kind: 'registry'; name: string; version?: string } | { kind: 'git'; url: string } | { kind: 'local'; path: string; tarball: boolean };

const NAME = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const GIT = /^(git\+)?(https?|ssh|git|file):\/\/[^\s]+$|^git@[^\s:]+:[^\s]+$/;

const FORMS =
  'Give a package name ("com.unity.textmeshpro"), a name and version ("com.unity.textmeshpro@3.0.6"), a Git URL ("https://github.com/owner/repo.git") or a local path ("file:../MyPackage").';

/** A package's name as Unity requires it: lowercase, reverse-domain ("com.company.tool"), at most 214 characters. */
export function isPackageName(name: string): boolean {
  return name.length <= 214 && NAME.test(name);
}

export function isPackageVersion(version: string): boolean {
  return SEMVER.test(version);
}

/** An add_package identifier, or INVALID_ARGUMENTS saying which forms there are. */
export function parsePackageSpec(identifier: string, tool: string, field = 'identifier'): PackageSpec {
  const text = identifier.trim();
  if (text.startsWith('file:')) {
    const path = text.slice('file:'.length);
    if (path === '') throw invalidArgument(tool, field, '"file:" names no folder', 'Give the package\'s folder or .tgz after it, e.g. "file:../MyPackage".');
    return { kind: 'local', path, tarball: path.toLowerCase().endsWith('.tgz') };
  }
  if (GIT.test(text)) return { kind: 'git', url: text };
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  const version = at < 0 ? undefined : text.slice(at + 1);
  if (!isPackageName(name)) {
    const lower = name.toLowerCase() !== name && isPackageName(name.toLowerCase()) ? ` Package names are lowercase: "${name.toLowerCase()}".` : '';
    throw invalidArgument(tool, field, `"${identifier}" is not a package name, a Git URL or a local path`, `${FORMS}${lower}`);
  }
  if (version !== undefined && !isPackageVersion(version)) {
    throw invalidArgument(tool, field, `"${version}" is not a version`, `Give a semantic version after the "@", e.g. "${name}@1.2.3", or the name alone for the newest one.`);
  }
  return { kind: 'registry', name, ...(version === undefined ? {} : { version }) };
}

/**
 * The name a Git package gets in the sandbox, which cannot fetch it: the folder its "?path="
 * names, or else the repository's name without ".git". Undefined when that is no package name.
 */
export function gitPackageName(url: string): string | undefined {
  const [withoutRevision = ''] = url.split('#');
  const [location = '', query = ''] = withoutRevision.split('?');
  const subfolder = new URLSearchParams(query).get('path');
  const source = subfolder && subfolder.replace(/\/+$/, '') !== '' ? subfolder : location;
  const last =
    source
      .replace(/\/+$/, '')
      .split(/[/:]/)
      .at(-1)
      ?.replace(/\.git$/, '') ?? '';
  return isPackageName(last) ? last : undefined;
}
