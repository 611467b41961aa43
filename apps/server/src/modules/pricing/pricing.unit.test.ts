import { describe, expect, it } from 'vitest';
import {
  cycleIssues, issueMessage, monthIssues, normalizeBands, partitionIssues, priceCycleInput, priceIssues, type PriceBand,
} from '@ess/contract';
import { demoFleet } from '@ess/simulator';
import { bandsOfSchedule } from '../../demo/demo-prices.ts';
import { changedDays } from './price-history.ts';
import { bandAt, localInstant, nextDate, resolveTariffs, type TariffConfig, type TariffCycle } from './tariff.ts';

const band = (start: string, end: string, period: PriceBand['period']): PriceBand => ({ start, end, period });
const messages = (bands: PriceBand[]) => partitionIssues(bands).map(issueMessage);

describe('the 24 h partition validator', () => {
  it('accepts a partition covering 00:00–24:00 exactly on quarter hours', () => {
    expect(messages([band('00:00', '08:00', 'valley'), band('08:00', '10:15', 'peak'), band('10:15', '24:00', 'flat')])).toEqual([]);
    // Order of the bands does not matter.
    expect(messages([band('12:00', '24:00', 'flat'), band('00:00', '12:00', 'valley')])).toEqual([]);
  });

  it('names a gap by its times, also at the start and the end of the day', () => {
    expect(messages([band('00:00', '10:00', 'valley'), band('11:00', '24:00', 'flat')])).toEqual(['10:00–11:00 未设置时段']);
    expect(messages([band('01:00', '24:00', 'flat')])).toEqual(['00:00–01:00 未设置时段']);
    expect(messages([band('00:00', '23:45', 'flat')])).toEqual(['23:45–24:00 未设置时段']);
    expect(messages([])).toEqual(['00:00–24:00 未设置时段']);
  });

  it('names an overlap by its times', () => {
    expect(messages([band('00:00', '12:00', 'valley'), band('11:00', '24:00', 'flat')])).toEqual(['11:00–12:00 时段重叠']);
    // A band inside another overlaps for its whole length.
    expect(messages([band('00:00', '24:00', 'flat'), band('09:00', '10:00', 'peak')])).toEqual(['09:00–10:00 时段重叠']);
  });

  it('refuses times off the quarter hour and bands that end before they start', () => {
    expect(messages([band('00:00', '10:10', 'valley'), band('10:10', '24:00', 'flat')])).toEqual(['10:10 不是15分钟的整数倍']);
    expect(messages([band('00:00', '12:00', 'valley'), band('14:00', '12:00', 'peak'), band('12:00', '24:00', 'flat')])).toEqual([
      '14:00–12:00 结束时间应晚于开始时间',
    ]);
    expect(messages([band('00:00', '00:00', 'valley'), band('00:00', '24:00', 'flat')])).toEqual(['00:00–00:00 结束时间应晚于开始时间']);
  });

  it('rejects malformed times as input (400), 24:00 only as written', () => {
    const cycle = { name: 'x', months: [1], periods: [band('00:00', '24:01', 'flat')], flatPrice: 1 };
    expect(priceCycleInput.safeParse(cycle).success).toBe(false);
    expect(priceCycleInput.safeParse({ ...cycle, periods: [band('0:00', '24:00', 'flat')] }).success).toBe(false);
    expect(priceCycleInput.safeParse({ ...cycle, periods: [band('00:00', '24:00', 'flat')] }).success).toBe(true);
    expect(priceCycleInput.safeParse({ ...cycle, months: [1, 1] }).success).toBe(false);
    expect(priceCycleInput.safeParse({ ...cycle, months: [13] }).success).toBe(false);
    expect(priceCycleInput.safeParse({ ...cycle, flatPrice: -0.1 }).success).toBe(false);
    expect(priceCycleInput.safeParse({ ...cycle, flatPrice: 0.1234567 }).success).toBe(false);
  });

  it('wants a price for every period type used, and the demand charge exactly for two-part tariffs', () => {
    const periods = [band('00:00', '08:00', 'valley'), band('08:00', '24:00', 'peak')];
    const none = { periods, tipPrice: null, peakPrice: null, flatPrice: 9, valleyPrice: 0, deepValleyPrice: null, demandPrice: null, capacityPrice: null };
    expect(priceIssues(none, 'singlePart').map(issueMessage)).toEqual(['峰时段未设置电价']);
    expect(priceIssues({ ...none, peakPrice: 1 }, 'twoPart').map(issueMessage)).toEqual(['两部制电价需设置需量电价或容量电价']);
    expect(priceIssues({ ...none, peakPrice: 1, capacityPrice: 28 }, 'twoPart')).toEqual([]);
    expect(priceIssues({ ...none, peakPrice: 1, demandPrice: 40 }, 'singlePart').map(issueMessage)).toEqual(['单一制电价不设需量电价或容量电价']);
  });

  it('names the cycle that already has a month', () => {
    expect(monthIssues([6, 3, 7], [{ name: '夏季', months: [6, 7, 8] }]).map(issueMessage)).toEqual(['6月已属于周期「夏季」', '7月已属于周期「夏季」']);
    const cycle = { months: [3], periods: [band('00:00', '24:00', 'flat')], tipPrice: null, peakPrice: null, flatPrice: 0.5, valleyPrice: null, deepValleyPrice: null, demandPrice: null, capacityPrice: null };
    expect(cycleIssues(cycle, 'singlePart', [{ name: '春季', months: [3, 4, 5] }]).map(issueMessage)).toEqual(['3月已属于周期「春季」']);
  });

  it('stores neighbouring bands of one type as one band', () => {
    expect(normalizeBands([band('08:00', '24:00', 'flat'), band('00:00', '04:00', 'valley'), band('04:00', '08:00', 'valley')])).toEqual([
      band('00:00', '08:00', 'valley'),
      band('08:00', '24:00', 'flat'),
    ]);
  });

  it('turns every demo station schedule into a valid partition', () => {
    for (const st of demoFleet().stations) {
      const bands = bandsOfSchedule(st.touSchedule);
      expect(partitionIssues(bands)).toEqual([]);
      expect(bands[0]!.start).toBe('00:00');
      expect(bands[bands.length - 1]!.end).toBe('24:00');
    }
  });
});

