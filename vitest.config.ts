import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two test files at a time (CI has two cores); left to itself Vitest ran one file at a time here.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts', 'packages/**/*.test.ts', 'docs/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Files share a worker's module cache: the server's code is imported once per worker,
          // not once per file (no server test mocks modules or globals; each starts its own app).
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/**/*.test.ts', 'apps/web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'simulator',
          include: ['apps/simulator/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          // One browser test file at a time (each runs a server and a Chromium); the other worker
          // slot runs the server, web and simulator tests beside it.
          maxWorkers: 1,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
