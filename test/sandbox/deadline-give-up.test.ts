/**
 * A tool that ignores its deadline is given up a grace after it (protocol.md §8.6), and the
 * host hands the next call to the main thread while that tool may still hold it. The next
 * call must not then be given up in turn, reported unknown, and run once the main thread is
 * free: in the sandbox it waits for the main thread, with its own cancellation, and one
 * cancelled while it waits never runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

type Outcome = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, { code: string; data?: Record<string, unknown> }> };

describe('a call queued behind a tool given up past its deadline', () => {
  it('never runs once its own deadline passes while it waits; the given-up tool is unknown', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-kit', '--deadline-grace-ms', '300']);
    const { client } = await connectMcp(workspace);
    const call = (name: string, args: Record<string, unknown>, deadlineMs: number) => client.callTool({ name, arguments: args, _meta: { 'tether/deadlineMs': deadlineMs } }) as Promise<Outcome>;

    const deaf = call('tether_conformance_block', { ms: 3_000, ignoreCancel: true }, 200);
    const behind = call('tether_conformance_count', { key: 'behind' }, 200);
    expect((await deaf)._meta?.['tether/error']).toMatchObject({ code: 'OUTCOME_UNKNOWN', data: { graceMs: 300 } });
    const queued = await behind;
    expect(queued.isError).toBe(true);
    // Ended as not run (it never began), not unknown: a caller may send it again.
    expect(queued._meta?.['tether/error']).toMatchObject({ code: 'CANCELLED', data: { started: false } });

    // Once the deaf tool lets the main thread go, nothing runs the count.
    const after = await call('tether_conformance_read', { key: 'behind' }, 60_000);
    expect(after.structuredContent).toMatchObject({ key: 'behind', count: 0 });
  });
});
