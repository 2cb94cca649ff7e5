/**
 * `npm run test:unity` (scripts/dotnet-test.mjs) where the .NET SDK is missing or too old: it
 * fails and says what to install, instead of skipping the C# half of `npm test` in silence.
 * Run with a PATH that holds only `node` (and, for "too old", a stand-in `dotnet`).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, cleanupProcesses, createWorkspace, runToExit } from '../helpers/processes.js';

afterEach(cleanupProcesses);

const SCRIPT = join(REPO_ROOT, 'scripts', 'dotnet-test.mjs');

/** A folder for PATH with `node` in it, and nothing else unless added. */
function pathWithNodeOnly(): string {
  const bin = join(dirname(createWorkspace().home), 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

describe.skipIf(process.platform === 'win32')('npm run test:unity without a usable .NET SDK', () => {
  it('fails (exit 1) and says what to install when dotnet is missing', async () => {
    const bin = pathWithNodeOnly();
    const run = await runToExit(process.execPath, [SCRIPT], { env: { ...process.env, PATH: bin }, cwd: REPO_ROOT });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^The C# tests need the \.NET SDK \d+ or later \(dotnet\): install it from https:\/\/dot\.net\/ or your package manager \(Debian: apt-get install dotnet-sdk-\d+\.0\), then run npm test again\. \(dotnet is not on the PATH\.\)\n$/);
    expect(run.stdout).toBe('');
  });

  it('fails and says what to install when the SDK is older than the projects need', async () => {
    const bin = pathWithNodeOnly();
    writeFileSync(join(bin, 'dotnet'), '#!/bin/sh\necho 6.0.428\n', { mode: 0o755 });
    const run = await runToExit(process.execPath, [SCRIPT], { env: { ...process.env, PATH: bin }, cwd: REPO_ROOT });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The C# tests need the .NET SDK');
    expect(run.stderr).toContain('(dotnet 6.0.428 is too old.)');
  });
});
