/**
 * Tokens to a tree of bracketed groups ({…}, (…), […]), reporting every bracket left open or
 * closed without an opening, where a compiler would: a group still open at the end of the file
 * where the file ends, a group cut short by the closer of an outer one at that closer, a stray
 * closer where it is. Generic angle brackets are not brackets here (a < b is a comparison).
 */
import type { DiagnosticBag } from './diagnostics.js';
import type { Token } from './lexer.js';

export interface Group {
  /** The "{", "(" or "[" token. */
  open: Token;
  /** Its closer, or undefined when the group was never closed. */
  close?: Token;
  items: Item[];
}

export type Item = Token | Group;

export function isGroup(item: Item | undefined): item is Group {
  return item !== undefined && 'items' in item;
}

/** The first token of an item (a group's opener). */
export function firstToken(item: Item): Token {
  return isGroup(item) ? item.open : item;
}

/** The last token of an item (a group's closer, or its last token when unclosed). */
export function lastToken(item: Item): Token {
  if (!isGroup(item)) return item;
  if (item.close) return item.close;
  const last = item.items.at(-1);
  return last ? lastToken(last) : item.open;
}

const CLOSER: Record<string, string> = { '{': '}', '(': ')', '[': ']' };

const EXPECTED: Record<string, [code: string, text: string]> = {
  '}': ['CS1513', '} expected'],
  ')': ['CS1026', ') expected'],
  ']': ['CS1003', "Syntax error, ']' expected"],
};

/** The file's items at the top level, with every group inside them. */
export function groupTokens(tokens: readonly Token[], bag: DiagnosticBag, endOffset: number): Item[] {
  const root: Item[] = [];
  const open: Group[] = [];
  const itemsOf = (): Item[] => open.at(-1)?.items ?? root;
  const expect = (group: Group, offset: number): void => {
    const [code, text] = EXPECTED[CLOSER[group.open.text]!]!;
    bag.add(offset, code, text, 'error', true);
  };
  for (const token of tokens) {
    const text = token.kind === 'punctuation' ? token.text : '';
    if (text === '{' || text === '(' || text === '[') {
      const group: Group = { open: token, items: [] };
      itemsOf().push(group);
      open.push(group);
    } else if (text === '}' || text === ')' || text === ']') {
      const depth = findLastIndex(open, (group) => CLOSER[group.open.text] === text);
      if (depth < 0) {
        if (text === '}') bag.add(token.start, 'CS1022', 'Type or namespace definition, or end-of-file expected');
        else bag.add(token.start, 'CS1525', `Invalid expression term '${text}'`);
        continue;
      }
      // The groups opened inside the one this closes were never closed.
      while (open.length - 1 > depth) expect(open.pop()!, token.start);
      open.pop()!.close = token;
    } else {
      itemsOf().push(token);
    }
  }
  while (open.length > 0) expect(open.pop()!, endOffset);
  return root;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
