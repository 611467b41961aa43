import { describe, expect, it } from 'vitest';
import {
  applyStrategyParams, capToImportLine, emsImportLine, defaultSocLimits, scheduleFor, strategyAdd, strategyHash, strategyIssueMessage, strategyIssues, windowAt,
  type EmsStrategy, type StrategyContent, type StrategyLimits, type StrategyWindowInput,
} from './strategy.ts';

const limits: StrategyLimits = { pcsRatedKw: 250, pcsCount: 1, depthOfDischarge: 90, transformerProtectionPower: 800, installedCapacity: 500 };
const day: StrategyWindowInput[] = [
  { start: '00:00', end: '08:00', mode: 'charge', powerKw: 100, targetSoc: 95 },
  { start: '08:00', end: '10:00', mode: 'idle', powerKw: 0 },
  { start: '10:00', end: '12:00', mode: 'discharge', powerKw: 200, targetSoc: 50 },
  { start: '12:00', end: '24:00', mode: 'idle', powerKw: 0 },
];
const parse = (schedules: unknown[], more: Record<string, unknown> = {}): StrategyContent =>
  strategyAdd.parse({ siteId: 1, socMin: 10, socMax: 100, antiBackflow: true, transformerProtectionKw: 800, schedules, ...more });
const all = (windows: unknown[], name = '全年') => ({ name, priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7], windows });
const messages = (c: StrategyContent) => strategyIssues(c, limits).map(strategyIssueMessage);

describe('strategy rules', () => {
  it('accepts a full partition within the limits', () => {
    expect(messages(parse([all(day)]))).toEqual([]);
  });

  it('names the overlapping window and the one it overlaps', () => {
    const w = [...day];
    w[2] = { ...w[2]!, start: '09:00' };
    expect(messages(parse([all(w)]))).toEqual(['方案「全年」时段3（09:00–12:00）与时段2（08:00–10:00）重叠']);
  });

  it('names gaps, including the end of the day', () => {
    expect(messages(parse([all(day.slice(0, 3))]))).toEqual(['方案「全年」12:00–24:00 未设置时段']);
    expect(messages(parse([all([day[0], ...day.slice(2)])]))).toEqual(['方案「全年」08:00–10:00 未设置时段']);
  });

  it('refuses a 500 kW set-point on a 250 kW PCS and a 120 % target SOC, naming the window', () => {
    const w = [...day];
    w[2] = { ...w[2]!, powerKw: 500, targetSoc: 120 };
    expect(messages(parse([all(w)]))).toEqual([
      '方案「全年」时段3（10:00–12:00）功率 500 kW 超过PCS额定功率 250 kW',
      '方案「全年」时段3（10:00–12:00）目标SOC 120% 超出SOC上下限 10%–100%',
    ]);
  });

  it('checks SOC limits against the depth of discharge, idle power, charge within the transformer', () => {
    expect(messages(parse([all(day)], { socMin: 5 }))).toEqual(['SOC上下限之差 95% 超过放电深度 90%']);
    expect(messages(parse([all(day)], { socMin: 100 }))).toContain('SOC下限应低于SOC上限');
    const w = [...day];
    w[1] = { ...w[1]!, powerKw: 5 };
    w[0] = { ...w[0]!, powerKw: 200 };
    expect(messages(parse([all(w)], { transformerProtectionKw: 150 }))).toEqual([
      '方案「全年」时段1（00:00–08:00）充电功率 200 kW 超过变压器保护功率 150 kW',
      '方案「全年」时段2（08:00–10:00）为待机，功率应为0',
    ]);
  });

  it('needs every month and weekday covered and no equal priorities on one day', () => {
    const weekday = { ...all(day, '工作日'), weekdays: [1, 2, 3, 4, 5] };
    expect(messages(parse([weekday]))).toHaveLength(12);
    expect(messages(parse([weekday]))[0]).toBe('1月的周六、周日没有适用的方案');
    const summer = { ...all(day, '夏季'), months: [6, 7, 8] };
    expect(messages(parse([all(day), summer]))).toEqual(['方案「全年」与「夏季」优先级相同且适用日期重叠（6月周一）']);
    expect(messages(parse([all(day), { ...summer, priority: 0 + 1 }]))).toHaveLength(1);
    const s = parse([{ ...all(day), priority: 2 }, { ...summer, priority: 1 }]);
    expect(messages(s)).toEqual([]);
    expect(scheduleFor(s.schedules, 7, 3)?.name).toBe('夏季');
    expect(scheduleFor(s.schedules, 1, 3)?.name).toBe('全年');
    expect(windowAt(s.schedules[0]!.windows, 10 * 60)?.mode).toBe('discharge');
    expect(windowAt(s.schedules[0]!.windows, 24 * 60 - 1)?.end).toBe('24:00');
  });

  it('defaults the SOC limits from the depth of discharge', () => {
    expect(defaultSocLimits(90)).toEqual({ socMin: 10, socMax: 100 });
    expect(defaultSocLimits(null)).toEqual({ socMin: 10, socMax: 100 });
  });

  it('hashes content, not key order', () => {
    const c = parse([all(day)]);
    const ems: EmsStrategy = { timeZone: 'Asia/Shanghai', pcsRatedKw: 250, ...c };
    const h = strategyHash(ems);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    const reordered = JSON.parse(JSON.stringify({ pcsRatedKw: 250, timeZone: 'Asia/Shanghai', ...c })) as EmsStrategy;
    expect(strategyHash(reordered)).toBe(h);
    expect(strategyHash({ ...ems, socMin: 11 })).not.toBe(h);
    expect(applyStrategyParams.safeParse({ strategy: ems, hash: h }).success).toBe(true);
  });
});

describe('the EMS import line (decision 0040)', () => {
  it('is the lower of the transformer power and the demand target less its margin', () => {
    expect(emsImportLine(500, 250, 10)).toBe(240);
    expect(emsImportLine(200, 250, 10)).toBe(200);
    expect(emsImportLine(null, null)).toBe(Infinity);
    expect(emsImportLine(300, null, 10)).toBe(300);
  });
  it('reduces charging, never the load, and adds discharge above the line (hand-worked)', () => {
    // Load 180 kW, target 250 kW, margin 10 kW: line 240; the schedule charges 200 kW → 60 kW (import 240).
    expect(capToImportLine(-200, 180, emsImportLine(500, 250, 10))).toBe(-60);
    // Load 300 kW, the schedule idle → discharge 60 kW (import 240).
    expect(capToImportLine(0, 300, 240)).toBe(60);
    // Below the line: the set-point stands; no line: unchanged.
    expect(capToImportLine(-30, 180, 240)).toBe(-30);
    expect(capToImportLine(-200, 180, Infinity)).toBe(-200);
  });
});
