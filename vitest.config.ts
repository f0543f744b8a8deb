import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // One TMPDIR for the run, removed at its end (test/helpers/global-temp.ts).
    globalSetup: ['test/helpers/global-temp.ts'],
    // Each fast-check file's seed, printed before it runs (a crashed worker reports none).
    setupFiles: ['test/helpers/fast-check-seed.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real processes (sshd, engines, Chromium) on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
