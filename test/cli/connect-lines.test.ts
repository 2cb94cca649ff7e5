/**
 * The lines `tether start` prints to connect an agent, as strings: on Windows for PowerShell
 * (`&` before a quoted program, `$env:` lines, Get-Content, a quoted `--`), elsewhere for a
 * POSIX shell as before. start.test.ts pastes the POSIX call line into sh.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectLines, terminalLines } from '../../src/cli/clients/connect-lines.js';

const execPath = process.execPath;
const PROJECT = 'D:\\Unity\\My Game';
afterEach(() => {
  Object.defineProperty(process, 'execPath', { value: execPath });
});

describe('connectLines on Windows', () => {
  const node = 'C:\\Program Files\\nodejs\\node.exe';
  const bin = 'C:\\Users\\ana\\AppData\\Roaming\\npm\\node_modules\\tether-mcp\\bin\\tether.js';
  beforeEach(() => {
    Object.defineProperty(process, 'execPath', { value: node });
  });

  it('prints PowerShell: $env:TETHER_HOME on its own line, & before the quoted node, Get-Content for the token', () => {
    const lines = connectLines({ platform: 'win32', bin, project: PROJECT, tokenFile: 'C:\\Users\\ana\\AppData\\Local\\tether\\serve-token', env: { TETHER_HOME: 'D:\\tether home' } });
    const tether = `& 'C:\\Program Files\\nodejs\\node.exe' ${bin}`;
    expect(lines.slice(1, 5)).toEqual([
      "  $env:TETHER_HOME = 'D:\\tether home'",
      `  ${tether} setup claude-code --project 'D:\\Unity\\My Game'`,
      `    (or claude-desktop, cursor, vscode, windsurf, codex, gemini; ${tether} setup alone lists the clients found here)`,
      `  ${tether} doctor --client claude-code --project 'D:\\Unity\\My Game'   (starts what the client would, and checks each step)`,
    ]);
    expect(lines).toContain("TETHER_TOKEN environment variable, never from its file: $env:TETHER_TOKEN = Get-Content 'C:\\Users\\ana\\AppData\\Local\\tether\\serve-token'");
    expect(lines.find((line) => line.startsWith('  Claude Code:'))).toMatch(
      /^ {2}Claude Code: claude mcp add --transport stdio tether --env TETHER_HOME='D:\\tether home' '--' 'C:\\Program Files\\nodejs\\node\.exe' \S+ mcp --project 'D:\\Unity\\My Game'$/,
    );
    expect(lines.join('\n')).not.toMatch(/export |\$\(cat|TETHER_HOME=\S* &|^ {2}"C:/m);
  });

  it('prints no $env: line without a TETHER_HOME of its own', () => {
    const lines = connectLines({ platform: 'win32', bin, project: PROJECT, tokenFile: 'C:\\t\\serve-token', env: {} });
    expect(lines[1]).toBe(`  & 'C:\\Program Files\\nodejs\\node.exe' ${bin} setup claude-code --project 'D:\\Unity\\My Game'`);
    expect(lines.join('\n')).not.toContain('$env:TETHER_HOME');
  });

  it('prints the terminal lines for PowerShell', () => {
    expect(terminalLines({ platform: 'win32', bin: 'C:\\Program Files\\tether\\bin\\tether.js', project: PROJECT })).toEqual([
      "From a terminal: node 'C:\\Program Files\\tether\\bin\\tether.js' tools --project 'D:\\Unity\\My Game'   (the tools and their arguments)",
      "                 node 'C:\\Program Files\\tether\\bin\\tether.js' call get_hierarchy --project 'D:\\Unity\\My Game'",
    ]);
  });
});

describe('connectLines elsewhere', () => {
  it('prints the POSIX forms as before: TETHER_HOME inline, export with cat', () => {
    Object.defineProperty(process, 'execPath', { value: '/usr/local/bin/node' });
    const lines = connectLines({
      platform: 'darwin',
      bin: '/opt/tether/bin/tether.js',
      project: '/Users/me/My Game',
      tokenFile: '/Users/me/Library/Application Support/tether/serve-token',
      env: { TETHER_HOME: '/Users/me/t home' },
    });
    const tether = "TETHER_HOME='/Users/me/t home' /usr/local/bin/node /opt/tether/bin/tether.js";
    expect(lines[1]).toBe(`  ${tether} setup claude-code --project '/Users/me/My Game'`);
    expect(lines).toContain(`TETHER_TOKEN environment variable, never from its file: export TETHER_TOKEN="$(cat '/Users/me/Library/Application Support/tether/serve-token')"`);
    expect(lines.find((line) => line.startsWith('  Claude Code:'))).toMatch(/ --env TETHER_HOME='\/Users\/me\/t home' -- \/usr\/local\/bin\/node \S+ mcp --project '\/Users\/me\/My Game'$/);
    expect(terminalLines({ platform: 'darwin', bin: '/opt/tether/bin/tether.js', project: '/Users/me/My Game', home: '/Users/me/t home' })[1]).toBe(
      "                 node /opt/tether/bin/tether.js call get_hierarchy --project '/Users/me/My Game'",
    );
  });
});
