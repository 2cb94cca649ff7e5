/**
 * An agent's script edit reloads the editor, and a real project's reload often outlasts the
 * front's wait for an editor that is away: `tether mcp` waits out a reload while the editor's
 * process runs, as `tether call` does (test/cli/call-reload-wait.test.ts), instead of ending
 * the edit OUTCOME_UNKNOWN after --wait-ms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace, executedTools, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('tether mcp and a domain reload longer than --wait-ms', () => {
  it('answers the edit that caused the reload with its result, run once', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--reload-ms', '2500']);
    const { client } = await connectMcp(workspace, { args: ['--wait-ms', '300'] });
    const result = await client.callTool({ name: 'edit_script', arguments: { path: 'Assets/Scripts/GameSettings.cs', contents: '// edited' } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ path: 'Assets/Scripts/GameSettings.cs', compile: { domainReload: true } });
    expect(executedTools(workspace)).toEqual(['edit_script']);
  });
});
