/**
 * protocol/ is the portable core: any JavaScript runtime must be able to run it as it is.
 * These checks read the sources with the TypeScript parser, so comments and strings that
 * merely mention "process" or "fs" do not count, while real imports and references do.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PROTOCOL_DIR = join(ROOT, 'src/protocol');
const MAX_LINES = 400;

const NAMED_BUILTINS = ['net', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http'];
const BUILTINS = new Set([...NAMED_BUILTINS, ...builtinModules.filter((name) => !name.startsWith('_'))]);
const FORBIDDEN_GLOBALS = new Set(['Buffer', 'process']);

function listTsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTsFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

function isNodeModule(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  const [first] = specifier.split('/');
  return BUILTINS.has(specifier) || BUILTINS.has(first as string);
}

/** Every module specifier the source loads: static and type imports, re-exports, import(), require(). */
function moduleSpecifiers(source: ts.SourceFile): string[] {
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

/** References to Node-only globals: `Buffer`, `process`, also via globalThis. Property names like `x.process` are fine. */
function forbiddenGlobalReferences(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text)) {
      const parent = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node && !isGlobalObject(parent.expression)) ||
        ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent)) &&
          parent.name === node);
      if (!isMemberName) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${node.text} (line ${line + 1})`);
      }
    } else if (
      ts.isElementAccessExpression(node) &&
      isGlobalObject(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      FORBIDDEN_GLOBALS.has(node.argumentExpression.text)
    ) {
      found.push(`globalThis['${node.argumentExpression.text}']`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isGlobalObject(node: ts.Expression): boolean {
  return ts.isIdentifier(node) && ['globalThis', 'global', 'window', 'self'].includes(node.text);
}

function parse(name: string, text: string): ts.SourceFile {
  return ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split(/\r?\n/);
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

const files = listTsFiles(PROTOCOL_DIR).map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

describe('the checkers themselves', () => {
  it('flag Node imports in every form, and nothing else', () => {
    const source = parse(
      'sample.ts',
      [
        "import { readFileSync } from 'node:fs';",
        "import * as net from 'net';",
        "import type { Worker } from 'worker_threads';",
        "export { join } from 'path';",
        "import os = require('os');",
        "const cp = await import('child_process');",
        "const http = require('http');",
        "import { promises } from 'fs/promises';",
        "type H = import('crypto').Hash;",
        "import { z } from 'zod';",
        "import { TetherError } from './errors.js';",
        "// import { x } from 'node:fs' in a comment is fine",
        "const text = \"from 'fs'\";",
      ].join('\n'),
    );
    const nodeImports = moduleSpecifiers(source).filter(isNodeModule);
    expect(nodeImports).toEqual(['node:fs', 'net', 'worker_threads', 'path', 'os', 'child_process', 'http', 'fs/promises', 'crypto']);
  });

  it('flag Buffer and process references but not mentions or member names', () => {
    const source = parse(
      'sample.ts',
      [
        'const a = Buffer.from("x");',
        'if (process.env.X) {}',
        "const b = globalThis.process;",
        "const c = globalThis['Buffer'];",
        '// The process keeps serving others; a Buffer in a comment is fine.',
        "const s = 'process Buffer';",
        'const o = { process: 1 };',
        'o.process = 2;',
        'interface I { process: number }',
      ].join('\n'),
    );
    expect(forbiddenGlobalReferences(source)).toEqual(['Buffer (line 1)', 'process (line 2)', 'process (line 3)', "globalThis['Buffer']"]);
  });

  it('count lines with or without a final newline', () => {
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\r\nb\r\nc\r\n')).toBe(3);
    expect(countLines('')).toBe(0);
  });
});

describe('src/protocol stays portable', () => {
  it('has the expected source files', () => {
    const names = files.map((file) => file.name.replaceAll('\\', '/'));
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const expected of ['frame-decoder.ts', 'frame-encoder.ts', 'transport.ts', 'connection.ts', 'messages.ts', 'errors.ts', 'limits.ts', 'canonical-json.ts', 'methods.ts', 'index.ts'])
      expect(names).toContain(`src/protocol/${expected}`);
  });

  it.each(files.map((file) => [file.name, file.text]))('%s imports no Node module', (name, text) => {
    const nodeImports = moduleSpecifiers(parse(name, text)).filter(isNodeModule);
    expect(nodeImports).toEqual([]);
  });

  it.each(files.map((file) => [file.name, file.text]))('%s references neither Buffer nor process', (name, text) => {
    expect(forbiddenGlobalReferences(parse(name, text))).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const tooLong = files.map((file) => ({ name: file.name, lines: countLines(file.text) })).filter((file) => file.lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
