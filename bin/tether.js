#!/usr/bin/env node
// The `tether` command. `npm install` (the prepare script) compiles src/ to dist/ and bundles
// the CLI into dist/bundle/tether.cjs (scripts/bundle-cli.mjs), which starts faster.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBundle } from '../dist/cli/bundle-runner.js';
import { tetherHome } from '../dist/discovery/tether-home.js';

runBundle(fileURLToPath(new URL('../dist/bundle/tether.cjs', import.meta.url)), process.argv[2], join(tetherHome(), 'cache', 'cli'));
