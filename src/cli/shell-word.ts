/**
 * Command lines that people paste into a shell, as `tether start` prints them: for a POSIX
 * shell, and on Windows for PowerShell, its default shell (cmd reads neither `&` nor `$env:`).
 * The paths in them hold spaces by default on macOS (~/Library/Application Support) and often
 * on Windows (C:\Program Files, a user name). The platform is chosen here and nowhere else.
 *
 * POSIX words get single quotes, which keep everything as it is but a single quote. PowerShell
 * words get single quotes too: in double quotes PowerShell expands `$name` and backtick escapes,
 * and ends the string at a typographic double quote, all of which a Windows path may hold; in
 * single quotes only the single quotes (the typographic ones included) are special, doubled.
 */

export interface Shell {
  /** A value as one word of a command line. */
  word(value: string): string;
  /**
   * The command line of `words` (the first the program), with `env` set for it. POSIX says
   * that inline (`NAME=value program …`, for this command alone); PowerShell cannot, so there
   * `env` is set by the lines of envLines, to be printed before. PowerShell reads a quoted
   * first word as a string expression and the rest as a parse error: it gets the call
   * operator (`& 'C:\Program Files\nodejs\node.exe' …`).
   */
  command(words: readonly string[], env?: Readonly<Record<string, string>>): string;
  /** What sets `env` before command lines, where it cannot be said inline: PowerShell's `$env:NAME = '…'` (for the rest of the session). */
  envLines(env: Readonly<Record<string, string>>): string[];
  /** Sets an environment variable to a file's content (one line, without its line end), for the rest of the session. */
  variableFromFile(name: string, file: string): string;
  /**
   * `--`, the end of a command's options, as a word. PowerShell swallows a bare `--` before
   * a PowerShell command (npm's claude.ps1 shim, say) as the end of its own parameters; a
   * quoted one is passed on, to a native program too.
   */
  readonly endOfOptions: string;
}

const posix: Shell = {
  word: (value) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`),
  command: (words, env = {}) => [...Object.entries(env).map(([name, value]) => `${name}=${posix.word(value)}`), ...words.map((word) => posix.word(word))].join(' '),
  envLines: () => [],
  variableFromFile: (name, file) => `export ${name}="$(cat ${posix.word(file)})"`,
  endOfOptions: '--',
};

const powershell: Shell = {
  // Bare words without what PowerShell reads into them: `@` splats, `,` makes an array.
  word: (value) => (/^[\w%+=:./\\-]+$/.test(value) ? value : `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}'`),
  command: (words) => {
    const line = words.map((word) => powershell.word(word)).join(' ');
    return line.startsWith("'") ? `& ${line}` : line;
  },
  envLines: (env) => Object.entries(env).map(([name, value]) => `$env:${name} = ${quotedForPowerShell(value)}`),
  variableFromFile: (name, file) => `$env:${name} = Get-Content ${quotedForPowerShell(file)}`,
  endOfOptions: "'--'",
};

/** The shell of the lines printed on `platform`: PowerShell on Windows, a POSIX shell elsewhere. */
export function shellFor(platform: NodeJS.Platform = process.platform): Shell {
  return platform === 'win32' ? powershell : posix;
}

/** A value as one word of a command line for the shell of `platform` (see shellFor). */
export function shellWord(value: string, platform: NodeJS.Platform = process.platform): string {
  return shellFor(platform).word(value);
}

/** Always quoted: the value of an assignment is an expression, where a bare path would be a command. */
function quotedForPowerShell(value: string): string {
  const word = powershell.word(value);
  return word.startsWith("'") ? word : `'${word}'`;
}
