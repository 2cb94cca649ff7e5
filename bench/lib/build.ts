/**
 * Compiles bench/helpers/*.ts to plain JavaScript under bench/results/.build/, so the helper
 * processes (the bench host, the SDK floor server, …) start on plain `node` like `tether`
 * itself: a TypeScript loader would inflate the floors' start-up time and memory.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { BENCH_DIR } from './procs.js';

export const BUILD_DIR = join(BENCH_DIR, 'results', '.build');

export function buildHelpers(): void {
  const source = join(BENCH_DIR, 'helpers');
  mkdirSync(BUILD_DIR, { recursive: true });
  for (const name of readdirSync(source).filter((n) => n.endsWith('.ts'))) {
    const output = ts.transpileModule(readFileSync(join(source, name), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: name,
    });
    writeFileSync(join(BUILD_DIR, name.replace(/\.ts$/, '.js')), output.outputText);
  }
}

/** The path of a compiled helper ("bench-host" → …/.build/bench-host.js). */
export function helper(name: string): string {
  return join(BUILD_DIR, `${name}.js`);
}
