// @vitest-environment node
import { issueMessage, type PriceBand, type PriceCycleRecord } from '@ess/contract/pricing';
import { describe, expect, it } from 'vitest';
import {
  QUARTER_HOURS, addBand, cycleBody, draftIssues, draftOf, mergeWithNext, moveBoundary, removeBand, setPeriod, splitBand, uncoveredMonths,
  type CycleDraft,
} from './bands.ts';
import { monthRuns, priceOf } from './pricing.options.ts';

const band = (start: string, end: string, period: PriceBand['period']): PriceBand => ({ start, end, period });
const DAY = [band('00:00', '08:00', 'valley'), band('08:00', '18:00', 'peak'), band('18:00', '24:00', 'flat')];
const spans = (bands: PriceBand[]) => bands.map((b) => `${b.start}-${b.end} ${b.period}`);
const draft = (over: Partial<CycleDraft> = {}): CycleDraft => ({
  name: '夏季', months: [6, 7, 8], bands: DAY,
  prices: { tip: null, peak: 1.1, flat: 0.7, valley: 0.3, deepValley: null }, demandPrice: 40, capacityPrice: null, ...over,
});
const texts = (d: CycleDraft, billing: 'singlePart' | 'twoPart' = 'twoPart', others: { name: string; months: number[] }[] = []) =>
  draftIssues(d, billing, others).map(issueMessage);

describe('band editor', () => {
  it('splits a band at its middle on a quarter hour; both halves keep the type', () => {
    expect(spans(splitBand(DAY, 1))).toEqual(['00:00-08:00 valley', '08:00-13:00 peak', '13:00-18:00 peak', '18:00-24:00 flat']);
    expect(spans(splitBand([band('00:00', '00:45', 'flat'), band('00:45', '24:00', 'peak')], 0))).toEqual(['00:00-00:15 flat', '00:15-00:45 flat', '00:45-24:00 peak']);
    // A quarter hour cannot be split.
    const quarter = [band('00:00', '00:15', 'flat'), band('00:15', '24:00', 'peak')];
    expect(splitBand(quarter, 0)).toEqual(quarter);
  });

  it('merges a band with the next one, keeping its own type', () => {
    expect(spans(mergeWithNext(DAY, 0))).toEqual(['00:00-18:00 valley', '18:00-24:00 flat']);
    expect(mergeWithNext(DAY, 2)).toEqual(DAY);
  });

  it('removes a band and lets its neighbour take the time, so the day stays covered', () => {
    expect(spans(removeBand(DAY, 1))).toEqual(['00:00-18:00 valley', '18:00-24:00 flat']);
    expect(spans(removeBand(DAY, 0))).toEqual(['00:00-18:00 peak', '18:00-24:00 flat']);
    expect(removeBand([band('00:00', '24:00', 'flat')], 0)).toEqual([band('00:00', '24:00', 'flat')]);
  });

  it('moves a boundary together with the touching neighbour, never past the neighbour\'s far end', () => {
    expect(spans(moveBoundary(DAY, 0, 'end', '07:15'))).toEqual(['00:00-07:15 valley', '07:15-18:00 peak', '18:00-24:00 flat']);
    expect(spans(moveBoundary(DAY, 2, 'start', '19:30'))).toEqual(['00:00-08:00 valley', '08:00-19:30 peak', '19:30-24:00 flat']);
    // Past the next band's end: the next band stays, and the overlap is reported by the rules.
    const over = moveBoundary(DAY, 0, 'end', '20:00');
    expect(spans(over)).toEqual(['00:00-20:00 valley', '08:00-18:00 peak', '18:00-24:00 flat']);
    expect(texts(draft({ bands: over }))).toEqual(['08:00–18:00 时段重叠', '18:00–20:00 时段重叠']);
    // An end before the band's own start is ignored.
    expect(moveBoundary(DAY, 1, 'end', '07:00')).toEqual(DAY);
  });

  it('adds a band into the first gap, or halves the longest band when there is none', () => {
    const gap = [band('00:00', '08:00', 'valley'), band('10:00', '24:00', 'flat')];
    expect(spans(addBand(gap))).toEqual(['00:00-08:00 valley', '08:00-10:00 flat', '10:00-24:00 flat']);
    expect(spans(addBand([band('00:00', '20:00', 'valley')]))).toEqual(['00:00-20:00 valley', '20:00-24:00 flat']);
    expect(spans(addBand(DAY))).toEqual(['00:00-08:00 valley', '08:00-13:00 peak', '13:00-18:00 peak', '18:00-24:00 flat']);
  });

  it('changes a band\'s type and offers every quarter hour', () => {
    expect(setPeriod(DAY, 2, 'tip')[2]!.period).toBe('tip');
    expect(QUARTER_HOURS).toHaveLength(97);
    expect([QUARTER_HOURS[0], QUARTER_HOURS[1], QUARTER_HOURS[96]]).toEqual(['00:00', '00:15', '24:00']);
  });
});

