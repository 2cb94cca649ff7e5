/**
 * What the structure checks ask of an item: is it this punctuation or keyword, does it end an
 * expression, may it start a statement or a member, is there a line break before it. The
 * missing-semicolon rule rests on these: an expression that ends a line, followed on the next
 * line by what can only start something new, lacks its ";".
 */
import { firstToken, isGroup, lastToken, type Group, type Item } from './brackets.js';
import type { DiagnosticBag } from './diagnostics.js';
import type { Token } from './lexer.js';

export const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

export const PREDEFINED_TYPES = words('bool byte char decimal double float int long object sbyte short string uint ulong ushort void');

/** Modifiers of types and members (async and partial are contextual, but only modifiers where they appear first). */
export const MODIFIERS = words('public private protected internal static readonly const override virtual abstract sealed extern unsafe volatile new partial async');

export const TYPE_KEYWORDS = words('class struct interface enum record delegate');

/** Contextual words that continue an expression on the next line (queries, patterns, with, catch filters). */
const CONTINUATIONS = words('where select from group into orderby join let on equals by ascending descending and or not with when');

const STATEMENT_KEYWORDS = words('return if for foreach while do switch break continue throw try using lock goto const fixed unsafe new this base else case');

const EXPRESSION_END_KEYWORDS = words('true false null this base default break continue');

export function isToken(item: Item | undefined): item is Token {
  return item !== undefined && !isGroup(item);
}

// Narrowing to a token of one kind leaves other tokens possible when the test fails.
type TokenOf<Kind extends Token['kind']> = Token & { kind: Kind };

export function isPunct(item: Item | undefined, text: string): item is TokenOf<'punctuation'> {
  return isToken(item) && item.kind === 'punctuation' && item.text === text;
}

export function isKeyword(item: Item | undefined, text?: string): item is TokenOf<'keyword'> {
  return isToken(item) && item.kind === 'keyword' && (text === undefined || item.text === text);
}

export function isIdentifier(item: Item | undefined, text?: string): item is TokenOf<'identifier'> {
  return isToken(item) && item.kind === 'identifier' && (text === undefined || item.text === text);
}

export function isGroupOf(item: Item | undefined, open: '{' | '(' | '['): item is Group {
  return isGroup(item) && item.open.text === open;
}

/** A line break separates `before` from `after`. */
export function newLineBetween(before: Item, after: Item): boolean {
  return firstToken(after).line > lastToken(before).endLine;
}

/** The item can be the last of an expression (or of a complete statement such as "break"). */
export function endsExpression(item: Item): boolean {
  if (isGroup(item)) return item.close !== undefined;
  switch (item.kind) {
    case 'identifier':
    case 'number':
    case 'string':
    case 'char':
      return true;
    case 'keyword':
      return EXPRESSION_END_KEYWORDS.has(item.text) || PREDEFINED_TYPES.has(item.text);
    default:
      return item.text === '++' || item.text === '--';
  }
}

/** The item can only start a new statement or member, never continue an expression on the line before. */
export function startsSomethingNew(item: Item, inTypeBody: boolean): boolean {
  if (isGroup(item)) return inTypeBody && item.open.text === '[';
  if (item.kind === 'identifier') return !CONTINUATIONS.has(item.text);
  if (item.kind !== 'keyword') return false;
  if (PREDEFINED_TYPES.has(item.text)) return true;
  return inTypeBody ? MODIFIERS.has(item.text) || TYPE_KEYWORDS.has(item.text) || item.text === 'event' : STATEMENT_KEYWORDS.has(item.text);
}

/** CS1002 just after `item`, as Roslyn places it; none after a group left open (its missing closer is the error). */
export function semicolonExpected(bag: DiagnosticBag, item: Item): void {
  if (isGroup(item) && !item.close) return;
  bag.add(lastToken(item).end, 'CS1002', '; expected');
}

/**
 * Whether `next` starts something new on a line of its own after an expression that lacks its
 * ";" (`pending` is what the statement or member holds so far).
 */
export function lacksSemicolonBefore(pending: readonly Item[], next: Item, inTypeBody: boolean): boolean {
  const last = pending.at(-1);
  if (!last || !newLineBetween(last, next) || !endsExpression(last) || !startsSomethingNew(next, inTypeBody)) return false;
  // One word alone ("int", "x") may be a declaration split over two lines; "break" and "continue" are whole.
  return pending.length >= 2 || isKeyword(last, 'break') || isKeyword(last, 'continue');
}

/** The index after the attribute sections ("[…]") starting at `from`. */
export function skipAttributes(items: readonly Item[], from: number): number {
  let at = from;
  while (isGroupOf(items[at], '[')) at++;
  return at;
}

/** The index after the modifiers starting at `from` (a contextual one only when more follows). */
export function skipModifiers(items: readonly Item[], from: number): number {
  let at = from;
  for (;;) {
    const item = items[at];
    if (!isToken(item) || !MODIFIERS.has(item.text) || (item.kind === 'identifier' && !isToken(items[at + 1]))) return at;
    at++;
  }
}
