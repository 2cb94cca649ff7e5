/**
 * A small byte mutator in the manner of AFL's havoc stage: from a corpus of valid inputs it
 * makes inputs that are almost valid, which reach deeper into a parser than random bytes do.
 * Deterministic for a given random source, so a seed replays every input.
 */
export type Random = () => number;

/** Bytes that parsers of JSON, HTTP and Content-Length frames treat specially. */
const INTERESTING = [0x00, 0xff, 0x7f, 0x80, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c, 0x0d, 0x0a, 0x20, 0x30, 0x39, 0x2d, 0x2e, 0x65, 0x25, 0x40, 0x23, 0x3f, 0x2f];
const INTERESTING_STRINGS = [
  '\r\n',
  '\r\n\r\n',
  '\n',
  '-1',
  '0',
  '99999999999999999999',
  '1e309',
  'NaN',
  '"',
  '\\u0000',
  '\\ud800',
  '[',
  ']]]]',
  '{"',
  'null',
  'true',
  '__proto__',
  'constructor',
  '%00',
  '\u2028',
  '\uffff',
  'Content-Length: ',
  'Host: ',
  ':',
];

export const int = (random: Random, below: number): number => Math.floor(random() * below);
export const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)] as T;

export class Mutator {
  constructor(
    private readonly random: Random,
    private readonly corpus: readonly Uint8Array[],
    /** The largest input made; longer ones are cut. */
    private readonly maxBytes = 16 * 1024,
  ) {
    if (corpus.length === 0) throw new Error('the mutator needs a corpus');
  }

  /** One input: a corpus entry with 1 to 6 mutations stacked. */
  next(): Buffer {
    let bytes: Buffer = Buffer.from(pick(this.random, this.corpus));
    const rounds = 1 + int(this.random, 6);
    for (let i = 0; i < rounds; i++) bytes = this.mutate(bytes);
    return bytes.length > this.maxBytes ? bytes.subarray(0, this.maxBytes) : bytes;
  }

  private mutate(bytes: Buffer): Buffer {
    const r = this.random;
    const at = bytes.length === 0 ? 0 : int(r, bytes.length);
    switch (int(r, 10)) {
      case 0: {
        // flip a bit
        if (bytes.length === 0) return bytes;
        const copy = Buffer.from(bytes);
        copy[at] = copy[at]! ^ (1 << int(r, 8));
        return copy;
      }
      case 1: {
        if (bytes.length === 0) return bytes;
        const copy = Buffer.from(bytes);
        copy[at] = pick(r, INTERESTING);
        return copy;
      }
      case 2:
        return Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(r, INTERESTING_STRINGS)), bytes.subarray(at)]);
      case 3: {
        // delete a range
        const length = 1 + int(r, Math.max(1, Math.min(64, bytes.length - at)));
        return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)]);
      }
      case 4: {
        // repeat a range, sometimes many times (deep brackets, long strings)
        const length = 1 + int(r, Math.max(1, Math.min(16, bytes.length - at)));
        const times = r() < 0.1 ? 200 + int(r, 2_000) : 1 + int(r, 8);
        const range = bytes.subarray(at, at + length);
        return Buffer.concat([bytes.subarray(0, at), ...Array.from({ length: times }, () => range), bytes.subarray(at)]);
      }
      case 5:
        // truncate
        return bytes.subarray(0, at);
      case 6: {
        // splice with another corpus entry
        const other = pick(r, this.corpus);
        const from = int(r, Math.max(1, other.length));
        return Buffer.concat([bytes.subarray(0, at), Buffer.from(other.subarray(from))]);
      }
      case 7: {
        // random bytes in
        const noise = Buffer.alloc(1 + int(r, 32));
        for (let i = 0; i < noise.length; i++) noise[i] = int(r, 256);
        return Buffer.concat([bytes.subarray(0, at), noise, bytes.subarray(at)]);
      }
      case 8: {
        // change a number: digits are lengths, ids and versions
        const text = bytes.toString('latin1');
        const numbers = [...text.matchAll(/\d+/g)];
        if (numbers.length === 0) return bytes;
        const chosen = pick(r, numbers);
        const replacement = pick(r, ['0', '-1', '1', '65536', '65537', '4294967296', '9007199254740993', String(int(r, 1_000_000)), '00', '1.5']);
        return Buffer.from(text.slice(0, chosen.index) + replacement + text.slice(chosen.index! + chosen[0].length), 'latin1');
      }
      default: {
        // swap two ranges' order
        const middle = at;
        return Buffer.concat([bytes.subarray(middle), bytes.subarray(0, middle)]);
      }
    }
  }
}

/** `count` random bytes. */
export function randomBytes(random: Random, count: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let i = 0; i < count; i++) bytes[i] = int(random, 256);
  return bytes;
}
