#!/usr/bin/env node
// The `tether` command. The code is compiled to dist/ by `npm install` (the prepare script).
import '../dist/cli/tether.js';