describe('the editor checks the server\'s rules before saving', () => {
  it('accepts a complete draft', () => {
    expect(texts(draft())).toEqual([]);
  });

  it('names a gap left by moved times, and a band type without a price', () => {
    const gap = [band('00:00', '08:00', 'valley'), band('09:00', '24:00', 'flat')];
    expect(texts(draft({ bands: gap }))).toEqual(['08:00–09:00 未设置时段']);
    expect(texts(draft({ bands: setPeriod(DAY, 2, 'tip') }))).toEqual(['尖时段未设置电价']);
  });

  it('names months another cycle has, a missing name or month, and the two-part charge', () => {
    expect(texts(draft(), 'twoPart', [{ name: '春秋', months: [3, 4, 5, 9, 10, 11] }, { name: '盛夏', months: [7] }])).toEqual(['7月已属于周期「盛夏」']);
    expect(texts(draft({ name: ' ', months: [] }))).toEqual(['周期名称不能为空', '请选择适用月份']);
    expect(texts(draft({ demandPrice: null }))).toEqual(['两部制电价需设置需量电价或容量电价']);
    expect(texts(draft(), 'singlePart')).toEqual(['单一制电价不设需量电价或容量电价']);
    expect(texts(draft(), 'twoPart', [{ name: '夏季', months: [1] }])).toEqual(['同一模板下已有同名周期']);
  });

  it('sends the bands joined where one type continues, and no price for a type no band uses', () => {
    const split = splitBand(DAY, 1);
    const body = cycleBody(draft({ bands: split, prices: { tip: 9, peak: 1.1, flat: 0.7, valley: 0.3, deepValley: 0.1 } }));
    expect(body).toEqual({
      name: '夏季', months: [6, 7, 8], periods: DAY, tipPrice: null, peakPrice: 1.1, flatPrice: 0.7, valleyPrice: 0.3, deepValleyPrice: null,
      demandPrice: 40, capacityPrice: null,
    });
  });

  it('starts a new cycle on the free months, the whole day flat, and an existing one from its record', () => {
    expect(draftOf(null, [1, 2, 12])).toMatchObject({ name: '', months: [1, 2, 12], bands: [band('00:00', '24:00', 'flat')] });
    const record = { id: 1, templateId: 1, name: '全年', months: [1, 2], periods: [band('12:00', '24:00', 'flat'), band('00:00', '12:00', 'valley')], tipPrice: null, peakPrice: null, flatPrice: 0.5, valleyPrice: 0.2, deepValleyPrice: null, demandPrice: null, capacityPrice: 12, createdAt: '', updatedAt: '' } satisfies PriceCycleRecord;
    expect(draftOf(record)).toMatchObject({ bands: [band('00:00', '12:00', 'valley'), band('12:00', '24:00', 'flat')], prices: { flat: 0.5, valley: 0.2 }, capacityPrice: 12 });
  });

  it('finds months no cycle covers, groups months into runs, keeps prices to 6 decimals', () => {
    expect(uncoveredMonths([{ months: [1, 2, 3] }, { months: [6, 7, 8, 9, 10, 11, 12] }])).toEqual([4, 5]);
    expect(monthRuns([12, 1, 2, 3, 7])).toEqual([[1, 3], [7, 7], [12, 12]]);
    expect(priceOf(0.12345678)).toBe(0.123457);
    expect(priceOf(null)).toBeNull();
  });
});
