#!/usr/bin/env node
// The `tether` command. `npm install` (the prepare script) compiles src/ to dist/ and bundles
// the CLI into dist/bundle/tether.cjs (scripts/bundle-cli.mjs), which starts faster; without a
// bundle (a plain `tsc` build), the compiled modules run as they are.
//
// This file is CommonJS (bin/package.json), unlike the rest of the package: an ES-module entry
// makes every start of `tether mcp` set up Node's ES-module loader first (~7 ms here).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'tether.cjs');
const runner = join(__dirname, '..', 'dist', 'bundle', 'runner.cjs');
if (existsSync(bundle) && existsSync(runner)) require(runner).runCli(bundle, process.argv[2]);
else void import('../dist/cli/tether.js');
