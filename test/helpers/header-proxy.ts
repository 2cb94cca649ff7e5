/**
 * A loopback HTTP proxy that adds headers to every request it forwards, for clients that
 * cannot set any. The official MCP conformance runner (@modelcontextprotocol/conformance
 * 0.1.16) takes only `--url`: no header option, no environment variable (asked for upstream in
 * modelcontextprotocol/conformance#453). `tether serve` takes its token in the Authorization
 * header only, so the tests put this in front of it; it exists in the tests, never in the product.
 *
 * Everything else passes through unchanged, Host and Origin included (the suite's DNS
 * rebinding scenario checks that tether serve refuses a foreign Host), and so do streams
 * (SSE) in both directions; a client that goes away takes its upstream request with it.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class HeaderProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Proxies to `target` (an http:// URL on loopback); `url` is the same path on the proxy. */
  static async start(target: string, headers: Record<string, string>): Promise<HeaderProxy> {
    const upstream = new URL(target);
    const server = createServer((req, res) => {
      const forwarded = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...withoutHopByHop(req.headers), ...headers },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.flushHeaders();
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      res.on('close', () => forwarded.destroy());
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new HeaderProxy(server, `http://127.0.0.1:${port}${upstream.pathname}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}
