import { describe, expect, it } from 'vitest';
import { isConnectionError, writeThroughOutage } from './outage.ts';

/** Drizzle's "Failed query" wrapper keeps the driver's error as its cause. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: update "mail_log" set …'), { cause });
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('isConnectionError', () => {
  it('sees a connection error through the query wrapper, and not a statement error', () => {
    expect(isConnectionError(refused)).toBe(true);
    expect(isConnectionError(wrapped(refused))).toBe(true);
    expect(isConnectionError(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isConnectionError(wrapped(Object.assign(new Error('syntax error'), { code: '42601' })))).toBe(false);
    expect(isConnectionError(wrapped(undefined))).toBe(false);
  });
});

describe('writeThroughOutage', () => {
  it('tries a wrapped connection error again until the write lands; any other error at once', async () => {
    let calls = 0;
    await expect(writeThroughOutage(async () => (++calls < 3 ? Promise.reject(wrapped(refused)) : 'landed'), 5_000)).resolves.toBe('landed');
    expect(calls).toBe(3);
    calls = 0;
    await expect(writeThroughOutage(async () => (++calls, Promise.reject(new Error('check violation'))), 5_000)).rejects.toThrow('check violation');
    expect(calls).toBe(1);
    calls = 0;
    await expect(writeThroughOutage(async () => (++calls, Promise.reject(refused)), 5_000, () => true)).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(1);
  });
});
