/**
 * Where `tether serve` listens and which names and origins it answers: loopback unless
 * `--allow-remote` says otherwise (and then a warning that plain HTTP carries the token in
 * clear), the bind address and the names given with `--allowed-host`, loopback origins and
 * those given with `--allowed-origin`.
 */
import type { Logger } from 'pino';
import { TetherError } from '../protocol/index.js';
import { allowedHostName, allowedOrigin, bindHostName, loopbackHosts } from './request-guards.js';

/** Bind addresses that listen on every interface, as `bindHostName` names them. */
const WILDCARD_NAMES = new Set(['0.0.0.0', '[::]']);

export interface ListenOptions {
  /** The address to bind (default 127.0.0.1). */
  host?: string;
  /** Required to bind anything but loopback. */
  allowRemote?: boolean;
  /** More host names requests may be addressed to (`--allowed-host`): the names remote clients use. */
  allowedHosts?: string[];
  /** Origins, besides loopback ones, whose browser pages may call (`--allowed-origin`). */
  allowedOrigins?: string[];
}

export interface ListenAddress {
  host: string;
  /** The names requests may be addressed to (the Host guard). */
  allowedHosts: Set<string>;
  /** Origins, besides loopback ones, whose pages may call. */
  allowedOrigins: Set<string>;
}

/** Checks the address and names (a bad one throws INVALID_PARAMS) and warns of what a remote bind implies. */
export function listenAddress(options: ListenOptions, logger: Logger): ListenAddress {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote) {
    throw new TetherError('INVALID_PARAMS', `Refusing to listen on ${host}: only loopback addresses are served unless --allow-remote is given (and then every client still needs the token).`, {
      host,
    });
  }
  const bindName = bindHostName(host) ?? host.toLowerCase();
  const namedHosts = (options.allowedHosts ?? []).map(allowedHostName);
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map(allowedOrigin));
  if (!isLoopback(host)) {
    logger.warn({ host }, 'serving plain HTTP beyond loopback: the bearer token crosses the network in clear text; put a TLS proxy in front (and name its host with --allowed-host)');
  }
  // Remote names are not guessed (that is what the Host check is for), so say what to do.
  if (WILDCARD_NAMES.has(bindName) && namedHosts.length === 0) {
    logger.warn({ host }, 'listening on every interface, but only requests addressed to a loopback name or to the bind address are served: name the hosts remote clients use with --allowed-host');
  }
  // The bind address too, loopback or not: `--host 127.0.0.2` prints a URL that must work.
  return { host, allowedHosts: loopbackHosts([bindName, ...namedHosts]), allowedOrigins };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
