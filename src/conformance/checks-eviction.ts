/**
 * Single-connection hosts (protocol.md §10): a host that declares capabilities.maxConnections
 * evicts its oldest connection when one too many completes its hello, and tells it so, with a
 * bye, before it closes it. A host that declares no limit has nothing here to check.
 */
import { Bye, METHODS } from '../protocol/index.js';
import { assert, assertEqual, show, within } from './assertions.js';
import { CheckSkipped } from './errors.js';
import type { Session } from './session.js';
import type { Check } from './types.js';

/** More connections than this at once would make a check of its own; hosts that need eviction serve one or a few. */
const MAX_TESTABLE_CONNECTIONS = 64;
const CLOSES_WITHIN_MS = 5_000;

export const evictionChecks: readonly Check[] = [
  {
    id: 'connections.eviction',
    requirement: 'EV-1',
    title: 'at capabilities.maxConnections, one connection more evicts the oldest with a bye (reason and status "evicted", newClientEndpoint) before closing it',
    async run(context) {
      const max = context.hello.capabilities.maxConnections;
      if (max === undefined) throw new CheckSkipped('the host declares no connection limit (capabilities.maxConnections), so it evicts no one (protocol.md §10)');
      if (max > MAX_TESTABLE_CONNECTIONS) throw new CheckSkipped(`the host serves ${max} connections at a time, more than the ${MAX_TESTABLE_CONNECTIONS} this check opens`);
      const served: Session[] = [];
      for (let i = 0; i < max; i++) served.push(await context.connect({ clientName: `tether-conformance-${i + 1}` }));
      const oldest = served[0] as Session;
      const newcomer = await context.raw();
      const response = await newcomer.hello(context.target);
      assert(!('error' in response), `the hello of connection ${max + 1} was refused (the newest connection is always admitted): ${show('error' in response ? response.error : undefined)}`);

      await within(oldest.closed, CLOSES_WITHIN_MS, `the oldest of ${max + 1} connections closing`);
      const methods = oldest.notices.map((n) => n.method);
      const bye = oldest.notices.find((n) => n.method === METHODS.bye);
      assert(bye, `the oldest connection was closed without a ${METHODS.bye} (notifications: ${show(methods)})`);
      assertEqual(methods.at(-1), METHODS.bye, 'the last notification before the close');
      const parsed = Bye.safeParse(bye.params);
      assert(parsed.success, `a malformed bye: ${show(bye.params)}`);
      const { reason, status, newClientEndpoint, message } = parsed.data;
      assertEqual({ reason, status, newClientEndpoint }, { reason: 'evicted', status: 'evicted', newClientEndpoint: newcomer.localEndpoint }, 'the bye of the evicted connection');
      assert(message.length > 0, 'the bye of the evicted connection must say what happened (message)');
      assert(!newcomer.isClosed, 'the newest connection was closed: it is the one a host admits');
      for (const [i, session] of served.slice(1).entries()) assert(session.isOpen, `connection ${i + 2} of ${max} was closed too: only the oldest goes`);
    },
  },
];
