/**
 * shellWord and shellFor: what Tether prints for people to paste must come back from the shell
 * as the value it was. POSIX is checked by a real shell; Windows, where the lines are for
 * PowerShell (its default shell), by the forms PowerShell takes, and by PowerShell itself
 * where `pwsh` is on the PATH.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellFor, shellWord } from '../../src/cli/shell-word.js';

const PWSH = spawnSync('pwsh', ['-NoProfile', '-NonInteractive', '-Command', '$PSVersionTable.PSVersion.Major'], { encoding: 'utf8', timeout: 30_000 }).status === 0;

/** Runs PowerShell lines; what they print. */
function pwsh(lines: string[]): string {
  return execFileSync('pwsh', ['-NoProfile', '-NonInteractive', '-Command', lines.join('\n')], { encoding: 'utf8' });
}

/** A Windows file name's characters: anything but the reserved ones (and no double quote) and control characters. */
const windowsName = fc.string({ minLength: 1, maxLength: 16, unit: 'grapheme' }).filter((value) => [...value].every((c) => c >= ' ' && !'<>:"/\\|?*'.includes(c)));

describe('shellWord', () => {
  it('comes back from sh as the value it was, whatever the value holds', () => {
    const values = fc.sample(
      fc.string({ minLength: 1, unit: 'binary' }).filter((value) => !value.includes('\0')),
      { numRuns: 40, seed: 24 },
    );
    const tricky = ['/Users/me/Library/Application Support/tether', "it's", '$HOME', '`id`', '*', 'a b\tc\nd', '"quoted"', '\\'];
    const words = [...tricky, ...values];
    // One sh for all: each word printed on its own, NUL-separated.
    const printed = execFileSync('sh', ['-c', words.map((word) => `printf '%s\\0' ${shellWord(word, 'linux')}`).join('; ')]).toString('utf8');
    expect(printed.split('\0').slice(0, -1)).toEqual(words);
  });

  it('leaves a plain word as it is', () => {
    expect(shellWord('/opt/tether/bin/tether.js', 'darwin')).toBe('/opt/tether/bin/tether.js');
    expect(shellWord('C:\\tools\\tether\\bin\\tether.js', 'win32')).toBe('C:\\tools\\tether\\bin\\tether.js');
  });

  it("puts a Windows path that is not plain in PowerShell's single quotes, where only single quotes are special", () => {
    expect(shellWord('C:\\Program Files\\tether\\bin\\tether.js', 'win32')).toBe("'C:\\Program Files\\tether\\bin\\tether.js'");
    expect(shellWord('C:\\Users\\Ana María\\Unity\\My Game', 'win32')).toBe("'C:\\Users\\Ana María\\Unity\\My Game'");
    // `$x` and backticks would be expanded in double quotes, and a typographic quote would end them.
    expect(shellWord("D:\\$x `n\\O’Brien\\it's\\“a”", 'win32')).toBe("'D:\\$x `n\\O’’Brien\\it''s\\“a”'");
    expect(shellWord('C:\\Users\\me@work,x', 'win32')).toBe("'C:\\Users\\me@work,x'"); // `@` splats, `,` makes an array
  });

  it.skipIf(!PWSH)(`comes back from PowerShell as the value it was, as an argument of a program${PWSH ? '' : ' (skipped: no pwsh on the PATH)'}`, () => {
    const values = fc.sample(windowsName, { numRuns: 40, seed: 24 });
    const words = ["it's", '$HOME', '`n', 'O’Brien', '“a”', '@at', 'a,b', 'C:\\Program Files\\x', '%PATH%', '-x', ...values];
    const show = 'process.stdout.write(JSON.stringify(process.argv.slice(1)))';
    expect(JSON.parse(pwsh([shellFor('win32').command([process.execPath, '-e', show, ...words])]))).toEqual(words);
  });
});

describe('shellFor', () => {
  it('keeps the POSIX forms: the environment inline, export with cat', () => {
    const sh = shellFor('linux');
    expect(sh.command(['/usr/bin/node', '/opt/my tether/bin/tether.js', 'setup'], { TETHER_HOME: "/home/it's" })).toBe(
      "TETHER_HOME='/home/it'\\''s' /usr/bin/node '/opt/my tether/bin/tether.js' setup",
    );
    expect(sh.envLines({ TETHER_HOME: '/x' })).toEqual([]);
    expect(sh.variableFromFile('TETHER_TOKEN', '/Users/me/Library/Application Support/tether/serve-token')).toBe(
      `export TETHER_TOKEN="$(cat '/Users/me/Library/Application Support/tether/serve-token')"`,
    );
    expect(sh.endOfOptions).toBe('--');
  });

  it('gives PowerShell the call operator before a quoted program, $env: lines, and Get-Content', () => {
    const ps = shellFor('win32');
    expect(ps.command(['C:\\Program Files\\nodejs\\node.exe', 'C:\\tether\\bin\\tether.js', 'setup', 'claude-code', '--project', 'D:\\Unity\\My Game'], { TETHER_HOME: 'D:\\t' })).toBe(
      "& 'C:\\Program Files\\nodejs\\node.exe' C:\\tether\\bin\\tether.js setup claude-code --project 'D:\\Unity\\My Game'",
    );
    expect(ps.command(['node', 'C:\\Program Files\\tether\\bin\\tether.js', 'tools'])).toBe("node 'C:\\Program Files\\tether\\bin\\tether.js' tools");
    expect(ps.envLines({ TETHER_HOME: 'D:\\tether home' })).toEqual(["$env:TETHER_HOME = 'D:\\tether home'"]);
    expect(ps.envLines({ TETHER_HOME: 'D:\\home' })).toEqual(["$env:TETHER_HOME = 'D:\\home'"]);
    expect(ps.variableFromFile('TETHER_TOKEN', 'C:\\Users\\ana\\AppData\\Local\\tether\\serve-token')).toBe("$env:TETHER_TOKEN = Get-Content 'C:\\Users\\ana\\AppData\\Local\\tether\\serve-token'");
    expect(ps.endOfOptions).toBe("'--'");
  });

  it.skipIf(!PWSH)(`runs in PowerShell as printed: a program under a folder with a space, its environment, a token file, -- to a script${PWSH ? '' : ' (skipped: no pwsh on the PATH)'}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "tether-ps O'Brien $x "));
    try {
      const ps = shellFor('win32');
      const node = join(dir, 'node js');
      symlinkSync(process.execPath, node);
      const script = join(dir, 'show args.js');
      writeFileSync(script, 'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), home: process.env.TETHER_HOME, token: process.env.TETHER_TOKEN }))');
      // As npm's shim for a command on Windows (claude.ps1): PowerShell takes a bare -- as its own.
      const shim = join(dir, 'claude.ps1');
      writeFileSync(shim, `& ${ps.word(node)} ${ps.word(script)} $args\n`);
      const tokenFile = join(dir, 'serve-token');
      writeFileSync(tokenFile, 'the-token\n');
      const env = { TETHER_HOME: join(dir, 'home `n') };
      const project = join(dir, 'My Game');
      const run = (line: string) => JSON.parse(pwsh([...ps.envLines(env), ps.variableFromFile('TETHER_TOKEN', tokenFile), line])) as unknown;
      expect(run(ps.command([node, script, 'setup', '--project', project], env))).toEqual({ args: ['setup', '--project', project], home: env.TETHER_HOME, token: 'the-token' });
      expect(run(`${ps.command([shim, 'mcp', 'add'])} ${ps.endOfOptions} ${ps.word(project)}`)).toMatchObject({ args: ['mcp', 'add', '--', project] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
