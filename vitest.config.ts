import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

const isBrowserTest = (f: TestSpecification) => /[\\/]e2e[\\/][^\\/]+\.e2e\.test\.ts$/.test(f.moduleId);

/**
 * Browser test files spread out among the node test files instead of run back to back. Vitest's
 * own order (kept within each kind: failed first, then longest first by the last run's times, or
 * largest first when there is none) otherwise queues them together, so two browsers start at once
 * and then the rest waits; spread out, about one browser runs at a time beside the other tests
 * (docs/decisions/0019). The first browser test goes first: they are the longest files.
 */
/**
 * The longest browser files (the timing report of `npm test`), put first even on a clean clone:
 * Vitest then has no timings of an earlier run and orders by file size, and the layout walk, a
 * short file that runs ten minutes, started half-way through CI's run.
 */
const LONGEST_FIRST = ['layout.e2e.test.ts', 'screens.e2e.test.ts'];
const longRank = (f: TestSpecification) => {
  const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
  return i < 0 ? LONGEST_FIRST.length : i;
};

class SpreadBrowserTests extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter(isBrowserTest).sort((a, b) => longRank(a) - longRank(b));
    const node = sorted.filter((f) => f.project.name === 'node' && !isBrowserTest(f));
    const others = sorted.filter((f) => f.project.name !== 'node');
    const spread: TestSpecification[] = [];
    const every = browser.length ? node.length / browser.length : 0;
    browser.forEach((b, i) => {
      spread.push(b, ...node.slice(Math.round(i * every), Math.round((i + 1) * every)));
    });
    if (!browser.length) spread.push(...node);
    return [...spread, ...others];
  }
}

export default defineConfig({
  test: {
    // Two test files at a time (CI has two cores); left to itself Vitest ran one file at a time here.
    maxWorkers: 2,
    sequence: { sequencer: SpreadBrowserTests },
    projects: [
      {
        test: {
          // The server's tests and the browser tests (each runs the real server in its process and a
          // Chromium) in one project: one pool, so a browser test runs beside the other tests
          // instead of after all of them, and workers keep their module cache across both kinds.
          name: 'node',
          include: ['apps/server/**/*.test.ts', 'packages/**/*.test.ts', 'docs/**/*.test.ts', 'e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Files share a worker's module cache: the server's code is imported once per worker,
          // not once per file (no server or browser test mocks modules or globals; each starts its
          // own app on its own database).
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/**/*.test.ts', 'apps/web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // A hang guard, not a speed check: a component test that renders antd tables in jsdom takes
          // a few seconds on a quiet machine and several times that beside a browser test.
          testTimeout: 30_000,
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
    ],
  },
});
