// `npm run test:unity` (part of `npm test`): builds and runs the C# side, the Unity package's
// Core tests and the console host the vitest suites in test/unity/ drive
// (unity/Tests~/Tether.ConsoleHost/bin/Release/<tfm>/tether-console-host.dll), with
// `dotnet build` and `dotnet test` of unity/Tests~/Tether.slnx, in Release.
//
// Without a .NET SDK new enough for the projects' target frameworks this fails and says what to
// install: a test command that skips half the product where a tool is missing would pass
// without having tested it.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const testsDir = join(root, 'unity', 'Tests~');
const solution = join(testsDir, 'Tether.slnx');

/** The SDK major version the projects need: the highest netN.0 any of them targets (at least 8). */
function requiredSdkMajor() {
  let major = 8;
  for (const entry of readdirSync(testsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const file of readdirSync(join(testsDir, entry.name))) {
      if (!file.endsWith('.csproj')) continue;
      const text = readFileSync(join(testsDir, entry.name, file), 'utf8');
      for (const [, version] of text.matchAll(/<TargetFrameworks?>[^<]*?\bnet(\d+)\.\d+/g)) major = Math.max(major, Number(version));
    }
  }
  return major;
}

const env = { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: process.env.DOTNET_CLI_TELEMETRY_OPTOUT ?? '1' };
const required = requiredSdkMajor();
const probe = spawnSync('dotnet', ['--version'], { env, encoding: 'utf8' });
const installed = probe.status === 0 ? /^(\d+)\./.exec(probe.stdout.trim())?.[1] : undefined;
if (installed === undefined || Number(installed) < required) {
  const found = installed === undefined ? (probe.error ? 'dotnet is not on the PATH' : 'dotnet has no SDK installed') : `dotnet ${probe.stdout.trim()} is too old`;
  process.stderr.write(
    `The C# tests need the .NET SDK ${required} or later (dotnet): install it from https://dot.net/ or your package manager ` +
      `(Debian: apt-get install dotnet-sdk-${required}.0), then run npm test again. (${found}.)\n`,
  );
  process.exit(1);
}

// `dotnet test` builds only the test projects and what they reference, not the console host:
// so the whole solution is built first, then tested without building again. No build servers
// are left running: MSBuild worker nodes and the shared compiler would outlive `npm test`.
const common = ['-c', 'Release', '--nologo', '-nodeReuse:false', '-p:UseSharedCompilation=false'];
const steps = [
  ['build', solution, ...common],
  ['test', solution, ...common, '--no-build'],
];

/** Runs `dotnet args…` with its output streamed; resolves with its exit code. */
function dotnet(args) {
  process.stdout.write(`> dotnet ${args.join(' ')}\n`);
  const child = spawn('dotnet', args, { cwd: root, env, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

for (const args of steps) {
  const code = await dotnet(args);
  if (code !== 0) process.exit(code);
}
