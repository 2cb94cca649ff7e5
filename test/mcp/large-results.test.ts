/**
 * Large results through `tether mcp`: frames over 1 MiB have their long strings lifted by the
 * link and spliced back into stdout by the transport (protocol/lifted-strings.ts). A real SDK
 * host, a real `tether mcp` process and the SDK client check that what arrives is exactly
 * what the tool returned: text full of escapes, image data, and structured content that is
 * checked against an output schema (which takes the materialized path).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host } from '../../src/host/index.js';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';

const hosts: Host[] = [];
afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
  for (const host of hosts.splice(0)) await host.close();
});

const TEXT = `line "one" \\ C:\\Users\\ana\\ \u0001 tab\t é ✓ 😀 \u2028 end\n`.repeat(60_000); // ~3.5 MB of JSON
const IMAGE = Buffer.alloc(1_500_000, 0x5a).toString('base64'); // 2 MB of base64

async function startLargeResultHost(projectPath: string, home: string): Promise<void> {
  const host = new Host({ kind: 'test', name: 'Large', version: '1.0.0', projectPath, recordsDir: join(home, 'hosts') });
  host.tool({ name: 'big_text', description: 'A long text', annotations: { readOnlyHint: true }, handler: () => TEXT });
  host.tool({
    name: 'big_mixed',
    description: 'Text and an image',
    annotations: { readOnlyHint: true },
    handler: () =>
      ({
        content: [
          { type: 'text', text: TEXT },
          { type: 'image', data: IMAGE, mimeType: 'image/png' },
          { type: 'text', text: 'tail' },
        ],
      }) as never,
  });
  host.tool({
    name: 'big_structured',
    description: 'Structured output with a long string',
    annotations: { readOnlyHint: true },
    output: z.object({ log: z.string(), lines: z.number() }),
    handler: () => ({ log: TEXT, lines: 60_000 }),
  });
  await host.start();
  hosts.push(host);
}

describe('large results through tether mcp', () => {
  it('arrive exactly as the tool returned them, and the front keeps serving', async () => {
    const ws = createWorkspace();
    await startLargeResultHost(ws.project, ws.home);
    const session = await connectMcp(ws);

    const text = (await session.client.callTool({ name: 'big_text', arguments: {} })) as { content: Array<{ text: string }> };
    expect(text.content).toEqual([{ type: 'text', text: TEXT }]);

    const mixed = (await session.client.callTool({ name: 'big_mixed', arguments: {} })) as { content: unknown[] };
    expect(mixed.content).toEqual([
      { type: 'text', text: TEXT },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
      { type: 'text', text: 'tail' },
    ]);

    const structured = (await session.client.callTool({ name: 'big_structured', arguments: {} })) as { structuredContent: unknown };
    expect(structured.structuredContent).toEqual({ log: TEXT, lines: 60_000 });

    // Concurrent large calls each get their own result.
    const [a, b] = await Promise.all([session.client.callTool({ name: 'big_text', arguments: {} }), session.client.callTool({ name: 'big_mixed', arguments: {} })]);
    expect((a as { content: unknown[] }).content).toEqual([{ type: 'text', text: TEXT }]);
    expect((b as { content: unknown[] }).content).toHaveLength(3);
    expect(session.stderr()).not.toMatch(/TETHERLIFTED/);
  });
});
