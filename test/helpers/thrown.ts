/** The error of class `type` that `action` throws synchronously; fails the test if it throws nothing, rethrows any other. */
export function thrownBy<E extends Error>(action: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    action();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
