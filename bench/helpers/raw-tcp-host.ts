/**
 * The thinnest possible editor behind a bridge: a TCP server speaking newline-delimited JSON,
 * one request line `{ id, name, arguments }` answered by one line `{ id, result }`, with the
 * same `echo` and `payload` tools as the bench host. No framing library, no handshake, no
 * journal. The SDK relay floor (`floor-sdk-server.js --relay PORT`) forwards to it, so the
 * pair measures what a hop to another process costs on this machine and nothing else.
 *
 *   node raw-tcp-host.js [--prewarm text:50,png:10]     prints {event:'listening', port}
 */
import { createServer } from 'node:net';
import { answerTool, prewarm } from './payloads.js';

const at = process.argv.indexOf('--prewarm');
prewarm(at >= 0 ? process.argv[at + 1] : undefined);

interface Request {
  id: number;
  name: string;
  arguments?: Record<string, unknown>;
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  let buffered = '';
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const request = JSON.parse(buffered.slice(0, newline)) as Request;
      buffered = buffered.slice(newline + 1);
      socket.write(`${JSON.stringify({ id: request.id, result: answerTool(request.name, request.arguments ?? {}) })}\n`);
      newline = buffered.indexOf('\n');
    }
  });
  socket.on('error', () => undefined);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ event: 'listening', port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
