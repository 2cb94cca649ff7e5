/**
 * What `tether` exits with: the one list. The entry point exits with these, `tether call`
 * returns them, and every command's --help prints the ones it can end with (helpFooter), so
 * the help, DEVELOPERS.md and the code cannot drift apart. Imports nothing: the entry point
 * loads it at every start, `tether mcp`'s included.
 */
export const EXIT_CODES = {
  ok: 0,
  /** A failed call or check; the editor could not be reached. */
  failed: 1,
  /** Bad usage: an unknown option, a bad value, a project that is not one, a port taken. */
  usage: 2,
  /** `tether call` whose outcome is unknown: it may have taken effect, or may still. */
  outcomeUnknown: 3,
  /**
   * `tether call` whose call completed, but whose result (or image) could not be written: apart
   * from `failed` because a script retrying on 1 would run the call again.
   */
  resultNotWritten: 4,
  /** A bug in Tether: please report it. */
  unexpected: 70,
} as const;

export type ExitCodeName = keyof typeof EXIT_CODES;

/** What each code means, as a command's --help says it; `specific` overrides the general meaning for one command. */
const MEANINGS: Record<ExitCodeName, string> = {
  ok: 'success',
  failed: 'failed',
  usage: 'bad usage (an unknown option or a bad value)',
  outcomeUnknown: 'outcome unknown',
  resultNotWritten: 'the call completed, but its result could not be written',
  unexpected: 'unexpected error (a bug: please report it)',
};

/** The help's closing section: examples, then the exit codes (the general ones plus what `specific` says). */
export function helpFooter(examples: string[], specific: Partial<Record<ExitCodeName, string>> = {}): string {
  const names = (Object.keys(EXIT_CODES) as ExitCodeName[]).filter((name) => name === 'ok' || name === 'usage' || name === 'unexpected' || specific[name] !== undefined);
  const codes = names.flatMap((name) => wrap(specific[name] ?? MEANINGS[name], 80 - 6).map((line, i) => `${i === 0 ? `  ${String(EXIT_CODES[name]).padStart(2)}  ` : ' '.repeat(6)}${line}`));
  return ['', 'Examples:', ...examples.map((example) => `  $ ${example}`), '', 'Exit codes:', ...codes].join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
