/**
 * A value as one word of a command line that people paste into a shell: the paths Tether
 * prints hold spaces by default on macOS (~/Library/Application Support) and often on Windows
 * (C:\Program Files, a user name). A POSIX shell gets single quotes, which keep everything as
 * it is but a single quote; on Windows, cmd and PowerShell both take a path in double quotes,
 * and a Windows path cannot hold one.
 */
export function shellWord(value: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return /^[\w@%+=:,./\\-]+$/.test(value) ? value : `"${value}"`;
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
