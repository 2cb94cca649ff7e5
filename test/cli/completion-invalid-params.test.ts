/**
 * A security review: `completion/complete` with a non-string argument value was answered
 * -32603 (internal error) with the schema library's raw issue list, where MCP says -32602
 * (invalid params). Through a real `tether mcp`, as a client's bytes reach it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TetherProcess, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

afterEach(cleanupProcesses);

describe('completion/complete with params that do not fit the MCP schema', () => {
  it('is -32602 Invalid params naming the field, not -32603 with a schema dump, and the session goes on', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-fixtures']);
    const mcp = new TetherProcess(['mcp', '--project', workspace.project], workspace.env, { stdin: 'pipe' });
    const send = (message: object): void => void mcp.child.stdin!.write(`${JSON.stringify(message)}\n`);
    const answer = async (id: number): Promise<{ result?: unknown; error?: { code: number; message: string } }> =>
      JSON.parse(await mcp.waitForLine((line) => line.includes(`"id":${id}`))) as { error?: { code: number; message: string } };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await answer(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ref = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };

    send({ jsonrpc: '2.0', id: 2, method: 'completion/complete', params: { ref, argument: { name: 'arg1', value: 5 } } });
    const { error } = await answer(2);
    expect(error).toEqual({ code: -32602, message: 'Invalid params for completion/complete: argument.value: Invalid input: expected string, received number.' });

    send({ jsonrpc: '2.0', id: 3, method: 'completion/complete', params: { ref, argument: { name: 'arg1', value: 'a' } } });
    expect(await answer(3)).toMatchObject({ result: { completion: { values: expect.any(Array) } } });
  });
});
