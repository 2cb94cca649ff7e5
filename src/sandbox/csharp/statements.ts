/**
 * Statements in a block (a method, accessor, lambda or local function body): each ends with
 * ";" or is a block of its own, so a statement that is still open when a line starts with what
 * only a new statement can start, or when its block closes, lacks its ";" (CS1002). Braces
 * are told apart as a compiler reads them: a block after a control header ("if (…)", "else",
 * "try"…) or alone, a switch body, a lambda's body, or part of an expression (an initializer,
 * a switch expression), whose lambdas are checked in turn.
 */
import { isGroup, type Item } from './brackets.js';
import type { DiagnosticBag } from './diagnostics.js';
import { PREDEFINED_TYPES, isGroupOf, isIdentifier, isKeyword, isPunct, isToken, lacksSemicolonBefore, semicolonExpected, words } from './syntax.js';

/** Keywords followed by a parenthesized header and then the statement they govern. */
const HEADED = words('if while for foreach using lock fixed switch catch');

/** Keywords that govern the statement or block right after them. */
const BARE_HEADERS = words('else do try finally');

/** Keywords that govern a block when one follows at once ("catch {", "unchecked {"); elsewhere they are expressions or take a header. */
const BLOCK_HEADERS = words('catch checked unchecked unsafe');

type BraceKind = 'block' | 'switch' | 'lambda' | 'expression';

export class StatementChecker {
  constructor(private readonly bag: DiagnosticBag) {}

  /** The statements of a block's items; `isSwitch` for a switch body (its case labels end with ":"). */
  block(items: readonly Item[], isSwitch = false): void {
    let pending: Item[] = [];
    let switchBodyNext = false;
    for (let k = 0; k < items.length; k++) {
      const item = items[k]!;
      if (pending.length > 0 && lacksSemicolonBefore(pending, item, false)) {
        semicolonExpected(this.bag, pending.at(-1)!);
        pending = [];
      }
      if (isPunct(item, ';')) {
        pending = [];
        continue;
      }
      if (pending.length === 0 && this.isHeaderWord(item, items[k + 1])) continue;
      if (pending.length === 0 && (isSwitch || isIdentifier(item))) {
        const labelEnd = this.labelEnd(items, k, isSwitch);
        if (labelEnd >= 0) {
          k = labelEnd;
          continue;
        }
      }
      if (isGroupOf(item, '{')) {
        const kind: BraceKind = switchBodyNext ? 'switch' : this.braceKind(pending);
        switchBodyNext = false;
        if (kind === 'block' || kind === 'switch') {
          this.block(item.items, kind === 'switch');
          pending = [];
        } else {
          if (kind === 'lambda') this.block(item.items);
          else this.expression(item.items);
          pending.push(item);
        }
        continue;
      }
      if (isGroup(item)) this.expression(item.items);
      pending.push(item);
      // "if (…)", "catch (…) when (…)": what follows is the statement they govern.
      const keyword = pending[0];
      if (isGroupOf(item, '(') && pending.length === 2 && isToken(keyword) && (HEADED.has(keyword.text) || isIdentifier(keyword, 'when'))) {
        switchBodyNext = keyword.text === 'switch';
        pending = [];
      }
    }
    if (pending.length > 0) semicolonExpected(this.bag, pending.at(-1)!);
  }

  /** Walks an expression's groups for lambda bodies ("=> {…}", "delegate {…}"), whose statements are checked. */
  expression(items: readonly Item[]): void {
    for (let k = 0; k < items.length; k++) {
      const item = items[k]!;
      if (!isGroup(item)) continue;
      if (isGroupOf(item, '{') && this.braceKind(items.slice(0, k)) === 'lambda') this.block(item.items);
      else this.expression(item.items);
    }
  }

  /** else, do, try, finally, and catch/checked/unchecked/unsafe right before a block: they govern the next statement. */
  private isHeaderWord(item: Item, next: Item | undefined): boolean {
    if (isKeyword(item) && BARE_HEADERS.has(item.text)) return true;
    return isKeyword(item) && BLOCK_HEADERS.has(item.text) && isGroupOf(next, '{');
  }

  /** The index of the ":" ending a label at `k` ("case 1:", "default:", "retry:"), or -1. */
  private labelEnd(items: readonly Item[], k: number, isSwitch: boolean): number {
    const item = items[k];
    if (isIdentifier(item) && isPunct(items[k + 1], ':')) return k + 1;
    const isCase = isKeyword(item, 'case') || (isKeyword(item, 'default') && isPunct(items[k + 1], ':'));
    if (!isSwitch || !isCase) return -1;
    for (let j = k + 1; j < items.length; j++) {
      if (isPunct(items[j], ':')) return j;
      if (isPunct(items[j], ';')) break;
    }
    return -1;
  }

  /** What a "{" after `before` (the statement so far) opens. */
  private braceKind(before: readonly Item[]): BraceKind {
    if (before.length === 0) return 'block';
    const last = before.at(-1);
    if (isPunct(last, '=>') || isKeyword(last, 'delegate') || (isGroupOf(last, '(') && isKeyword(before.at(-2), 'delegate'))) return 'lambda';
    return isLocalFunctionHeader(before) ? 'block' : 'expression';
  }
}

/** "int Sum(int a, int b)", "static void Log<T>(T x) where T : class": a type, a name, parameters, no "=". */
function isLocalFunctionHeader(before: readonly Item[]): boolean {
  const first = before[0];
  const starts = isIdentifier(first) || (isKeyword(first) && (PREDEFINED_TYPES.has(first.text) || ['static', 'unsafe', 'extern'].includes(first.text)));
  if (!starts || before.some((item) => isPunct(item, '=') || isPunct(item, '=>'))) return false;
  const parameters = before.findIndex((item) => isGroupOf(item, '('));
  if (parameters < 2) return false;
  const name = before[parameters - 1];
  return isIdentifier(name) || isPunct(name, '>');
}
