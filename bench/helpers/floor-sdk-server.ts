/**
 * The SDK floor: an MCP server written directly on the SDK v2 (low-level `Server`), answering
 * the same `echo` and `payload` tools in-process, with nothing in between. Tether's figures
 * are divided by this server's, measured in the same run with the same client.
 *
 *   node floor-sdk-server.js                 stdio, through the SDK's serveStdio (as tether mcp)
 *   node floor-sdk-server.js --http          Streamable HTTP at /mcp, one SDK transport and server
 *                                            per 2025-era session (as tether serve); prints
 *                                            {event:'listening', url}
 *   … --relay PORT                           the SDK relay floor: tools/call is not answered here
 *                                            but forwarded, one JSON line each way over one TCP
 *                                            connection, to raw-tcp-host.js on PORT. The thinnest
 *                                            bridge with a hop to another process, as Tether has.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server, type CallToolResult } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { readLines } from './lines.js';
import { ECHO_TOOL, PAYLOAD_TOOL, answerTool } from './payloads.js';

type CallParams = { name: string; arguments?: Record<string, unknown> };

/** Forwards calls to raw-tcp-host.js: one connection, requests matched to answers by id. */
function relayTo(port: number): (params: CallParams) => Promise<CallToolResult> {
  const socket = connect({ port, host: '127.0.0.1', noDelay: true });
  const pending = new Map<number, (result: CallToolResult) => void>();
  let nextId = 0;
  readLines(socket, (line) => {
    const { id, result } = JSON.parse(line) as { id: number; result: CallToolResult };
    pending.get(id)?.(result);
    pending.delete(id);
  });
  socket.on('error', (error) => process.stderr.write(`relay: ${error.message}\n`));
  // Without its host the relay can answer nothing: exit rather than leave calls hanging.
  socket.on('close', () => process.exit(1));
  return (params) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      socket.write(`${JSON.stringify({ id, name: params.name, arguments: params.arguments })}\n`);
    });
}

const relayAt = process.argv.indexOf('--relay');
const relay = relayAt >= 0 ? relayTo(Number(process.argv[relayAt + 1])) : undefined;

function createFloorServer(): Server {
  const server = new Server({ name: 'sdk-floor', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', () => ({ tools: [ECHO_TOOL, PAYLOAD_TOOL] as never }));
  server.setRequestHandler('tools/call', (request): CallToolResult | Promise<CallToolResult> => {
    if (relay) return relay(request.params);
    return answerTool(request.params.name, request.params.arguments ?? {}) as unknown as CallToolResult;
  });
  return server;
}

if (process.argv.includes('--http')) {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const readBody = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  };
  const http = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const header = req.headers['mcp-session-id'];
      const id = Array.isArray(header) ? header[0] : header;
      let transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        if (id) {
          res.writeHead(404).end();
          return;
        }
        const sessionId = randomUUID();
        transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId, onsessionclosed: (closed) => void sessions.delete(closed) });
        sessions.set(sessionId, transport);
        await createFloorServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  http.listen(0, '127.0.0.1', () => {
    const { port } = http.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${port}/mcp` })}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
} else {
  serveStdio(() => createFloorServer());
  process.stdin.once('end', () => process.exit(0));
  process.stdin.once('close', () => process.exit(0));
}
