/**
 * unity/Tests~/fixtures/sandbox-tools.json is a contract: the Unity package's parity tests
 * (SandboxParityTests) check its [TetherTool] methods against it, and this test checks it
 * against the sandbox's own tool definitions. Together: TypeScript == snapshot == C#.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editorToolSnapshot } from '../../src/sandbox/tools/editor-tool-set.js';

const SNAPSHOT = new URL('../../unity/Tests~/fixtures/sandbox-tools.json', import.meta.url);

describe('the sandbox tool snapshot', () => {
  it('is what the sandbox editor declares', () => {
    const onDisk = readFileSync(SNAPSHOT, 'utf8');
    const declared = editorToolSnapshot();
    if (onDisk !== declared) {
      const names = (text: string): string[] => (JSON.parse(text) as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect.fail(
        "unity/Tests~/fixtures/sandbox-tools.json differs from the sandbox editor's tools " +
          `(file: ${names(onDisk).join(', ')}; sandbox: ${names(declared).join(', ')}). ` +
          'Run `npm run build && node scripts/dump-sandbox-tools.mjs`, then make the Unity package declare the same (npm run test:unity).',
      );
    }
  });
});
