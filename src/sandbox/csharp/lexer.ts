/**
 * C# text to tokens, as far as the sandbox's checker needs them: identifiers and keywords,
 * numbers, strings (regular, verbatim, interpolated with their holes, which may hold strings
 * of their own), characters and punctuation. Comments, whitespace and preprocessor lines are
 * trivia; lines in a branch the preprocessor did not take are skipped unread. What cannot be
 * read (an unterminated string or comment, a stray character) is reported where it starts,
 * with Roslyn's code, and lexing goes on after it.
 */
import type { DiagnosticBag, LineMap } from './diagnostics.js';
import { Preprocessor } from './preprocessor.js';

export type TokenKind = 'identifier' | 'keyword' | 'number' | 'string' | 'char' | 'punctuation';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offsets into the source: [start, end). */
  start: number;
  end: number;
  /** The 1-based lines the token starts and ends on. */
  line: number;
  endLine: number;
}

const KEYWORDS = new Set(
  (
    'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event ' +
    'explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null ' +
    'object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string ' +
    'struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while'
  ).split(' '),
);

/** Whether `word` is one of C#'s reserved keywords (not a contextual one such as "var"). */
export function isReservedWord(word: string): boolean {
  return KEYWORDS.has(word);
}

const PUNCTUATION = ['<<=', '??=', '=>', '==', '!=', '<=', '>=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '??', '?.', '::', '->', '..'];
const SINGLE_PUNCTUATION = '{}()[];,.:?+-*/%&|^!~=<>';
const NUMBER = /(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|(?:\d[\d_]*)?(?:\.\d[\d_]*)?(?:[eE][+-]?\d[\d_]*)?)(?:[uU][lL]?|[lL][uU]?|[fFdDmM])?/y;
const IDENTIFIER_START = /[\p{L}\p{Nl}_]/u;
const IDENTIFIER_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\p{Cf}]/u;

const isNewline = (c: string | undefined): boolean => c === '\n' || c === '\r';

