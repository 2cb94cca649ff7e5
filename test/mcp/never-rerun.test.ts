/**
 * The MCP front's promise for a tool that is not idempotent: once the editor may have it, it is
 * never sent to run again, and an editor that stays away past --wait-ms makes the call's outcome
 * unknown, not "unavailable, try again" (which would invite a second run of a call the editor
 * may still finish). `tether call` keeps the same promise (test/cli/call.test.ts); this is the
 * front an agent uses, over stdio, with side effects counted on the editor's disk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freeze, thawAll } from '../helpers/freeze.js';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { buildLog, cleanupProcesses, createWorkspace, executedTools, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  // Thawed first: a stopped editor would sit out its SIGTERM until the SIGKILL.
  thawAll();
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('tether mcp and a call that is not idempotent', () => {
  it('the editor freezes mid-build past --wait-ms: OUTCOME_UNKNOWN, not HOST_UNAVAILABLE, and the build, once thawed, runs to its end once', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--build-seconds', '3']);
    const { client } = await connectMcp(workspace, { args: ['--wait-ms', '500'] });
    const { tools } = await client.listTools();
    // What the rule turns on: build_player does not say it is safe to run twice.
    expect(tools.find((tool) => tool.name === 'build_player')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });

    const call = client.callTool({ name: 'build_player', arguments: { target: 'WebGL' } });
    await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toContain('build_player');
    const thaw = freeze(sandbox);
    // The front's pings go unanswered, its link drops, and the editor is not back within 500 ms.
    const result = await call;
    expect(result.isError, JSON.stringify(result)).toBe(true);
    expect((result._meta as Record<string, unknown> | undefined)?.['tether/error']).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      data: { tool: 'build_player', callId: expect.any(String), cause: { code: 'HOST_UNAVAILABLE' } },
    });
    expect(textOf(result)).toMatch(/whether the call ran, or will still run once the editor is back, is unknown\. It was not run again, because it is not idempotent\./);

    thaw();
    // The editor, back, finishes the one build it had; nothing ran it a second time.
    await expect.poll(() => buildLog(workspace).map((build) => build.status), { timeout: 15_000 }).toEqual(['succeeded']);
    expect(executedTools(workspace)).toEqual(['build_player']);
  });
});
