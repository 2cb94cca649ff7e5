/**
 * The declarations of a C# file: using directives and namespaces at the top, types in them,
 * members in types. Checks what a compiler checks of that structure (a member outside a type,
 * a type without a name or a body, a statement among members, a using after a declaration, a
 * file-scoped namespace, which C# 9 lacks) and hands method, accessor and lambda bodies to the
 * statement checker. Records every type it meets, for the duplicate check across files.
 */
import { firstToken, isGroup, lastToken, type Group, type Item } from './brackets.js';
import type { DiagnosticBag } from './diagnostics.js';
import type { Token } from './lexer.js';
import { StatementChecker } from './statements.js';
import { TYPE_KEYWORDS, isGroupOf, isIdentifier, isKeyword, isPunct, lacksSemicolonBefore, semicolonExpected, skipAttributes, skipModifiers } from './syntax.js';

export interface DeclaredType {
  name: string;
  /** How many type parameters: Box and Box<T> are two types. */
  arity: number;
  /** Where it is declared: a namespace ("" for the global one), or "type Outer" for a nested type. */
  container: string;
  partial: boolean;
  /** Where its name is. */
  offset: number;
}

const MEMBER_CONTEXT = 'class, record, struct, or interface member declaration';

export class DeclarationChecker {
  readonly types: DeclaredType[] = [];
  private readonly statements: StatementChecker;
  private reportedTopLevel = false;

  constructor(private readonly bag: DiagnosticBag) {
    this.statements = new StatementChecker(bag);
  }

  file(items: readonly Item[]): void {
    this.namespaceBody(items, '', true);
  }

  private namespaceBody(items: readonly Item[], namespace: string, global: boolean): void {
    let declared = false;
    let k = 0;
    while (k < items.length) {
      const item = items[k]!;
      if (isPunct(item, ';') || isAssemblyAttribute(item)) {
        k++;
      } else if (isKeyword(item, 'using') || isKeyword(item, 'extern')) {
        if (declared && isKeyword(item, 'using')) {
          this.bag.add(item.start, 'CS1529', 'A using clause must precede all other elements defined in the namespace except extern alias declarations');
        }
        k = this.directiveEnd(items, k);
      } else if (isKeyword(item, 'namespace')) {
        declared = true;
        k = this.namespaceDeclaration(items, k, namespace);
      } else {
        declared = true;
        const head = skipModifiers(items, skipAttributes(items, k));
        if (isTypeKeyword(items, head)) {
          k = this.typeDeclaration(items, k, head, namespace);
          continue;
        }
        if (!global) this.bag.add(firstToken(item).start, 'CS0116', 'A namespace cannot directly contain members such as fields, methods or statements');
        else if (!this.reportedTopLevel) this.bag.add(firstToken(item).start, 'CS8805', 'Program using top-level statements must be an executable.');
        this.reportedTopLevel ||= global;
        k = memberEnd(items, k);
      }
    }
  }

  /** "using X.Y;", "using static …;", "extern alias …;": the index after its ";". */
  private directiveEnd(items: readonly Item[], from: number): number {
    const pending: Item[] = [];
    for (let k = from; k < items.length; k++) {
      const item = items[k]!;
      if (isPunct(item, ';')) return k + 1;
      if (lacksSemicolonBefore(pending, item, true) || isKeyword(item, 'namespace')) {
        semicolonExpected(this.bag, pending.at(-1)!);
        return k;
      }
      pending.push(item);
    }
    semicolonExpected(this.bag, pending.at(-1)!);
    return items.length;
  }

  private namespaceDeclaration(items: readonly Item[], k: number, outer: string): number {
    const keyword = items[k] as Token;
    let at = k + 1;
    const name: string[] = [];
    while (isIdentifier(items[at]) || isPunct(items[at], '.')) name.push((items[at++] as Token).text);
    if (name.length === 0) this.bag.add(keyword.end, 'CS1001', 'Identifier expected');
    const qualified = [outer, name.join('')].filter(Boolean).join('.');
    const body = items[at];
    if (isGroupOf(body, '{')) {
      this.namespaceBody(body.items, qualified, false);
      return at + 1;
    }
    if (isPunct(body, ';')) {
      this.bag.add(keyword.start, 'CS8773', "Feature 'file-scoped namespace' is not available in C# 9.0. Please use language version 10.0 or greater.");
      this.namespaceBody(items.slice(at + 1), qualified, false);
      return items.length;
    }
    this.bag.add(lastToken(items[at - 1]!).end, 'CS1514', '{ expected');
    return at;
  }

  /** A class, struct, interface, enum, record or delegate from `start` (its attributes), its keyword at `head`. */
  private typeDeclaration(items: readonly Item[], start: number, head: number, container: string): number {
    const keyword = items[head] as Token;
    const partial = items.slice(start, head).some((item) => isIdentifier(item, 'partial'));
    if (keyword.text === 'delegate') {
      const parameters = items.findIndex((item, i) => i > head && isGroupOf(item, '('));
      const name = items[parameters - 1];
      if (parameters > head + 1 && isIdentifier(name)) this.types.push({ name: name.text, arity: 0, container, partial, offset: name.start });
      return memberEnd(items, head);
    }
    let at = head + 1;
    if (keyword.text === 'record' && (isKeyword(items[at], 'class') || isKeyword(items[at], 'struct'))) at++;
    const name = items[at];
    if (!isIdentifier(name)) {
      this.bag.add(name ? firstToken(name).start : keyword.end, 'CS1001', 'Identifier expected');
    } else {
      this.types.push({ name: name.text, arity: typeArity(items, at + 1), container, partial, offset: name.start });
      at++;
    }
    // The header (type parameters, bases, constraints) runs to the body or, for a record, a ";".
    for (; at < items.length; at++) {
      const item = items[at]!;
      if (isPunct(item, ';')) return at + 1;
      if (isGroupOf(item, '{')) {
        if (keyword.text !== 'enum' && isIdentifier(name)) this.typeBody(item.items, name.text, `${container ? `${container}.` : ''}${name.text}`);
        return at + 1;
      }
      // A modifier or another type's keyword (not a "class"/"struct" constraint) starts the next declaration: this one has no body.
      const constraint = isPunct(items[at - 1], ':') || isPunct(items[at - 1], ',');
      if (!constraint && (isTypeKeyword(items, at) || skipModifiers(items, at) > at)) break;
    }
    this.bag.add(lastToken(items[at - 1]!).end, 'CS1514', '{ expected');
    return at;
  }

