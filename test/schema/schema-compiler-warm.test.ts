/**
 * A host pays for the JSON Schema compiler's start-up (loading Ajv, compiling the meta-schema
 * each schema is checked against) when it registers a tool, before it says it is ready, and
 * not in the first call after a restart, which an agent is waiting on (the recovery figure in
 * docs/performance.md). Counted, not timed: Ajv turns each schema it compiles into one
 * `new Function`, so the first call after registration must create exactly one, its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { registerTool } from '../../src/host/tools.js';

const RealFunction = globalThis.Function;
afterEach(() => void (globalThis.Function = RealFunction));

/** Counts the functions compiled from source while `run` runs. */
function compiledDuring(run: () => void): number {
  let count = 0;
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args: string[]) {
      count++;
      return Reflect.construct(target, args);
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = RealFunction;
  }
  return count;
}

describe('the JSON Schema compiler', () => {
  it('is ready once a host registers a tool with a JSON Schema: the first call compiles only that schema', () => {
    const tool = registerTool({
      name: 'echo',
      description: 'Says it back.',
      input: { type: 'object', properties: { text: { type: 'string' } } },
      handler: (args) => String((args as { text?: unknown }).text),
    });
    // This file runs in a process of its own (vitest's forks pool): nothing compiled before it.
    expect(compiledDuring(() => tool.validate({ text: 'hi' }))).toBe(1);
    expect(compiledDuring(() => tool.validate({ text: 'again' }))).toBe(0);
  });
});
