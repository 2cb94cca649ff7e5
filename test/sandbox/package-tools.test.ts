/**
 * list_packages, add_package and remove_package through `tether call` and an MCP client: the
 * sample project's manifest, registry names, versions, Git URLs and local folders, every kind
 * of bad identifier, Tether's own package kept, and a project without (or with a broken) manifest.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { sharedSandbox } from '../helpers/tool-session.js';

interface Info {
  name: string;
  version: string;
  source: string;
  packageId: string;
  isDirectDependency: boolean;
}

const { workspace } = sharedSandbox({ args: ['--reload-ms', '100'], mcp: false });
const manifestPath = (): string => join(workspace.project, 'Packages', 'manifest.json');
const dependencies = (): Record<string, string> => (JSON.parse(readFileSync(manifestPath(), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

describe('package tools through tether call', () => {
  it('lists, adds, changes the version of and removes packages, as the manifest then says', async () => {
    const listed = await callOk<{ count: number; packages: Info[] }>(workspace, 'list_packages');
    expect(listed.count).toBe(7);
    expect(listed.packages.find((p) => p.name === 'com.unity.textmeshpro')).toEqual({
      name: 'com.unity.textmeshpro',
      version: '3.0.6',
      displayName: 'TextMeshPro',
      source: 'Registry',
      packageId: 'com.unity.textmeshpro@3.0.6',
      isDirectDependency: true,
    });

    const added = await callOk<{ package: Info; changed: boolean; domainReload: boolean }>(workspace, 'add_package', { identifier: 'com.unity.inputsystem' });
    expect(added).toMatchObject({ package: { name: 'com.unity.inputsystem', version: '1.7.0', source: 'Registry' }, changed: true, domainReload: true });
    expect(dependencies()['com.unity.inputsystem']).toBe('1.7.0');
    const pinned = await callOk(workspace, 'add_package', { identifier: 'com.unity.inputsystem@1.6.3' });
    expect(pinned).toMatchObject({ changed: true, previous: '1.7.0', package: { version: '1.6.3' } });

    expect(await callOk(workspace, 'remove_package', { name: 'com.unity.inputsystem' })).toEqual({ removed: 'com.unity.inputsystem', previous: '1.6.3', domainReload: true });
    expect(dependencies()).not.toHaveProperty('com.unity.inputsystem');
    expect(Object.keys(dependencies())).toEqual([...Object.keys(dependencies())].sort());
  });

  it("refuses what is no package, and Tether's own", async () => {
    const before = readFileSync(manifestPath(), 'utf8');
    expect(await callFails(workspace, 'add_package', { identifier: 'TextMeshPro' }, 'INVALID_ARGUMENTS')).toContain('is not a package name');
    expect(await callFails(workspace, 'add_package', { identifier: 'com.unity.textmesh' }, 'NOT_FOUND')).toContain('Did you mean "com.unity.textmeshpro"');
    expect(await callFails(workspace, 'remove_package', { name: 'com.tether.host' }, 'INVALID_ARGUMENTS')).toContain('cut this agent off');
    expect(await callFails(workspace, 'remove_package', { name: 'com.unity.timline' }, 'NOT_FOUND')).toContain('does not list');
    expect(readFileSync(manifestPath(), 'utf8')).toBe(before);
  });
});

/** One MCP client, with a call that must succeed (its structured content) and one that must fail with a code (its text). */
async function session() {
  const { client } = await connectMcp(workspace);
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    return result.structuredContent as T;
  };
  const refused = async (name: string, args: Record<string, unknown>, code: string): Promise<string> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
    expect((result._meta?.['tether/error'] as { code?: string } | undefined)?.code, textOf(result)).toBe(code);
    return textOf(result);
  };
  return { client, call, refused };
}

describe('package tools through an MCP client', () => {
  it('answers with structured content, and takes Git URLs and local folders', async () => {
    const { client, call } = await session();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'list_packages')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'add_package')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(tools.find((t) => t.name === 'remove_package')?.annotations).toMatchObject({ destructiveHint: true });

    const all = await call<{ packages: Info[] }>('list_packages', { includeIndirect: true });
    expect(all.packages.find((p) => p.name === 'com.unity.ext.nunit')).toMatchObject({ version: '1.0.6', isDirectDependency: false });
    expect(await call('add_package', { identifier: 'com.unity.textmeshpro@3.0.6' })).toMatchObject({ changed: false, domainReload: false });

    const git = await call<{ package: Info }>('add_package', { identifier: 'https://github.com/owner/tools.git?path=/Packages/com.owner.tools#v1.2.0' });
    expect(git.package).toMatchObject({ name: 'com.owner.tools', version: '1.2.0', source: 'Git' });
    mkdirSync(join(workspace.project, 'LocalPackages', 'Dialogue'), { recursive: true });
    writeFileSync(join(workspace.project, 'LocalPackages', 'Dialogue', 'package.json'), JSON.stringify({ name: 'com.studio.dialogue', version: '0.3.0', displayName: 'Dialogue' }));
    const local = await call<{ package: Info }>('add_package', { identifier: 'file:../LocalPackages/Dialogue' });
    expect(local.package).toEqual({
      name: 'com.studio.dialogue',
      version: '0.3.0',
      displayName: 'Dialogue',
      source: 'Local',
      packageId: 'com.studio.dialogue@file:../LocalPackages/Dialogue',
      isDirectDependency: true,
    });
    expect(dependencies()['com.studio.dialogue']).toBe('file:../LocalPackages/Dialogue');
    const removedUi = await call<{ note?: string }>('remove_package', { name: 'com.unity.ugui' });
    expect(removedUi.note).toContain('dependency of another package');
  });

  it('refuses each kind of bad identifier, and copes with a missing or broken manifest', async () => {
    const { call, refused } = await session();

    expect(await refused('add_package', { identifier: 'Com.Unity.Ugui' }, 'INVALID_ARGUMENTS')).toContain('"com.unity.ugui"');
    expect(await refused('add_package', { identifier: 'com.unity.ugui@latest' }, 'INVALID_ARGUMENTS')).toContain('is not a version');
    expect(await refused('add_package', { identifier: 'com.unity.ugui@9.9.9' }, 'NOT_FOUND')).toContain('it has 1.0.0');
    expect(await refused('add_package', { identifier: 'file:../Nowhere' }, 'NOT_FOUND')).toContain('does not exist');
    expect(await refused('add_package', { identifier: 'git@github.com:owner/repo.git' }, 'TOOL_FAILED')).toContain('cannot fetch');
    expect(await refused('add_package', {}, 'INVALID_ARGUMENTS')).toContain('identifier');
    expect(await refused('remove_package', { name: 'com.unity.textmeshpro@3.0.6' }, 'INVALID_ARGUMENTS')).toContain('without a version');

    // A project without a manifest lists nothing and gets one on its first add; a broken one is left alone.
    rmSync(manifestPath());
    expect(await call('list_packages', {})).toEqual({ count: 0, packages: [] });
    await call('add_package', { identifier: 'com.unity.timeline@1.6.5' });
    expect(dependencies()).toEqual({ 'com.unity.timeline': '1.6.5' });
    writeFileSync(manifestPath(), '{ "dependencies": ');
    expect(await refused('list_packages', {}, 'TOOL_FAILED')).toContain('is not valid JSON');
    expect(readFileSync(manifestPath(), 'utf8')).toBe('{ "dependencies": ');
  });
});
