/**
 * What the sandbox's C# checker reports, placed as a compiler places it: line and column
 * counted from 1 in UTF-16 code units (Roslyn's columns, a tab counts as one), and written as
 * Unity's console writes a compiler message: `Assets/X.cs(12,5): error CS1002: ; expected`.
 */

export type Severity = 'error' | 'warning';

/** One problem in one file, before it is tied to the file's path. */
export interface Diagnostic {
  line: number;
  column: number;
  severity: Severity;
  /** Roslyn's code, e.g. "CS1002". */
  code: string;
  /** Roslyn's text, e.g. "; expected". */
  text: string;
}

/** A compiler message as compile_scripts and the script tools answer it (Unity's CompilerMessage, split into fields). */
export interface CompilerMessage {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  /** "CS1002: ; expected": the code and the text, without the place. */
  message: string;
}

export function toCompilerMessage(file: string, diagnostic: Diagnostic): CompilerMessage {
  return { file, line: diagnostic.line, column: diagnostic.column, severity: diagnostic.severity, message: `${diagnostic.code}: ${diagnostic.text}` };
}

/** `Assets/X.cs(12,5): error CS1002: ; expected`, as Unity's console shows it. */
export function formatCompilerMessage(message: CompilerMessage): string {
  return `${message.file}(${message.line},${message.column}): ${message.severity} ${message.message}`;
}

/** Offsets to lines and columns. "\r\n", "\n" and "\r" each end a line, as for Roslyn. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        this.starts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The 1-based line and column of `offset` (clamped into the text). */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: at - this.starts[low]! + 1 };
  }

  /** The 1-based line `offset` is on. */
  lineOf(offset: number): number {
    return this.position(offset).line;
  }
}

/** Collects diagnostics once each (the same code at the same place is one problem). */
export class DiagnosticBag {
  private readonly seen = new Set<string>();
  readonly items: Diagnostic[] = [];

  constructor(private readonly lines: LineMap) {}

  /** `repeat`: report it even where it was reported already (two braces missing at the end of a file are two errors). */
  add(offset: number, code: string, text: string, severity: Severity = 'error', repeat = false): void {
    const { line, column } = this.lines.position(offset);
    const key = `${line}:${column}:${code}`;
    if (this.seen.has(key) && !repeat) return;
    this.seen.add(key);
    this.items.push({ line, column, severity, code, text });
  }
}
