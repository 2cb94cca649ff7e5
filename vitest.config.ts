import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/slow/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for a state other processes reach on their own: on a loaded machine that
    // can take longer than vitest's default second. A check that fails still fails, later.
    expect: { poll: { timeout: 10_000 } },
    // Integration tests spawn real processes; two cores are what CI has.
    pool: 'forks',
    maxWorkers: 2,
  },
});