export function lex(text: string, lines: LineMap, bag: DiagnosticBag, defines?: Iterable<string>): Token[] {
  return new Lexer(text, lines, bag, new Preprocessor(bag, defines)).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];

  constructor(
    private readonly text: string,
    private readonly lines: LineMap,
    private readonly bag: DiagnosticBag,
    private readonly preprocessor: Preprocessor,
  ) {}

  run(): Token[] {
    const { text } = this;
    let lineStart = true;
    while (this.pos < text.length) {
      const c = text[this.pos]!;
      if (isNewline(c)) {
        this.pos++;
        lineStart = true;
      } else if (c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\uFEFF' || c === '\u00A0') {
        this.pos++;
      } else if (lineStart && c === '#') {
        const end = this.endOfLine(this.pos);
        this.preprocessor.directive(text.slice(this.pos + 1, end), this.pos);
        this.pos = end;
      } else if (!this.preprocessor.active) {
        this.pos = this.endOfLine(this.pos);
      } else {
        lineStart = false;
        this.next(c);
      }
    }
    this.preprocessor.finish(text.length);
    return this.tokens;
  }

  private next(c: string): void {
    const { text } = this;
    const start = this.pos;
    const after = text[start + 1];
    if (c === '/' && after === '/') {
      this.pos = this.endOfLine(start);
    } else if (c === '/' && after === '*') {
      const close = text.indexOf('*/', start + 2);
      if (close < 0) this.bag.add(start, 'CS1035', "End-of-file found, '*/' expected");
      this.pos = close < 0 ? text.length : close + 2;
    } else if (c === '"') {
      this.emit('string', start, this.regularString(start));
    } else if ((c === '@' && after === '"') || ((c === '@' || c === '$') && (after === '$' || after === '@') && text[start + 2] === '"') || (c === '$' && after === '"')) {
      this.emit('string', start, this.stringAt(start));
    } else if (c === "'") {
      this.emit('char', start, this.charLiteral(start));
    } else if (c === '@' && IDENTIFIER_START.test(after ?? '')) {
      this.emit('identifier', start, this.identifierEnd(start + 1));
    } else if (IDENTIFIER_START.test(c)) {
      const end = this.identifierEnd(start);
      this.emit(KEYWORDS.has(text.slice(start, end)) ? 'keyword' : 'identifier', start, end);
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(after ?? ''))) {
      NUMBER.lastIndex = start;
      NUMBER.exec(text);
      this.emit('number', start, Math.max(NUMBER.lastIndex, start + 1));
    } else {
      const multi = PUNCTUATION.find((p) => text.startsWith(p, start));
      if (multi) this.emit('punctuation', start, start + multi.length);
      else if (SINGLE_PUNCTUATION.includes(c)) this.emit('punctuation', start, start + 1);
      else {
        if (c === '@') this.bag.add(start, 'CS1646', 'Keyword, identifier, or string expected after verbatim specifier: @');
        else this.bag.add(start, 'CS1056', `Unexpected character '${c}'`);
        this.pos = start + 1;
      }
    }
  }

  private emit(kind: TokenKind, start: number, end: number): void {
    this.tokens.push({ kind, text: this.text.slice(start, end), start, end, line: this.lines.lineOf(start), endLine: this.lines.lineOf(Math.max(start, end - 1)) });
    this.pos = end;
  }

  private endOfLine(from: number): number {
    let at = from;
    while (at < this.text.length && !isNewline(this.text[at])) at++;
    return at;
  }

  private identifierEnd(from: number): number {
    let at = from;
    while (at < this.text.length && IDENTIFIER_PART.test(this.text[at]!)) at++;
    return at;
  }

  /** A string literal of any kind starting at `start` (its prefix included); returns where it ends. */
  private stringAt(start: number): number {
    const { text } = this;
    let at = start;
    let verbatim = false;
    let interpolated = false;
    while (text[at] === '@' || text[at] === '$') {
      if (text[at] === '@') verbatim = true;
      else interpolated = true;
      at++;
    }
    if (interpolated) return this.interpolatedString(start, at + 1, verbatim);
    return verbatim ? this.verbatimString(start, at + 1) : this.regularString(start);
  }

  /** "…" with \ escapes; a line break or the end of the text before its close: CS1010. */
  private regularString(start: number): number {
    const { text } = this;
    let at = start + 1;
    while (at < text.length) {
      const c = text[at]!;
      if (c === '"') return at + 1;
      if (isNewline(c)) break;
      at += c === '\\' && !isNewline(text[at + 1]) ? 2 : 1;
    }
    this.bag.add(start, 'CS1010', 'Newline in constant');
    return Math.min(at, text.length);
  }

  /** @"…" with "" for a quote, over any number of lines; unterminated: CS1039. */
  private verbatimString(start: number, from: number): number {
    const { text } = this;
    let at = from;
    while (at < text.length) {
      if (text[at] === '"') {
        if (text[at + 1] !== '"') return at + 1;
        at += 2;
      } else {
        at++;
      }
    }
    this.bag.add(start, 'CS1039', 'Unterminated string literal');
    return text.length;
  }

  /** $"…{hole}…" (or $@"…"): text with {{ and }} for braces, holes holding expressions (strings included). */
  private interpolatedString(start: number, from: number, verbatim: boolean): number {
    const { text } = this;
    let at = from;
    while (at < text.length) {
      const c = text[at]!;
      if (!verbatim && isNewline(c)) break;
      if (c === '"') {
        if (verbatim && text[at + 1] === '"') at += 2;
        else return at + 1;
      } else if (c === '\\' && !verbatim) {
        at += isNewline(text[at + 1]) ? 1 : 2;
      } else if (c === '{' || c === '}') {
        if (text[at + 1] === c) at += 2;
        else if (c === '{') at = this.hole(at + 1, verbatim);
        else {
          this.bag.add(at, 'CS8086', "A '}' character must be escaped (by doubling) in an interpolated string.");
          at++;
        }
      } else {
        at++;
      }
    }
    if (verbatim) this.bag.add(start, 'CS1039', 'Unterminated string literal');
    else this.bag.add(start, 'CS1010', 'Newline in constant');
    return Math.min(at, text.length);
  }

  /** An interpolation hole after its "{": the expression, then an optional ":format", up to its "}". */
  private hole(from: number, verbatim: boolean): number {
    const { text } = this;
    let at = from;
    let depth = 0;
    while (at < text.length) {
      const c = text[at]!;
      if (isNewline(c) && !verbatim) return at;
      if (c === '"' || ((c === '@' || c === '$') && /["@$]/.test(text[at + 1] ?? ''))) {
        at = c === '"' ? this.regularString(at) : this.stringAt(at);
      } else if (c === "'") {
        at = this.charLiteral(at);
      } else if (c === '(' || c === '[' || c === '{') {
        depth++;
        at++;
      } else if (c === ')' || c === ']' || (c === '}' && depth > 0)) {
        depth--;
        at++;
      } else if (c === '}') {
        return at + 1;
      } else if (c === ':' && depth === 0) {
        // The format: literal text up to the hole's "}".
        at++;
        while (at < text.length && text[at] !== '}' && text[at] !== '"' && !(isNewline(text[at]) && !verbatim)) at++;
        return text[at] === '}' ? at + 1 : at;
      } else {
        at++;
      }
    }
    return at;
  }

  /** 'x', '\n', '\u0041': one character; CS1010 when the line ends first, CS1011 empty, CS1012 too many. */
  private charLiteral(start: number): number {
    const { text } = this;
    let at = start + 1;
    let count = 0;
    while (at < text.length && text[at] !== "'" && !isNewline(text[at])) {
      const escaped = text[at] === '\\' && at + 1 < text.length && !isNewline(text[at + 1]) ? text[at + 1] : undefined;
      at += escaped === undefined ? 1 : 2;
      // \u0041, \x41, \U00000041: the hex digits belong to the one character.
      if (escaped === 'u' || escaped === 'x' || escaped === 'U') while (at < text.length && /[0-9a-fA-F]/.test(text[at]!)) at++;
      count++;
    }
    if (text[at] !== "'") {
      this.bag.add(start, 'CS1010', 'Newline in constant');
      return at;
    }
    if (count === 0) this.bag.add(start, 'CS1011', 'Empty character literal');
    else if (count > 1) this.bag.add(start, 'CS1012', 'Too many characters in character literal');
    return at + 1;
  }
}
