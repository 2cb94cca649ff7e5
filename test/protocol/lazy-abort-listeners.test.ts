import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/errors.js';
import { LazyAbort } from '../../src/protocol/lazy-abort.js';

/**
 * LazyAbort keeps its listeners in an array; it kept them in a Set. The model below is the
 * Set: whatever listeners are added and removed, in whatever order, before or after the
 * abort, each is told exactly as a Set would have told it.
 */
type Step = { op: 'on' | 'off'; listener: number } | { op: 'abort' };

const steps = fc.array(
  fc.oneof({ arbitrary: fc.record({ op: fc.constantFrom('on' as const, 'off' as const), listener: fc.nat({ max: 4 }) }), weight: 8 }, { arbitrary: fc.constant({ op: 'abort' as const }), weight: 1 }),
  { maxLength: 30 },
);

function heardWith(run: Step[], listeners: 'set' | 'lazy'): number[] {
  const heard: number[] = [];
  const reason = new TetherError('CANCELLED', 'stop');
  const fns = Array.from({ length: 5 }, (_, n) => (): void => void heard.push(n));
  if (listeners === 'lazy') {
    const abort = new LazyAbort();
    for (const step of run) {
      if (step.op === 'abort') abort.abort(reason);
      else if (step.op === 'on') abort.onAbort(fns[step.listener]!);
      else abort.offAbort(fns[step.listener]!);
    }
    return heard;
  }
  // What LazyAbort did with a Set.
  let set: Set<() => void> | undefined;
  let aborted = false;
  for (const step of run) {
    if (step.op === 'abort') {
      if (aborted) continue;
      aborted = true;
      const snapshot = set;
      set = undefined;
      for (const fn of snapshot ?? []) fn();
    } else if (step.op === 'on') {
      if (aborted) fns[step.listener]!();
      else (set ??= new Set()).add(fns[step.listener]!);
    } else set?.delete(fns[step.listener]!);
  }
  return heard;
}

describe('LazyAbort listeners', () => {
  it('tells the listeners a Set would have told, in its order, each once', () => {
    fc.assert(
      fc.property(steps, (run) => {
        expect(heardWith(run, 'lazy')).toEqual(heardWith(run, 'set'));
      }),
      { numRuns: 5000 },
    );
  });

  it('removes a listener while others are told, as a Set snapshot would leave it told', () => {
    const abort = new LazyAbort();
    const heard: string[] = [];
    const second = (): void => void heard.push('second');
    abort.onAbort(() => {
      heard.push('first');
      abort.offAbort(second);
    });
    abort.onAbort(second);
    abort.abort(new TetherError('CANCELLED', 'stop'));
    expect(heard).toEqual(['first', 'second']);
  });
});
