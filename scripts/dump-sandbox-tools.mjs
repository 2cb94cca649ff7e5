// Writes unity/Tests~/fixtures/sandbox-tools.json: the sandbox editor's own tools as it declares
// them (src/sandbox/tools/editor-tool-set.ts, from the build in dist/; run `npm run build` first).
// The Unity package's parity tests read that file, and test/sandbox/tool-snapshot.test.ts fails
// when it differs from the sandbox's tools: so the TypeScript definitions, the snapshot and the
// C# [TetherTool] attributes cannot drift apart.
//
//   npm run build && node scripts/dump-sandbox-tools.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { editorToolSnapshot } = await import('../dist/sandbox/tools/editor-tool-set.js');
const target = fileURLToPath(new URL('../unity/Tests~/fixtures/sandbox-tools.json', import.meta.url));
writeFileSync(target, editorToolSnapshot());
console.log(`wrote ${target}`);
