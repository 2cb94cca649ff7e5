/**
 * Whether an object became garbage: tests that something closed is not kept alive by what it
 * armed (timers, listeners) hold it by a WeakRef and ask this.
 */
import { expect } from 'vitest';
import { fullCollection } from '../../src/http/memory-reclaimer.js';

/** True once `ref`'s target is collected, after full collections; sockets take a few turns of the event loop to close. */
export async function collected(ref: WeakRef<object>): Promise<boolean> {
  const collect = fullCollection();
  expect(collect, 'this runtime gives no full garbage collection').toBeDefined();
  // The target stays alive at least until the job that last read the WeakRef ends: each turn is a new one.
  for (let turns = 0; turns < 100 && ref.deref() !== undefined; turns++) {
    await new Promise((resolve) => setImmediate(resolve));
    collect!();
  }
  return ref.deref() === undefined;
}
