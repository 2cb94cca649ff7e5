/**
 * The hop floor: a stdio MCP server with no SDK and no checks, the least any server can do.
 * It reads newline-delimited JSON, answers `initialize`, `tools/list` and `ping` with fixed
 * JSON, ignores notifications, and answers `tools/call` either in-process or, with `--relay
 * PORT`, by forwarding it as one JSON line over loopback TCP to raw-tcp-host.js and writing
 * the answer back. The pair, measured with the same SDK client as every other side, shows
 * what the hop to another process costs by itself: with `--relay` it is the fastest a bridge
 * with a hop can answer on this machine, whatever it does, so a goal it misses is out of
 * reach for any such bridge.
 *
 *   node raw-mcp-server.js                 answers tools/call in-process
 *   node raw-mcp-server.js --relay PORT    forwards tools/call to raw-tcp-host.js on PORT
 */
import { connect } from 'node:net';
import { readLines } from './lines.js';
import { ECHO_TOOL, PAYLOAD_TOOL, answerTool } from './payloads.js';

interface Message {
  id?: number | string;
  method?: string;
  params?: { protocolVersion?: string; name?: string; arguments?: Record<string, unknown> };
}

const answer = (id: Message['id'], result: unknown): void => {
  process.stdout.write(`{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
};

const relayAt = process.argv.indexOf('--relay');
let forward: ((id: Message['id'], name: string, args: Record<string, unknown>) => void) | undefined;
if (relayAt >= 0) {
  const socket = connect({ port: Number(process.argv[relayAt + 1]), host: '127.0.0.1', noDelay: true });
  // raw-tcp-host answers `{ id, result }`: the result is written back as it came, unparsed.
  readLines(socket, (line) => {
    const resultAt = line.indexOf(',"result":');
    const id = line.slice('{"id":'.length, resultAt);
    process.stdout.write(`{"result":${line.slice(resultAt + ',"result":'.length, -1)},"jsonrpc":"2.0","id":${id}}\n`);
  });
  socket.on('error', (error) => process.stderr.write(`raw relay: ${error.message}\n`));
  socket.on('close', () => process.exit(1));
  forward = (id, name, args) => socket.write(`${JSON.stringify({ id, name, arguments: args })}\n`);
}

readLines(process.stdin, (line) => {
  const message = JSON.parse(line) as Message;
  if (message.id === undefined) return; // a notification
  switch (message.method) {
    case 'initialize':
      return answer(message.id, { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw-mcp', version: '1.0.0' } });
    case 'tools/list':
      return answer(message.id, { tools: [ECHO_TOOL, PAYLOAD_TOOL] });
    case 'ping':
      return answer(message.id, {});
    case 'tools/call': {
      const name = message.params?.name ?? '';
      const args = message.params?.arguments ?? {};
      return forward ? forward(message.id, name, args) : answer(message.id, answerTool(name, args));
    }
    default:
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })}\n`);
  }
});
process.stdin.once('end', () => process.exit(0));
