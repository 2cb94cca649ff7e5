/**
 * What a connection needs from its host: the options and identity, the call engine and the
 * catalog, the answers only the host can give (hello, host/status), and the listener's say
 * on admitting and forgetting it. Declared apart from both, so that neither imports the other.
 */
import type { HelloResult, HostIdentity, HostStatusResult, ToolDescriptor } from '../protocol/index.js';
import type { CallManager } from './call-manager.js';
import type { Catalog } from './catalog.js';
import type { ResolvedOptions } from './host-options.js';

/** A connection as the host sees it when it admits or forgets one. */
export interface ConnectionPeer {
  readonly id: string;
  readonly clientName: string;
  /** The peer's address:port (or what names the stream it came over). */
  readonly endpoint: string;
}

export interface HostCore {
  readonly options: ResolvedOptions;
  readonly identity: HostIdentity;
  readonly calls: CallManager;
  readonly catalog: Catalog;
  toolDescriptors(): ToolDescriptor[];
  helloResult(connectionId: string): HelloResult;
  /** The host/status result (protocol.md §7.16), from the network side. */
  status(): HostStatusResult;
  /** The connection passed its handshake: past maxConnections, the oldest others are evicted. */
  admitted(connection: ConnectionPeer): void;
  forget(connection: ConnectionPeer): void;
  /** True the first time a client's proof nonce is seen by this listener: a replayed hello is refused. */
  firstUseOf(nonce: string): boolean;
}
