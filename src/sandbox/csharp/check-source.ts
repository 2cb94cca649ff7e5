/**
 * The sandbox's C# compiler front end: one file's text to the problems a compiler would report
 * in its syntax and structure, with Roslyn's codes and positions, and the types it declares.
 * Not a compiler: names, types and semantics are not checked; what is checked is what an
 * agent's edit most often breaks (brackets, strings, comments, semicolons, where declarations
 * may stand).
 */
import { groupTokens } from './brackets.js';
import { DeclarationChecker, type DeclaredType } from './declarations.js';
import { DiagnosticBag, LineMap, type Diagnostic } from './diagnostics.js';
import { lex } from './lexer.js';

export interface SourceCheck {
  diagnostics: Diagnostic[];
  types: DeclaredType[];
}

export function checkSource(text: string, defines?: Iterable<string>): SourceCheck {
  const lines = new LineMap(text);
  const bag = new DiagnosticBag(lines);
  const tokens = lex(text, lines, bag, defines);
  const items = groupTokens(tokens, bag, tokens.at(-1)?.end ?? 0);
  const declarations = new DeclarationChecker(bag);
  try {
    declarations.file(items);
  } catch (error) {
    // Brackets nested thousands deep exhaust the recursion; Roslyn gives up on such code too.
    if (!(error instanceof RangeError)) throw error;
    bag.add(0, 'CS8078', 'An expression is too long or complex to compile');
  }
  const diagnostics = [...bag.items].sort((a, b) => a.line - b.line || a.column - b.column);
  return { diagnostics, types: declarations.types };
}
