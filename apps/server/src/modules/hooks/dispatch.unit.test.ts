import { describe, expect, it } from 'vitest';
import { judgeAddress, refusal } from './dispatch.guard.ts';
import { factsOf, filterMatches } from './dispatch.plan.ts';
import { backoffMs, MAX_BACKOFF_MS, retryAfterMs, verdictOf } from './dispatch.policy.ts';
import { maskJson, maskText } from './dispatch.script.ts';
import type { HookOutcome } from './dispatch.http.ts';

describe('the SSRF guard judges addresses', () => {
  it.each([
    ['127.0.0.1', 'private'], ['127.8.9.10', 'private'], ['10.0.0.1', 'private'], ['172.16.5.4', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'], ['100.127.255.254', 'private'], ['169.254.1.1', 'private'], ['0.0.0.0', 'private'], ['224.0.0.1', 'private'], ['255.255.255.255', 'private'],
    ['::1', 'private'], ['::', 'private'], ['fe80::1', 'private'], ['fc00::1', 'private'], ['fd12:3456::1', 'private'], ['::ffff:127.0.0.1', 'private'], ['::ffff:7f00:1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['169.254.169.254', 'metadata'], ['100.100.100.200', 'metadata'], ['fd00:ec2::254', 'metadata'], ['::ffff:169.254.169.254', 'metadata'], ['::ffff:a9fe:a9fe', 'metadata'],
    ['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['100.128.0.1', 'public'], ['2606:4700:4700::1111', 'public'], ['::ffff:8.8.8.8', 'public'],
  ])('%s is %s', (address, verdict) => {
    expect(judgeAddress(address)).toBe(verdict);
  });

  it('private addresses pass when allowed; metadata never', () => {
    expect(refusal('127.0.0.1', true)).toBeNull();
    expect(refusal('127.0.0.1', false)).toMatch(/本机、内网/);
    expect(refusal('169.254.169.254', true)).toMatch(/元数据/);
    expect(refusal('8.8.8.8', false)).toBeNull();
  });

});

describe('retry policy', () => {
  const answered = (status: number): HookOutcome => ({ ok: true, response: { status, headers: {}, body: '', truncated: false }, durationMs: 1 });
  it('only 2xx is delivered; 5xx, 408, 429, timeouts and connection errors are temporary; other answers and refusals permanent', () => {
    expect(verdictOf(answered(200))).toBe('delivered');
    expect(verdictOf(answered(204))).toBe('delivered');
    for (const s of [500, 502, 503, 504, 408, 429]) expect(verdictOf(answered(s))).toBe('temporary');
    for (const s of [301, 302, 400, 401, 403, 404, 410, 422]) expect(verdictOf(answered(s))).toBe('permanent');
    expect(verdictOf({ ok: false, error: { kind: 'timeout', message: '' }, durationMs: 1 })).toBe('temporary');
    expect(verdictOf({ ok: false, error: { kind: 'connection', message: '' }, durationMs: 1 })).toBe('temporary');
    expect(verdictOf({ ok: false, error: { kind: 'refused', message: '' }, durationMs: 1 })).toBe('permanent');
  });

  it('backoff: full jitter under base·2^(n-1), capped at an hour', () => {
    expect(backoffMs(1, 1000, () => 0.999)).toBe(999);
    expect(backoffMs(3, 1000, () => 0.5)).toBe(2000);
    expect(backoffMs(3, 1000, () => 0)).toBe(0);
    expect(backoffMs(30, 1000, () => 0.999)).toBeLessThan(MAX_BACKOFF_MS);
    const waits = Array.from({ length: 200 }, () => backoffMs(4, 1000));
    expect(Math.max(...waits)).toBeLessThan(8000);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it('Retry-After in seconds or as a date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('999999', now)).toBe(MAX_BACKOFF_MS);
  });
});

describe('filters', () => {
  it('stations, levels and statuses; each empty list lets anything through', () => {
    const alarm = factsOf({ siteId: 3, level: 2, description: 'x' });
    expect(filterMatches({}, alarm)).toBe(true);
    expect(filterMatches({ siteIds: [3, 4] }, alarm)).toBe(true);
    expect(filterMatches({ siteIds: [4] }, alarm)).toBe(false);
    expect(filterMatches({ levels: [1, 2] }, alarm)).toBe(true);
    expect(filterMatches({ levels: [1] }, alarm)).toBe(false);
    expect(filterMatches({ statuses: ['closed'] }, alarm)).toBe(false);
    const order = factsOf({ siteId: 3, from: 'pending', to: 'closed' });
    expect(filterMatches({ statuses: ['closed'] }, order)).toBe(true);
    expect(filterMatches({ levels: [1] }, order)).toBe(false);
    expect(filterMatches({ siteIds: [9] }, factsOf({ siteIds: [7, 9], fromDate: '2026-01-01' }))).toBe(true);
    expect(filterMatches({ siteIds: [9] }, factsOf({ companyId: 1 }))).toBe(false);
  });
});

describe('masking', () => {
  it('replaces every secret value in texts and JSON, keys included', () => {
    expect(maskText('Bearer abcdef and abcdef', ['abcdef'])).toBe('Bearer ****** and ******');
    expect(maskJson({ a: ['x-abcdef-y', 1, null], abcdef: true }, ['abcdef'])).toEqual({ a: ['x-******-y', 1, null], '******': true });
  });

  it('masks a secret shorter than 4 characters wherever it stands as a whole token, not inside other words', () => {
    expect(maskText('abc', ['abc'])).toBe('******');
    expect(maskText('Bearer ab', ['ab'])).toBe('Bearer ******');
    expect(maskText('https://x.example/in?token=ab&lab=1', ['ab'])).toBe('https://x.example/in?token=******&lab=1');
    expect(maskText(JSON.stringify({ token: 'ab', label: 'a tab' }), ['ab'])).toBe('{"token":"******","label":"a tab"}');
    expect(maskJson({ pin: '7', ab: ['ab', 'cab', 'ab.c'], n: 7 }, ['7', 'ab'])).toEqual({ pin: '******', '******': ['******', 'cab', '******.c'], n: 7 });
    // Regex characters in a secret are taken literally; the longer secret is masked whole first.
    expect(maskText('x (.) y a.b', ['(.)', 'a.b', 'a'])).toBe('x ****** y ******');
    expect(maskText('', ['ab'])).toBe('');
    expect(maskText('ab', [''])).toBe('ab');
  });
});
