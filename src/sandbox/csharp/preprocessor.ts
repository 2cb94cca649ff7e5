/**
 * C#'s preprocessor directives as the lexer meets them at the start of a line: #if/#elif/#else/
 * #endif choose which lines are code (the others are not even lexed, as for Roslyn), #define
 * and #undef change the symbols, #warning and #error become compiler messages, #region pairs
 * are counted. The symbols start as those Unity defines for editor scripts.
 */
import type { DiagnosticBag } from './diagnostics.js';

/** What Unity 2021.3 defines when it compiles the project's editor scripts (the ones a check cares about). */
export const UNITY_EDITOR_DEFINES: readonly string[] = [
  'UNITY_EDITOR',
  'UNITY_2021_3',
  'UNITY_2021_3_OR_NEWER',
  'UNITY_2021',
  'UNITY_STANDALONE',
  'ENABLE_MONO',
  'NET_STANDARD_2_1',
  'CSHARP_7_3_OR_NEWER',
  'DEBUG',
  'TRACE',
];

interface Branch {
  /** Lines under this branch are code. */
  active: boolean;
  /** Some branch of this #if was taken already. */
  taken: boolean;
  /** The lines around the #if were code. */
  outerActive: boolean;
  sawElse: boolean;
}

export class Preprocessor {
  private readonly symbols: Set<string>;
  private readonly branches: Branch[] = [];
  private regions = 0;

  constructor(
    private readonly bag: DiagnosticBag,
    defines: Iterable<string> = UNITY_EDITOR_DEFINES,
  ) {
    this.symbols = new Set(defines);
  }

  /** Whether the current line is code (not inside a branch that was not taken). */
  get active(): boolean {
    return this.branches.at(-1)?.active ?? true;
  }

  /** One directive line: `text` starts after the "#", `offset` is where the "#" is. */
  directive(text: string, offset: number): void {
    const match = /^\s*([a-z]*)\s*(.*)$/s.exec(text);
    const name = match?.[1] ?? '';
    const rest = match?.[2] ?? '';
    const argument = rest.replace(/\/\/.*$/s, '').trim();
    const top = this.branches.at(-1);
    const unexpected = (): void => this.bag.add(offset, 'CS1028', 'Unexpected preprocessor directive');
    switch (name) {
      case 'if': {
        const outerActive = this.active;
        const value = outerActive && this.evaluate(argument, offset);
        this.branches.push({ active: value, taken: value, outerActive, sawElse: false });
        return;
      }
      case 'elif': {
        if (!top || top.sawElse) return unexpected();
        const value = this.evaluate(argument, offset);
        top.active = top.outerActive && !top.taken && value;
        top.taken ||= top.active;
        return;
      }
      case 'else':
        if (!top || top.sawElse) return unexpected();
        top.active = top.outerActive && !top.taken;
        top.taken = true;
        top.sawElse = true;
        return;
      case 'endif':
        if (!top) return unexpected();
        this.branches.pop();
        return;
    }
    if (!this.active) return;
    switch (name) {
      case 'define':
        this.symbols.add(argument);
        return;
      case 'undef':
        this.symbols.delete(argument);
        return;
      case 'region':
        this.regions++;
        return;
      case 'endregion':
        if (this.regions === 0) return unexpected();
        this.regions--;
        return;
      case 'warning':
        this.bag.add(offset, 'CS1030', `#warning: '${rest.trim()}'`, 'warning');
        return;
      case 'error':
        this.bag.add(offset, 'CS1029', `#error: '${rest.trim()}'`);
        return;
      case 'pragma':
      case 'nullable':
      case 'line':
        return;
      default:
        this.bag.add(offset, 'CS1024', 'Preprocessor directive expected');
    }
  }

  /** At the end of the file: an #if or #region left open. */
  finish(endOffset: number): void {
    if (this.branches.length > 0) this.bag.add(endOffset, 'CS1027', '#endif directive expected');
    if (this.regions > 0) this.bag.add(endOffset, 'CS1038', '#endregion directive expected');
  }

  /** A condition: symbols, true, false, !, ==, !=, &&, || and parentheses. */
  private evaluate(expression: string, offset: number): boolean {
    const tokens = expression.match(/[A-Za-z_][A-Za-z0-9_]*|&&|\|\||==|!=|!|\(|\)|\S/g) ?? [];
    let index = 0;
    let valid = tokens.length > 0;
    const peek = (): string | undefined => tokens[index];
    const primary = (): boolean => {
      const token = tokens[index++];
      if (token === '!') return !primary();
      if (token === '(') {
        const value = or();
        if (tokens[index++] !== ')') valid = false;
        return value;
      }
      if (token === 'true') return true;
      if (token === 'false') return false;
      if (token !== undefined && /^[A-Za-z_]/.test(token)) return this.symbols.has(token);
      valid = false;
      return false;
    };
    const equality = (): boolean => {
      let value = primary();
      while (peek() === '==' || peek() === '!=') {
        const equal = tokens[index++] === '==';
        value = equal ? value === primary() : value !== primary();
      }
      return value;
    };
    const and = (): boolean => {
      let value = equality();
      while (peek() === '&&') {
        index++;
        value = equality() && value;
      }
      return value;
    };
    const or = (): boolean => {
      let value = and();
      while (peek() === '||') {
        index++;
        value = and() || value;
      }
      return value;
    };
    const value = valid ? or() : false;
    if (!valid || index !== tokens.length) {
      this.bag.add(offset, 'CS1517', 'Invalid preprocessor expression');
      return false;
    }
    return value;
  }
}
