/**
 * shellWord: what Tether prints for people to paste must come back from the shell as the
 * value it was. POSIX is checked by a real shell; Windows by the form cmd and PowerShell take.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../src/cli/shell-word.js';

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

  it('puts a Windows path with a space in double quotes, as cmd and PowerShell both read it', () => {
    expect(shellWord('C:\\Program Files\\tether\\bin\\tether.js', 'win32')).toBe('"C:\\Program Files\\tether\\bin\\tether.js"');
    expect(shellWord('C:\\Users\\Ana María\\Unity\\My Game', 'win32')).toBe('"C:\\Users\\Ana María\\Unity\\My Game"');
  });
});
