import { describe, expect, it } from 'vitest';
import { exponentialBackoffMs } from './backoff.ts';

describe('exponential backoff', () => {
  it('waits the base after the first failure, doubles after each further one, and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => exponentialBackoffMs(n, 500, 5000))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(exponentialBackoffMs(40, 60_000, 3_600_000)).toBe(3_600_000);
  });

  it('treats an attempt count below one as the first failure', () => {
    expect(exponentialBackoffMs(0, 1000, 10_000)).toBe(1000);
    expect(exponentialBackoffMs(-3, 1000, 10_000)).toBe(1000);
  });
});
