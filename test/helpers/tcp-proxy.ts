/**
 * A TCP proxy between a front and a host, to fail the link on cue without touching either
 * process: `dropAll()` cuts every proxied connection at once (a network blip), `stallAll()`
 * stops carrying bytes with both ends left open (half-open: a peer gone without a FIN). New
 * connections still work; `retarget()` follows a restarted host.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  connections = 0;

  private constructor(private targetPort: number) {
    this.server = createServer((client) => {
      this.connections++;
      const upstream = connect({ port: this.targetPort, host: '127.0.0.1' });
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const end = (): void => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** Cuts every live connection at once, as a network blip does. */
  dropAll(): number {
    const count = this.pairs.size;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    return count;
  }

  /** Stops carrying bytes on every live connection, both ends left open, until `ms` pass; then cuts them. */
  stallAll(ms: number): number {
    const stalled = [...this.pairs];
    for (const [client, upstream] of stalled) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    setTimeout(() => {
      for (const pair of stalled) {
        pair[0].destroy();
        pair[1].destroy();
        this.pairs.delete(pair);
      }
    }, ms).unref();
    return stalled.length;
  }

  /** Sends new connections to another port (a restarted host's). */
  retarget(targetPort: number): void {
    this.targetPort = targetPort;
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Points a host's record at this proxy, so fronts reach the host through it. */
  routeRecord(hostsDir: string, instanceId: string): void {
    const path = join(hostsDir, `${instanceId}.json`);
    const record = JSON.parse(readFileSync(path, 'utf8')) as { port: number };
    writeFileSync(path, JSON.stringify({ ...record, port: this.port }), { mode: 0o600 });
  }
}
