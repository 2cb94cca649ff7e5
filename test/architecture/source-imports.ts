/**
 * Reading src/ as the compiler does, for the tests that hold its architecture: the module
 * specifiers each file loads (found with the TypeScript parser, so an import named in a
 * comment or a string does not count, while every real form does), where a relative one
 * leads, and the strongly connected components of the resulting graph (its import loops).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SRC_DIR = join(ROOT, 'src');

/** One source file: its path relative to the repository (forward slashes) and its text. */
export interface SourceFile {
  name: string;
  text: string;
}

export function listTsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listTsFiles(path);
      return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
    })
    .sort();
}

export function readSources(dir: string): SourceFile[] {
  return listTsFiles(dir).map((path) => ({ name: relative(ROOT, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }));
}

export function parse(name: string, text: string): ts.SourceFile {
  return ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Every module specifier the source loads: static and type imports, re-exports, import(), require(). */
export function moduleSpecifiers(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const [argument] = node.arguments;
      if ((isDynamicImport || isRequire) && argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Where a relative specifier leads, as a repository path (`src/link/host-link.ts`); undefined
 * for a package or a Node module. Sources import their siblings by the `.js` they compile to.
 */
export function resolveRelative(fromName: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = join(dirname(fromName), specifier).replaceAll('\\', '/');
  return target.endsWith('.js') ? `${target.slice(0, -'.js'.length)}.ts` : target.endsWith('.ts') ? target : `${target}.ts`;
}

/** Each file's relative imports, as repository paths. */
export function importGraph(files: readonly SourceFile[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const targets = moduleSpecifiers(parse(file.name, file.text)).flatMap((specifier) => resolveRelative(file.name, specifier) ?? []);
      return [file.name, [...new Set(targets)]];
    }),
  );
}

/**
 * The graph's strongly connected components of more than one file, or of one file that imports
 * itself: each is an import loop. Tarjan's algorithm, iterative so a deep graph cannot overflow.
 */
export function importLoops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const loops: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    lowLink.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = (graph.get(frame.node) ?? []).filter((target) => graph.has(target));
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          lowLink.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const importsItself = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || importsItself) loops.push(component.sort());
    }
  }
  return loops.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split(/\r?\n/);
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}