const cycle = (over: Partial<TariffCycle> = {}): TariffCycle => ({
  id: 1, name: '全年', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  periods: [band('00:00', '02:00', 'valley'), band('02:00', '03:00', 'deepValley'), band('03:00', '17:00', 'flat'), band('17:00', '21:00', 'peak'), band('21:00', '24:00', 'valley')],
  tipPrice: null, peakPrice: 0.4, flatPrice: 0.25, valleyPrice: 0.15, deepValleyPrice: 0.1, demandPrice: 12, capacityPrice: null,
  ...over,
});
const config = (cycles: TariffCycle[], over: Partial<TariffConfig> = {}): TariffConfig => ({
  id: 7, startDate: '2024-01-01', endDate: null, serviceFee: 0.2,
  template: { id: 3, name: 'T', billingSystem: 'twoPart', currency: 'EUR', cycles },
  ...over,
});
const iso = (ms: number) => new Date(ms).toISOString();

describe('the tariff resolver', () => {
  it('reads station-local wall clock into UTC, with DST gaps read forward and repeated hours read first', () => {
    expect(iso(localInstant('Asia/Shanghai', '2024-06-01', 0))).toBe('2024-05-31T16:00:00.000Z');
    expect(iso(localInstant('Europe/Berlin', '2024-03-31', 150))).toBe('2024-03-31T01:30:00.000Z'); // 02:30 → 03:30 CEST
    expect(iso(localInstant('Europe/Berlin', '2024-10-27', 150))).toBe('2024-10-27T00:30:00.000Z'); // 02:30 CEST, the first one
    expect(iso(localInstant('America/Los_Angeles', '2024-03-10', 1440))).toBe('2024-03-11T07:00:00.000Z');
    expect(nextDate('2024-02-28')).toBe('2024-02-29');
    expect(nextDate('2024-12-31')).toBe('2025-01-01');
  });

  it('gives each day its bands, prices, demand charge, service fee and feed-in price', () => {
    const days = resolveTariffs(
      { timeZone: 'Asia/Shanghai', currency: 'EUR', configs: [config([cycle()])], solar: [{ id: 1, startDate: '2024-01-01', endDate: null, price: 0.07, periodPrices: { peak: 0.12 } }] },
      '2024-06-01',
      '2024-06-02',
    );
    expect(days.map((d) => d.date)).toEqual(['2024-06-01', '2024-06-02']);
    const d = days[0]!;
    expect(d.hours).toBe(24);
    expect(d.template).toMatchObject({ id: 3, billingSystem: 'twoPart' });
    expect(d.cycle).toEqual({ id: 1, name: '全年' });
    expect(d.bands!.map((b) => [b.start, b.end, b.period, b.price, b.feedInPrice, b.minutes])).toEqual([
      ['00:00', '02:00', 'valley', 0.15, 0.07, 120],
      ['02:00', '03:00', 'deepValley', 0.1, 0.07, 60],
      ['03:00', '17:00', 'flat', 0.25, 0.07, 840],
      ['17:00', '21:00', 'peak', 0.4, 0.12, 240],
      ['21:00', '24:00', 'valley', 0.15, 0.07, 180],
    ]);
    expect(d.demandPrice).toBe(12);
    expect(d.serviceFee).toBe(0.2);
    expect(d.feedIn!.periods).toEqual({ tip: 0.07, peak: 0.12, flat: 0.07, valley: 0.07, deepValley: 0.07 });
    expect(bandAt(d, Date.parse('2024-06-01T10:00:00Z'))?.period).toBe('peak'); // 18:00 in Shanghai
  });

  it('a 23 h day in Europe/Berlin: the skipped hour\'s band lasts nothing, the day still adds up', () => {
    const [day] = resolveTariffs({ timeZone: 'Europe/Berlin', currency: 'EUR', configs: [config([cycle()])], solar: [] }, '2024-03-31', '2024-03-31');
    expect(day!.hours).toBe(23);
    expect(iso(day!.startMs)).toBe('2024-03-30T23:00:00.000Z');
    expect(iso(day!.endMs)).toBe('2024-03-31T22:00:00.000Z');
    const minutes = Object.fromEntries(day!.bands!.map((b) => [`${b.start}-${b.period}`, b.minutes]));
    expect(minutes).toEqual({ '00:00-valley': 120, '02:00-deepValley': 0, '03:00-flat': 840, '17:00-peak': 240, '21:00-valley': 180 });
    expect(day!.bands!.reduce((s, b) => s + b.minutes, 0)).toBe(23 * 60);
    // The bands tile the day with no hole: each starts where the previous ended.
    day!.bands!.forEach((b, i) => expect(b.startMs).toBe(i === 0 ? day!.startMs : day!.bands![i - 1]!.endMs));
    // 01:59:59 CET is valley, 03:00 CEST already flat.
    expect(bandAt(day!, Date.parse('2024-03-31T00:59:59Z'))?.period).toBe('valley');
    expect(bandAt(day!, Date.parse('2024-03-31T01:00:00Z'))?.period).toBe('flat');
  });

  it('a 25 h day in Europe/Berlin: the band across the repeated hour lasts one hour more', () => {
    const periods = [band('00:00', '01:00', 'valley'), band('01:00', '03:00', 'deepValley'), band('03:00', '24:00', 'flat')];
    const [day] = resolveTariffs({ timeZone: 'Europe/Berlin', currency: 'EUR', configs: [config([cycle({ periods })])], solar: [] }, '2024-10-27', '2024-10-27');
    expect(day!.hours).toBe(25);
    expect(day!.bands!.map((b) => b.minutes)).toEqual([60, 180, 21 * 60]);
    // Both 02:30s (CEST, then CET) are deep valley.
    expect(bandAt(day!, Date.parse('2024-10-27T00:30:00Z'))?.period).toBe('deepValley');
    expect(bandAt(day!, Date.parse('2024-10-27T01:30:00Z'))?.period).toBe('deepValley');
  });

  it('23 h and 25 h days in America/Los_Angeles resolve to their real lengths', () => {
    const input = { timeZone: 'America/Los_Angeles', currency: 'USD', configs: [config([cycle()])], solar: [] };
    const [spring] = resolveTariffs(input, '2024-03-10', '2024-03-10');
    const [fall] = resolveTariffs(input, '2024-11-03', '2024-11-03');
    expect([spring!.hours, fall!.hours]).toEqual([23, 25]);
    expect(spring!.bands!.reduce((s, b) => s + b.minutes, 0)).toBe(23 * 60);
    expect(fall!.bands!.reduce((s, b) => s + b.minutes, 0)).toBe(25 * 60);
    // 17:00 local is 00:00 UTC in summer time (UTC−7) on the spring day.
    expect(iso(spring!.bands!.find((b) => b.period === 'peak')!.startMs)).toBe('2024-03-11T00:00:00.000Z');
    // On the fall day 17:00 local is UTC−8.
    expect(iso(fall!.bands!.find((b) => b.period === 'peak')!.startMs)).toBe('2024-11-04T01:00:00.000Z');
  });

  it('answers null where nothing is configured: before the first cycle, months without a cycle, no feed-in', () => {
    const summer = cycle({ id: 2, name: '夏季', months: [6, 7, 8] });
    const days = resolveTariffs(
      { timeZone: 'Asia/Shanghai', currency: 'CNY', configs: [config([summer], { startDate: '2024-05-31', endDate: '2024-06-30' })], solar: [] },
      '2024-05-30',
      '2024-07-01',
    );
    const byDate = new Map(days.map((d) => [d.date, d]));
    expect(byDate.get('2024-05-30')).toMatchObject({ configId: null, template: null, bands: null, prices: null, serviceFee: null, feedIn: null });
    // Configured, but May has no cycle: the fee is known, the energy prices are not.
    expect(byDate.get('2024-05-31')).toMatchObject({ configId: 7, cycle: null, bands: null, serviceFee: 0.2 });
    expect(byDate.get('2024-06-30')!.cycle).toEqual({ id: 2, name: '夏季' });
    expect(byDate.get('2024-07-01')!.template).toBeNull();
    expect(days).toHaveLength(33);
  });

  it('switches template on the station-local day a new configuration starts', () => {
    const a = config([cycle({ peakPrice: 0.4 })], { id: 1, startDate: '2024-01-01', endDate: '2024-06-30' });
    const b = config([cycle({ peakPrice: 0.5 })], { id: 2, startDate: '2024-07-01', endDate: null });
    const days = resolveTariffs({ timeZone: 'America/Los_Angeles', currency: 'USD', configs: [a, b], solar: [] }, '2024-06-30', '2024-07-01');
    expect(days.map((d) => [d.date, d.configId, d.prices!.peak])).toEqual([['2024-06-30', 1, 0.4], ['2024-07-01', 2, 0.5]]);
  });
});

