import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/slow/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real processes; two cores are what CI has.
    pool: 'forks',
    maxWorkers: 2,
  },
});
