/**
 * The context one check runs in. It owns every connection the check opens and every cleanup
 * the check registers, so that whatever the outcome (pass, failure, timeout) nothing the
 * check started outlives it: queued calls are cancelled and connections closed.
 */
import type { HelloResult, ToolDescriptor } from '../protocol/index.js';
import { assert, show } from './assertions.js';
import { RawConnection, type RawOptions } from './raw-connection.js';
import { Session, type SessionOptions } from './session.js';
import type { HostTarget } from './target.js';
import type { CheckContext } from './types.js';

/** A raw connection that has completed the handshake. */
export async function authenticated({ target, raw }: CheckContext, options?: RawOptions): Promise<RawConnection> {
  const connection = await raw(options);
  const response = await connection.hello(target);
  assert(!('error' in response), `the hello was refused: ${show('error' in response ? response.error : undefined)}`);
  return connection;
}

export interface OwnedContext {
  context: CheckContext;
  /** Runs the cleanups, last registered first (including ones registered while cleaning up). Never throws. */
  dispose(): Promise<void>;
}

export function createCheckContext(target: HostTarget, hello: HelloResult, tools: readonly ToolDescriptor[]): OwnedContext {
  const cleanups: Array<() => unknown> = [];
  const context: CheckContext = {
    hello,
    tools,
    target,
    defer: (cleanup) => {
      cleanups.push(cleanup);
    },
    connect: async (options?: SessionOptions) => {
      const session = await Session.open(target, options);
      cleanups.push(() => session.close());
      return session;
    },
    raw: async (options?: RawOptions) => {
      const raw = await RawConnection.open(target.port, target.address, options);
      cleanups.push(() => raw.close());
      return raw;
    },
    waitForHostBack: () => target.waitUntilBack(),
  };
  return {
    context,
    dispose: async () => {
      for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
        try {
          await cleanup();
        } catch {
          // Best effort: a cleanup that fails (host gone, call already final) must not hide the check's own outcome.
        }
      }
    },
  };
}
