/** The sandbox's undo history (src/sandbox/undo.ts), on a plain target. */
import { describe, expect, it } from 'vitest';
import { RollbackFailed, UndoHistory, type UndoRecord } from '../../src/sandbox/undo.js';

function counter(initial: Record<string, number> = { a: 0 }) {
  let state = structuredClone(initial);
  const target = { capture: () => structuredClone(state), restore: (s: Record<string, number>) => (state = structuredClone(s)) };
  return { target, get: () => state, set: (key: string, value: number) => (state[key] = value) };
}

describe('UndoHistory', () => {
  it('undoes and redoes whole groups, most recent first', () => {
    const c = counter();
    const history = new UndoHistory(c.target);
    history.group('one', () => c.set('a', 1));
    history.group('two', () => (c.set('a', 2), c.set('b', 5)));
    expect(history.undoNames).toEqual(['two', 'one']);
    expect(history.undo()).toEqual(['two']);
    expect(c.get()).toEqual({ a: 1 });
    expect(history.redoNames).toEqual(['two']);
    expect(history.undo(5)).toEqual(['one']);
    expect(c.get()).toEqual({ a: 0 });
    expect(history.undo()).toEqual([]);
    expect(history.redo(2)).toEqual(['one', 'two']);
    expect(c.get()).toEqual({ a: 2, b: 5 });
  });

  it('rolls a change that throws back, and records nothing', () => {
    const c = counter();
    const history = new UndoHistory(c.target);
    expect(() =>
      history.group('half', () => {
        c.set('a', 9);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(c.get()).toEqual({ a: 0 });
    expect(history.undoNames).toEqual([]);
  });

  it('keeps why a change failed when rolling it back fails too, and says both', () => {
    const history = new UndoHistory({
      capture: () => ({ a: 0 }),
      restore: () => {
        throw new Error('disk full');
      },
    });
    const why = new Error('refused');
    let thrown: unknown;
    try {
      history.group('half', () => {
        throw why;
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RollbackFailed);
    const failed = thrown as RollbackFailed;
    expect(failed.original).toBe(why);
    expect(failed.rollbackProblem).toBe('disk full');
    expect(failed.message).toBe('refused Rolling back the change failed too (disk full): some of it may remain.');
    expect(history.undoNames).toEqual([]);
  });

  it('records no group for a change that changed nothing, and joins nested groups into one', () => {
    const c = counter();
    const history = new UndoHistory(c.target);
    history.group('nothing', () => undefined);
    history.group('outer', () => {
      c.set('a', 1);
      history.group('inner', () => c.set('a', 2));
    });
    expect(history.undoNames).toEqual(['outer']);
  });

  it('clears what could be redone on a new edit, keeps at most `limit` groups, and reports each change', () => {
    const c = counter();
    const records: UndoRecord<Record<string, number>>[] = [];
    const history = new UndoHistory(c.target, { limit: 2, onChange: (r) => records.push(structuredClone(r)) });
    for (let i = 1; i <= 3; i++) history.group(`set ${i}`, () => c.set('a', i));
    expect(history.undoNames).toEqual(['set 3', 'set 2']);
    history.undo();
    history.group('other', () => c.set('a', 7));
    expect(history.redoNames).toEqual([]);
    expect(records.at(-1)?.done.map((g) => g.name)).toEqual(['set 2', 'other']);
    const resumed = new UndoHistory(c.target, { initial: records.at(-1)! });
    expect(resumed.undo(2)).toEqual(['other', 'set 2']);
    expect(c.get()).toEqual({ a: 1 });
  });
});
