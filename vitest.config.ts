import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real processes (sshd, engines, Chromium) on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
