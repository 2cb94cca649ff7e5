// Bundles the compiled CLI (dist/cli/tether.js) and its dependencies into one CommonJS file,
// dist/bundle/tether.cjs, which bin/tether.js runs with a V8 code cache (src/cli/bundle-runner.ts).
// Why: `tether mcp` is spawned once per agent session, and Node 20 spends most of its start-up
// resolving, reading and compiling the ~1,000 ES modules of the MCP SDK, zod, pino and
// commander one by one; it has no module compile cache, and V8's code cache is only reachable
// for a classic script. One script, compiled from the cache, starts ~40% sooner.
//
// esbuild: the de-facto bundler for Node (tsx, vite and vitest stand on it), fast enough to run
// on every build (~0.5 s) and needing no plugins here. dist/ (tsc's output) stays the library's
// entry points.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/bundle';
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', sourcesContent: false, logLevel: 'warning' };

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { tether: 'dist/cli/tether.js' },
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // The code finds files beside itself (package.json, the sandbox's worker) from import.meta.url.
  define: { 'import.meta.url': '__tetherModuleUrl' },
  banner: { js: "var __tetherModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// esbuild escapes non-ASCII characters in code but keeps them in comments, and one "—" makes
// the whole 2.4 MB file a two-byte string for V8: slower to read (~13 ms against ~4) and to
// scan. \uXXXX means the same character in a string, regular expression or identifier, and is
// plain text in a comment.
const cli = `${outdir}/tether.cjs`;
const ascii = readFileSync(cli, 'utf8').replace(/[^\0-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(cli, ascii);
// What the code cache is keyed by (src/cli/bundle-runner.ts): V8 checks only the source's length.
writeFileSync(`${cli}.sha256`, `${createHash('sha256').update(ascii).digest('hex')}\n`);
// bin/tether.js is CommonJS (bin/package.json) and loads the runner with require(): an ES-module
// entry costs every start Node's ES-module loader, ~7 ms here, plus a module graph to resolve.
await build({ ...common, entryPoints: { runner: 'dist/cli/bundle-runner.js' }, outdir, outExtension: { '.js': '.cjs' }, format: 'cjs' });
// The sandbox's main thread runs in a worker, loaded by URL from beside the code that starts it.
await build({
  ...common,
  entryPoints: { 'main-thread': 'dist/sandbox/main-thread.js' },
  outdir,
  format: 'esm',
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __tetherCreateRequire } from 'node:module'; const require = __tetherCreateRequire(import.meta.url);" },
});
// The dashboard page tether serve shows at / (web/dashboard): one script, one style sheet and
// the page, served from dist/web/dashboard. No CDN: it works offline, and its content security
// policy lets it load nothing else.
const dashboard = 'dist/web/dashboard';
rmSync(dashboard, { recursive: true, force: true });
await build({
  entryPoints: { app: 'web/dashboard/app.ts' },
  outdir: dashboard,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) cpSync(`web/dashboard/${file}`, `${dashboard}/${file}`);
