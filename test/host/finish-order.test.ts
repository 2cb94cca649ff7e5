/** The journal's queue of finished calls (src/host/finish-order.ts): oldest first, whatever the clock did. */
import { describe, expect, it } from 'vitest';
import { FinishOrder, type Finished } from '../../src/host/finish-order.js';

const at = (callId: string, finishedAt: number): Finished => ({ callId, finishedAt });

describe('FinishOrder', () => {
  it('hands out the oldest first, and puts one that finished earlier by a clock set back before later ones', () => {
    const queue = new FinishOrder<Finished>();
    for (const item of [at('a', 10), at('b', 20), at('c', 30), at('back', 15), at('d', 30)]) queue.push(item);
    const order: string[] = [];
    for (let item = queue.shift(); item; item = queue.shift()) order.push(item.callId);
    expect(order).toEqual(['a', 'back', 'b', 'c', 'd']);
    expect(queue.length).toBe(0);
    expect(queue.peek()).toBeUndefined();
  });

  it('keeps its array about as long as what it holds, taken one at a time', () => {
    const queue = new FinishOrder<Finished>();
    for (let i = 0; i < 10_000; i++) {
      queue.push(at(`c${i}`, i));
      if (i >= 2) expect(queue.shift()?.callId).toBe(`c${i - 2}`);
    }
    expect(queue.length).toBe(2);
    expect((queue as unknown as { items: unknown[] }).items.length).toBeLessThan(2_100);
    expect(queue.peek()?.callId).toBe('c9998');
  });
});
