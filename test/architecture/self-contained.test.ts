/**
 * The repository explains itself: nothing in it cites a write-up kept outside it (a reader of
 * a clone has only the clone), and every incident a regression test is named after is told in
 * docs/incidents.md under the same title.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './source-imports.js';

/** Where an outside write-up would be cited from; generated and third-party folders are not ours. */
const SEARCHED = ['src', 'test', 'docs', 'bench', 'scripts', 'README.md', 'ARCHITECTURE.md', 'DEVELOPERS.md'];
const TEXT = /\.(ts|mjs|js|md|json|cs)$/;
/** A path that leaves the repository for the shared folder beside it. */
const OUTSIDE = /\.\.\/shared\/|\/work\/shared\b/;

function textFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (TEXT.test(path)) return [full];
  try {
    return readdirSync(full, { withFileTypes: true }).flatMap((entry) => (entry.name === 'node_modules' ? [] : textFiles(join(path, entry.name))));
  } catch {
    return [];
  }
}

describe('the repository', () => {
  it('cites nothing kept outside it', () => {
    const files = SEARCHED.flatMap(textFiles);
    expect(files.length).toBeGreaterThan(100);
    const citing = files
      .filter((file) => file !== join(ROOT, 'test/architecture/self-contained.test.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (OUTSIDE.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(citing).toEqual([]);
  });

  it('tells every incident a regression test is named after in docs/incidents.md, under the same title', () => {
    const tests = readFileSync(join(ROOT, 'test/regressions/incidents.test.ts'), 'utf8');
    const named = [...tests.matchAll(/describe\('(incident \d+: [^']+)'/g)].map(([, title]) => title!.toLowerCase());
    expect(named.length).toBeGreaterThanOrEqual(3);
    const told = [...readFileSync(join(ROOT, 'docs/incidents.md'), 'utf8').matchAll(/^## (Incident \d+: .+)$/gm)].map(([, title]) => title!.toLowerCase());
    expect(told).toEqual(named);
  });
});
