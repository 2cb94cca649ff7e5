#!/usr/bin/env node
// The `tether` command. `npm install` (the prepare script) compiles src/ to dist/ and bundles
// the CLI into dist/bundle/tether.cjs (scripts/bundle-cli.mjs), which starts faster; without a
// bundle (a plain `tsc` build), the compiled modules run as they are.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBundle } from '../dist/cli/bundle-runner.js';
import { tetherHome } from '../dist/discovery/tether-home.js';

const bundle = fileURLToPath(new URL('../dist/bundle/tether.cjs', import.meta.url));
if (existsSync(bundle)) runBundle(bundle, process.argv[2], join(tetherHome(), 'cache', 'cli'));
else await import('../dist/cli/tether.js');
