/**
 * Where every Tether process of a user finds its state, on each platform, computed here for all
 * of them (path.win32 and path.posix). The Unity package's TetherHomeTests hold the same cases:
 * an editor and a terminal must agree, whatever their working directories.
 */
import { describe, expect, it } from 'vitest';
import { tetherHome } from '../../src/discovery/tether-home.js';

describe('tetherHome', () => {
  it('is TETHER_HOME when absolute, on every platform', () => {
    const env = { TETHER_HOME: '/custom/home', XDG_STATE_HOME: '/xdg', LOCALAPPDATA: 'D:\\local' };
    for (const platform of ['darwin', 'win32', 'linux', 'freebsd'] as const) expect(tetherHome(env, platform, '/home/ana'), platform).toBe('/custom/home');
    expect(tetherHome({ TETHER_HOME: 'D:\\tether' }, 'win32', 'C:\\Users\\ana')).toBe('D:\\tether');
  });

  it("expands a leading ~ (an MCP client's env block does not), and takes a relative one from the home directory, never the working directory", () => {
    expect(tetherHome({ TETHER_HOME: '~/tether' }, 'linux', '/home/ana')).toBe('/home/ana/tether');
    expect(tetherHome({ TETHER_HOME: '~' }, 'darwin', '/Users/ana')).toBe('/Users/ana');
    expect(tetherHome({ TETHER_HOME: '~\\tether' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\tether');
    expect(tetherHome({ TETHER_HOME: '~/tether' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\tether');
    expect(tetherHome({ TETHER_HOME: 'state/tether' }, 'linux', '/home/ana')).toBe('/home/ana/state/tether');
    expect(tetherHome({ TETHER_HOME: 'state\\tether' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\state\\tether');
    // "~name" is not a home directory here (no user lookup): a relative name like any other.
    expect(tetherHome({ TETHER_HOME: '~bob/tether' }, 'linux', '/home/ana')).toBe('/home/ana/~bob/tether');
  });

  it('ignores an empty TETHER_HOME, and an empty or relative XDG_STATE_HOME or LOCALAPPDATA, as the XDG spec says', () => {
    expect(tetherHome({ TETHER_HOME: '' }, 'linux', '/home/ana')).toBe('/home/ana/.local/state/tether');
    expect(tetherHome({ XDG_STATE_HOME: '' }, 'linux', '/home/ana')).toBe('/home/ana/.local/state/tether');
    expect(tetherHome({ XDG_STATE_HOME: 'rel/state' }, 'linux', '/home/ana')).toBe('/home/ana/.local/state/tether');
    expect(tetherHome({ XDG_STATE_HOME: '/var/state/' }, 'linux', '/home/ana')).toBe('/var/state/tether');
    expect(tetherHome({ LOCALAPPDATA: '' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Local\\tether');
    expect(tetherHome({ LOCALAPPDATA: 'Local' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Local\\tether');
    expect(tetherHome({ LOCALAPPDATA: 'D:\\Data\\Local' }, 'win32', 'C:\\Users\\ana')).toBe('D:\\Data\\Local\\tether');
  });

  it("is each platform's per-user state directory otherwise", () => {
    expect(tetherHome({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/tether');
    expect(tetherHome({}, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Local\\tether');
    expect(tetherHome({}, 'linux', '/home/ana')).toBe('/home/ana/.local/state/tether');
    expect(tetherHome({ XDG_STATE_HOME: '/xdg', LOCALAPPDATA: 'D:\\local' }, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/tether');
  });
});
