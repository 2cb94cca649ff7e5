/**
 * A TCP proxy between a front and a host, to cut the link on cue (a network blip) without
 * touching either process. `dropAll()` destroys every proxied connection; new ones still work.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  connections = 0;

  private constructor(targetPort: number) {
    this.server = createServer((client) => {
      this.connections++;
      const upstream = connect({ port: targetPort, host: '127.0.0.1' });
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
