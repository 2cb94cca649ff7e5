import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';

describe('ARCHITECTURE.md', () => {
  it('names only paths that exist', () => {
    const text = readFileSync(join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8');
    const paths = [...text.matchAll(/`(src\/[\w/.-]+)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(join(REPO_ROOT, p)))).toEqual([]);
  });

  it('keeps file names in kebab-case', () => {
    const text = readFileSync(join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8');
    for (const [, path] of text.matchAll(/`(src\/[\w/.-]+\.ts)`/g)) expect(path).toMatch(/^[a-z0-9/.-]+$/);
  });
});
