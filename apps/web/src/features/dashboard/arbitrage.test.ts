// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { arbitrageBody, bucketFor, defaultRange, rangeDays, rangeProblem } from './arbitrage.ts';

describe('arbitrage overview filters', () => {
  it('defaults to this month up to today', () => {
    expect(defaultRange(new Date(2026, 1, 17, 23, 30))).toEqual({ start: '2026-02-01', end: '2026-02-17' });
    expect(defaultRange(new Date(2026, 0, 1, 0, 5))).toEqual({ start: '2026-01-01', end: '2026-01-01' });
  });

  it('counts both ends and picks day bars up to 62 days, months beyond', () => {
    expect(rangeDays('2026-03-01', '2026-03-01')).toBe(1);
    expect(rangeDays('2026-03-28', '2026-03-31')).toBe(4); // across the DST change in Europe
    expect(bucketFor('2026-01-01', '2026-03-03')).toBe('day'); // 62 days
    expect(bucketFor('2026-01-01', '2026-03-04')).toBe('month');
    expect(bucketFor('2020-01-01', '2026-01-01')).toBe('month');
  });

  it('names what is wrong with a range', () => {
    expect(rangeProblem('2026-03-02', '2026-03-01')).toBe('开始日期不能晚于结束日期');
    expect(rangeProblem('2010-01-01', '2026-03-01')).toBe('日期范围过长：最多10年');
    expect(rangeProblem('2016-03-01', '2026-03-01')).toBeNull();
  });

  it('asks for chosen stations before the company, and for everything in scope without either', () => {
    const base = { start: '2026-03-01', end: '2026-03-31' };
    expect(arbitrageBody({ ...base, companyId: 3, siteIds: [9, 2] })).toEqual({ ...base, bucket: 'day', siteIds: [2, 9] });
    expect(arbitrageBody({ ...base, companyId: 3, siteIds: [] })).toEqual({ ...base, bucket: 'day', companyId: 3 });
    expect(arbitrageBody({ ...base, siteIds: [] })).toEqual({ ...base, bucket: 'day' });
  });
});
