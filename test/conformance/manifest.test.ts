import { describe, expect, it } from 'vitest';
import { CHECKS, REQUIREMENTS, formatResult, formatSummary, selectChecks } from '../../src/conformance/index.js';
import { whereStated } from '../../src/conformance/requirements.js';

describe('conformance manifest', () => {
  it('covers every requirement with at least one check', () => {
    const covered = new Set(CHECKS.map((check) => check.requirement));
    expect(REQUIREMENTS.filter((r) => !covered.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('says, for every requirement, where protocol.md states it', () => {
    expect(REQUIREMENTS.filter((r) => !whereStated(r.id).includes('protocol.md §')).map((r) => r.id)).toEqual([]);
    // By its group, unless the requirement names its own sections.
    expect(whereStated('FA-1')).toBe('FA-1, protocol.md §8.8');
    expect(whereStated('RL-2')).toBe('RL-2, protocol.md §8.1, §8.5, §9');
  });

  it('declares how many connections a check holds at once only where it holds more than one', () => {
    expect(CHECKS.filter((c) => c.connections !== undefined && c.connections < 2).map((c) => c.id)).toEqual([]);
    expect(CHECKS.filter((c) => c.connections !== undefined).map((c) => c.id)).toEqual(['calls.attach-other-connection', 'fairness.round-robin']);
  });

  it('names only known requirements, with unique dotted check ids', () => {
    const known = new Set<string>(REQUIREMENTS.map((r) => r.id));
    expect(CHECKS.filter((c) => !known.has(c.requirement)).map((c) => c.id)).toEqual([]);
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
    expect(new Set(REQUIREMENTS.map((r) => r.id)).size).toBe(REQUIREMENTS.length);
  });

  it('runs the reload checks last, since they take the host away', () => {
    const firstReload = CHECKS.findIndex((c) => c.needs?.includes('tether_conformance_reload'));
    expect(CHECKS.slice(firstReload).every((c) => c.needs?.includes('tether_conformance_reload'))).toBe(true);
  });

  it('filters by id substring', () => {
    expect(selectChecks(CHECKS, 'handshake').map((c) => c.id)).toEqual(CHECKS.filter((c) => c.id.startsWith('handshake.')).map((c) => c.id));
    expect(selectChecks(CHECKS, 'no-such-check')).toEqual([]);
    expect(selectChecks(CHECKS)).toHaveLength(CHECKS.length);
  });

  it('prints one line per check and the summary line scripts match', () => {
    expect(formatSummary({ passed: 3, failed: 0, skipped: 0 })).toBe('3 passed, 0 failed');
    expect(formatSummary({ passed: 3, failed: 1, skipped: 2 })).toBe('3 passed, 1 failed, 2 skipped');
    const line = formatResult({ id: 'a.b', requirement: 'HS-1', title: 'does it', status: 'failed', durationMs: 1500, detail: 'first\n  second' });
    expect(line).toBe('✗ a.b  does it (1.5 s) — first second (HS-1, protocol.md §6)');
    expect(formatResult({ id: 'a.c', requirement: 'HS-1', title: 'kit', status: 'skipped', durationMs: 0, detail: 'why' })).toBe('- a.c  kit — skipped: why');
  });
});