describe('the days an edit of a dated rate changes (refused where a confirmed or locked statement settled them)', () => {
  const r = (from: string, to: string | null, siteId = 1) => ({ siteId, from, to });
  it('only the days gained or lost at either end when the prices stay', () => {
    expect(changedDays(r('2026-11-01', null), r('2026-11-01', '2026-11-20'), false)).toEqual([r('2026-11-21', null)]);
    expect(changedDays(r('2026-11-01', '2026-11-20'), r('2026-11-01', null), false)).toEqual([r('2026-11-21', null)]);
    expect(changedDays(r('2026-11-01', '2026-11-30'), r('2026-10-31', '2026-11-20'), false)).toEqual([r('2026-10-31', '2026-10-31'), r('2026-11-21', '2026-11-30')]);
    expect(changedDays(r('2026-11-01', '2026-11-30'), r('2026-11-01', '2026-11-30'), false)).toEqual([]);
  });
  it('both whole ranges when the prices change or the rate moves to another station', () => {
    expect(changedDays(r('2026-11-01', '2026-11-30'), r('2026-11-05', null), true)).toEqual([r('2026-11-01', '2026-11-30'), r('2026-11-05', null)]);
    expect(changedDays(r('2026-11-01', null), r('2026-11-01', null, 2), false)).toEqual([r('2026-11-01', null), r('2026-11-01', null, 2)]);
  });
});
