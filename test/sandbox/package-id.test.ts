/** add_package's identifiers (src/sandbox/packages/package-id.ts): the same cases as the Unity package's PackageIdsTests. */
import { describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/index.js';
import { gitPackageName, isPackageName, parsePackageSpec } from '../../src/sandbox/packages/package-id.js';

function refusal(identifier: string): TetherError {
  try {
    parsePackageSpec(identifier, 'add_package');
  } catch (error) {
    return error as TetherError;
  }
  throw new Error(`"${identifier}" was accepted`);
}

describe('package identifiers', () => {
  it.each([
    ['com.unity.textmeshpro', { kind: 'registry', name: 'com.unity.textmeshpro' }],
    ['com.unity.inputsystem@1.7.0', { kind: 'registry', name: 'com.unity.inputsystem', version: '1.7.0' }],
    ['com.company.tool@2.0.0-preview.3', { kind: 'registry', name: 'com.company.tool', version: '2.0.0-preview.3' }],
    ['https://github.com/owner/repo.git?path=/pkg#v1.0.0', { kind: 'git', url: 'https://github.com/owner/repo.git?path=/pkg#v1.0.0' }],
    ['git@github.com:owner/repo.git', { kind: 'git', url: 'git@github.com:owner/repo.git' }],
    ['git+ssh://git@host/owner/repo.git', { kind: 'git', url: 'git+ssh://git@host/owner/repo.git' }],
    ['file:../MyPackage', { kind: 'local', path: '../MyPackage', tarball: false }],
    ['file:/abs/com.x.y-1.0.0.tgz', { kind: 'local', path: '/abs/com.x.y-1.0.0.tgz', tarball: true }],
  ])('reads %s', (identifier, spec) => {
    expect(parsePackageSpec(identifier, 'add_package')).toEqual(spec);
  });

  it.each([
    ['TextMeshPro', 'is not a package name'],
    ['Com.Unity.Ugui', 'Package names are lowercase: "com.unity.ugui"'],
    ['textmeshpro', 'is not a package name'],
    ['com.unity.ugui@latest', '"latest" is not a version'],
    ['com.unity.ugui@1.0', '"1.0" is not a version'],
    ['com..unity', 'is not a package name'],
    ['file:', 'names no folder'],
    ['', 'is not a package name'],
  ])('refuses %j, saying what to give', (identifier, problem) => {
    const error = refusal(identifier);
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain(problem);
    expect(error.data).toMatchObject({ tool: 'add_package', field: 'identifier' });
  });

  it('names a Git package after its ?path= folder or its repository, when that is a package name', () => {
    expect(gitPackageName('https://github.com/owner/com.owner.tool.git')).toBe('com.owner.tool');
    expect(gitPackageName('https://github.com/owner/repo.git?path=/Packages/com.owner.tool#v1.2.0')).toBe('com.owner.tool');
    expect(gitPackageName('git@github.com:owner/repo.git')).toBeUndefined();
    expect(isPackageName(`com.${'a'.repeat(211)}`)).toBe(false);
  });
});
