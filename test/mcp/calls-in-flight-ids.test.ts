import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentLabel, freshCallId } from '../../src/mcp/calls-in-flight.js';
import type { Agent } from '../../src/protocol/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('freshCallId: a version 4 UUID from the CSPRNG, written flat', () => {
  it('gives version 4 UUIDs, none twice, across many refills of its random bytes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const id = freshCallId();
      if (!UUID_V4.test(id)) expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(50_000);
  });

  it('uses every value in every random digit (122 random bits, not a counter)', () => {
    // The 30 hex digits that are not the version and the variant's fixed bits.
    const digits = Array.from({ length: 32 }, () => new Set<string>());
    for (let i = 0; i < 4_000; i++) [...freshCallId().replaceAll('-', '')].forEach((digit, at) => digits[at]!.add(digit));
    const counts = digits.map((values) => values.size);
    expect(counts[12]).toBe(1); // the version, 4
    expect(counts[16]).toBe(4); // the variant, 8 to b
    expect(counts.filter((_, at) => at !== 12 && at !== 16)).toEqual(Array.from({ length: 30 }, () => 16));
  });

  it('gives another process other ids (nothing in it is seeded per build or per start time)', () => {
    const script = "import('./src/mcp/calls-in-flight.ts').then((m) => console.log(JSON.stringify(Array.from({ length: 2000 }, () => m.freshCallId()))))";
    const run = (): string[] => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' })) as string[];
    const [first, second] = [run(), run()];
    const here = new Set(Array.from({ length: 2000 }, () => freshCallId()));
    expect(new Set([...first, ...second, ...here]).size).toBe(6000);
    expect(first.every((id) => UUID_V4.test(id))).toBe(true);
  });
});

/** The label as calls-in-flight made it on every call before it kept one per agent. */
function labelAsBefore(agent: Agent | undefined): string | undefined {
  const label = agent ? `${agent.name}${agent.version ? ` ${agent.version}` : ''}` : undefined;
  return label || undefined;
}

describe('agentLabel: the call log name of an agent, kept per agent object', () => {
  it('names each agent as a new label made on every call would, also after a change in place', () => {
    const text = fc.oneof(fc.constantFrom('', 'claude-code', '2.1', 'a"b'), fc.string());
    const agents = [{ name: 'claude-code', version: '2.1' }, { name: 'inspector' }, { name: '' }] as Agent[];
    // Each step: label one of a few long-lived agents, a fresh one, or nothing, or change one in place first.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('label' as const), which: fc.nat(agents.length - 1) }),
      fc.record({ kind: fc.constant('fresh' as const), name: text, version: fc.option(text, { nil: undefined }) }),
      fc.record({ kind: fc.constant('none' as const) }),
      fc.record({ kind: fc.constant('change' as const), which: fc.nat(agents.length - 1), name: text, version: fc.option(text, { nil: undefined }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        for (const s of steps) {
          let agent: Agent | undefined;
          if (s.kind === 'none') agent = undefined;
          else if (s.kind === 'fresh') agent = { name: s.name, ...(s.version === undefined ? {} : { version: s.version }) };
          else {
            agent = agents[s.which]!;
            if (s.kind === 'change') Object.assign(agent, { name: s.name, version: s.version });
          }
          expect(agentLabel(agent)).toBe(labelAsBefore(agent));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the same string for the same agent, call after call', () => {
    const agent = { name: 'claude-code', version: '2.1' };
    expect([agentLabel(agent), agentLabel(agent)]).toEqual(['claude-code 2.1', 'claude-code 2.1']);
    expect(agentLabel({ name: 'claude-code' })).toBe('claude-code');
  });
});
