/**
 * protocol/ is the portable core: any JavaScript runtime must be able to run it as it is.
 * These checks read the sources with the TypeScript parser, so comments and strings that
 * merely mention "process" or "fs" do not count, while real imports and references do.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC_DIR, moduleSpecifiers, parse, readSources } from './source-imports.js';

const PROTOCOL_DIR = join(SRC_DIR, 'protocol');

const NAMED_BUILTINS = ['net', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http'];
const BUILTINS = new Set([...NAMED_BUILTINS, ...builtinModules.filter((name) => !name.startsWith('_'))]);
const FORBIDDEN_GLOBALS = new Set(['Buffer', 'process']);

function isNodeModule(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  const [first] = specifier.split('/');
  return BUILTINS.has(specifier) || BUILTINS.has(first as string);
}

/** References to Node-only globals: `Buffer`, `process`, also via globalThis. Property names like `x.process` are fine. */
function forbiddenGlobalReferences(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text)) {
      const parent = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node && !isGlobalObject(parent.expression)) ||
        ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent)) && parent.name === node);
      if (!isMemberName) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${node.text} (line ${line + 1})`);
      }
    } else if (ts.isElementAccessExpression(node) && isGlobalObject(node.expression) && ts.isStringLiteralLike(node.argumentExpression) && FORBIDDEN_GLOBALS.has(node.argumentExpression.text)) {
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

const files = readSources(PROTOCOL_DIR);

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
        'const text = "from \'fs\'";',
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
        'const b = globalThis.process;',
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
});