  private typeBody(items: readonly Item[], typeName: string, qualified: string): void {
    let k = 0;
    while (k < items.length) {
      if (isPunct(items[k], ';')) {
        k++;
        continue;
      }
      const afterAttributes = skipAttributes(items, k);
      const head = skipModifiers(items, afterAttributes);
      k = isTypeKeyword(items, head) ? this.typeDeclaration(items, k, head, `type ${qualified}`) : this.member(items, afterAttributes, head, typeName);
    }
  }

  /** A field, property, method, constructor, operator, indexer or event: the index after it. */
  private member(items: readonly Item[], afterAttributes: number, head: number, typeName: string): number {
    const pending: Item[] = [];
    let assigned = false;
    let parameters = -1;
    for (let k = afterAttributes; k < items.length; k++) {
      const item = items[k]!;
      if (lacksSemicolonBefore(pending, item, true)) {
        semicolonExpected(this.bag, pending.at(-1)!);
        return k;
      }
      if (isPunct(item, ';')) return k + 1;
      if (isPunct(item, '=') && !assigned && parameters < 0) this.assignmentAmongMembers(items.slice(head, k), item as Token);
      if (isPunct(item, '=') || isPunct(item, '=>')) assigned = true;
      if (isGroupOf(item, '{')) {
        if (assigned) {
          this.statements.expression([...pending, item]);
        } else if (parameters >= 0) {
          this.statements.block(item.items);
          return k + 1;
        } else {
          this.accessors(item.items);
          if (!isPunct(items[k + 1], '=')) return k + 1;
        }
      } else if (isGroup(item)) {
        if (isGroupOf(item, '(') && !assigned && parameters < 0) {
          parameters = k;
          this.memberName(items.slice(head, k), item, typeName);
        }
        this.statements.expression(item.items);
      }
      pending.push(item);
    }
    if (pending.length > 0) semicolonExpected(this.bag, pending.at(-1)!);
    return items.length;
  }

  /** Before a member's parameters: "Foo(" in class Bar has no return type; "Debug.Log(" is a statement, not a member. */
  private memberName(before: readonly Item[], parameters: Group, typeName: string): void {
    if (before.length === 0 || !before.every((item, i) => (i % 2 === 0 ? isIdentifier(item) : isPunct(item, '.')))) return;
    if (before.length === 1 && (before[0] as Token).text !== typeName) this.bag.add((before[0] as Token).start, 'CS1520', 'Method must have a return type');
    else if (before.length > 1) this.bag.add(parameters.open.start, 'CS1519', `Invalid token '(' in ${MEMBER_CONTEXT}`);
  }

  /** "x = 5;" among members: an assignment, which only a method body may hold. */
  private assignmentAmongMembers(before: readonly Item[], equals: Token): void {
    if (before.length === 1 && isIdentifier(before[0])) this.bag.add(equals.start, 'CS1519', `Invalid token '=' in ${MEMBER_CONTEXT}`);
  }

  /** "{ get; private set; }", "{ get { … } set => … }", "{ add { … } remove { … } }". */
  private accessors(items: readonly Item[]): void {
    let pending: Item[] = [];
    for (const item of items) {
      if (isPunct(item, ';')) {
        pending = [];
      } else if (isGroupOf(item, '{') && !pending.some((p) => isPunct(p, '=>'))) {
        this.statements.block(item.items);
        pending = [];
      } else {
        if (isGroup(item)) this.statements.expression([...pending, item]);
        pending.push(item);
      }
    }
  }
}

/** Whether a type's declaration starts at `at`: class, struct, interface, enum, delegate, or "record" before a name. */
function isTypeKeyword(items: readonly Item[], at: number): boolean {
  const item = items[at];
  if (isIdentifier(item, 'record')) return isIdentifier(items[at + 1]) || isKeyword(items[at + 1], 'class') || isKeyword(items[at + 1], 'struct');
  return isKeyword(item) && TYPE_KEYWORDS.has(item.text);
}

/** [assembly: …] and [module: …] stand alone at the top of a file. */
function isAssemblyAttribute(item: Item): boolean {
  return isGroupOf(item, '[') && (isIdentifier(item.items[0], 'assembly') || isIdentifier(item.items[0], 'module')) && isPunct(item.items[1], ':');
}

/** Type parameters after a type's name ("<T, U>"): how many. */
function typeArity(items: readonly Item[], at: number): number {
  if (!isPunct(items[at], '<')) return 0;
  let count = 1;
  for (let k = at + 1; k < items.length && !isPunct(items[k], '>'); k++) if (isPunct(items[k], ',')) count++;
  return count;
}

/** The index after the member or statement at `from`: past its ";" or the first block it has. */
function memberEnd(items: readonly Item[], from: number): number {
  for (let k = from; k < items.length; k++) if (isPunct(items[k], ';') || isGroupOf(items[k], '{')) return k + 1;
  return items.length;
}
