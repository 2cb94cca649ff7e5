/**
 * `tether setup unity` and `tether setup <client>` when the file system refuses to replace the
 * file: on Windows, renaming over a file that Unity or the client has open fails with EPERM
 * (or EBUSY, EACCES). The command must fail (exit 1) saying what to do, with the file as it
 * was and nothing left beside it: no temporary file, no backup.
 *
 * A normal user on Linux cannot make that rename fail for real (a read-only folder stops the
 * temporary file first, and not root; the target cannot be a folder, since it is read first;
 * `chattr +i` needs root), so the rename over the target, and only that call, throws the error
 * Node gives for a refused rename: in process through a mock of node:fs, and in the real CLI
 * (bin/tether.js, which runs dist/: needs `npm run build`) through a `--require` preload.
 * Everything else — the temporary file, the backup, the CLI's error handling — is real.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync, type PathLike } from 'node:fs';
import path, { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run as setupClient } from '../../src/cli/commands/setup-client.js';
import { run as setupUnity } from '../../src/cli/commands/setup-unity.js';
import { ExitError } from '../../src/cli/exit-error.js';
import { cleanupProcesses, createWorkspace, type Workspace } from '../helpers/processes.js';
import { clientEnv, tether } from './setup-clients-helpers.js';

afterEach(cleanupProcesses);

/** The one path a rename onto fails, in this process. */
const refused = vi.hoisted(() => ({ target: undefined as string | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const renameSync = (from: PathLike, to: PathLike): void => {
    if (String(to) === refused.target) {
      throw Object.assign(new Error(`EPERM: operation not permitted, rename '${String(from)}' -> '${String(to)}'`), { errno: -1, code: 'EPERM', syscall: 'rename' });
    }
    fs.renameSync(from, to);
  };
  return { ...fs, renameSync };
});

afterEach(() => {
  refused.target = undefined;
});

/** The same refusal in the real CLI: a preload that NODE_OPTIONS hands to bin/tether.js. */
function refusingEnv(workspace: Workspace, env: NodeJS.ProcessEnv, target: string): NodeJS.ProcessEnv {
  const preload = join(dirname(workspace.home), 'refuse-rename.cjs');
  writeFileSync(
    preload,
    `'use strict';
const fs = require('node:fs');
const rename = fs.renameSync;
fs.renameSync = function (from, to) {
  if (String(to) === process.env.TETHER_TEST_REFUSED_RENAME) {
    throw Object.assign(new Error("EPERM: operation not permitted, rename '" + from + "' -> '" + to + "'"), { errno: -1, code: 'EPERM', syscall: 'rename' });
  }
  return rename.apply(this, arguments);
};
require('node:module').syncBuiltinESMExports();
`,
  );
  const nodeOptions = [env.NODE_OPTIONS, `--require ${JSON.stringify(preload)}`].filter(Boolean).join(' ');
  return { ...env, NODE_OPTIONS: nodeOptions, TETHER_TEST_REFUSED_RENAME: target };
}

interface Case {
  name: string;
  /** The file the command replaces, made with `original` in it; the command, in process and as CLI arguments. */
  prepare(workspace: Workspace): { target: string; env: NodeJS.ProcessEnv; inProcess(): void; cli: string[] };
  holder: string;
}

const ORIGINAL = `${JSON.stringify({ dependencies: { 'com.unity.ugui': '1.0.0' }, mcpServers: { github: { command: 'npx', args: ['-y', 'gh-mcp'] } } }, null, 2)}\n`;

const CASES: Case[] = [
  {
    name: 'tether setup unity',
    holder: 'Unity',
    prepare(workspace) {
      mkdirSync(join(workspace.project, 'ProjectSettings'), { recursive: true });
      writeFileSync(join(workspace.project, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 2022.3.10f1\n');
      const target = join(workspace.project, 'Packages', 'manifest.json');
      writeFileSync(target, ORIGINAL);
      return { target, env: workspace.env, inProcess: () => setupUnity({ project: workspace.project }), cli: ['setup', 'unity', '--project', workspace.project] };
    },
  },
  {
    name: 'tether setup cursor',
    holder: 'the MCP client',
    prepare(workspace) {
      const { home, env } = clientEnv(workspace);
      const target = join(workspace.project, '.cursor', 'mcp.json');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, ORIGINAL);
      const ctx = { platform: process.platform, home, env, paths: process.platform === 'win32' ? path.win32 : path.posix };
      return { target, env, inProcess: () => setupClient('cursor', { project: workspace.project }, ctx), cli: ['setup', 'cursor'] };
    },
  },
];

function expectUntouched(target: string): void {
  expect(readFileSync(target, 'utf8')).toBe(ORIGINAL);
  expect(readdirSync(dirname(target))).toEqual([path.basename(target)]); // no .tether-….tmp, no .tether-backup-…
}

describe.each(CASES)('$name when the file cannot be replaced (EPERM on the rename)', ({ prepare, holder }) => {
  it('in process: an ExitError (exit 1) saying what to do; the file as it was, nothing beside it', () => {
    const workspace = createWorkspace();
    const { target, inProcess } = prepare(workspace);
    refused.target = target;
    let thrown: unknown;
    try {
      inProcess();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ExitError);
    expect((thrown as ExitError).exitCode).toBe(1);
    expect((thrown as ExitError).message).toBe(
      `Could not replace ${target}: EPERM. It was left as it was. Close ${holder} if it has the file open, check that you may write the file and its folder, then run this again.`,
    );
    expectUntouched(target);
  });

  it('the real CLI (needs npm run build): exit 1 with that message, not "unexpected error"; the file as it was, nothing beside it', async () => {
    const workspace = createWorkspace();
    const { target, env, cli } = prepare(workspace);
    const result = await tether(refusingEnv(workspace, env, target), workspace.project, ...cli);
    expect(result.stderr).not.toContain('unexpected error');
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`tether: Could not replace ${target}: EPERM. It was left as it was. Close ${holder} if it has the file open`);
    expectUntouched(target);
  });
});
