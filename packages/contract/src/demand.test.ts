import { describe, expect, it } from 'vitest';
import { demandEndpoints, demandMeasurePage, demandReconcileEdit, demandSettingAdd, DEMAND_MARGIN_RANGE, DEMAND_TARGET_POSITIVE } from './demand.ts';

describe('demand contract', () => {
  it('declares the eleven catalogue calls and the bill extension, all POST', () => {
    expect(Object.values(demandEndpoints).map((e) => e.path).sort()).toEqual([
      '/demand/analysis/info', '/demand/analysis/measure', '/demand/analysis/measure/query/one', '/demand/reconciliation/edit',
      '/demand/reconciliation/query/header', '/demand/reconciliation/query/page', '/demand/setting/add', '/demand/setting/query/page',
      '/demand/track/daily/brief', '/demand/track/daily/info', '/demand/track/monthly/brief', '/demand/track/monthly/info',
    ]);
    expect(Object.values(demandEndpoints).every((e) => e.method === 'POST')).toBe(true);
  });

  it('checks a target: positive, margin within it, month or standing, level 1-5 (default 2)', () => {
    expect(demandSettingAdd.parse({ siteId: 1, targetKw: 100, marginKw: 5 })).toMatchObject({ month: null, allowDischarge: false, alarmLevel: 2 });
    expect(demandSettingAdd.parse({ siteId: 1, month: '2026-03', targetKw: 100, marginKw: 99.9 }).month).toBe('2026-03');
    // A margin equal to the target would put the pre-alarm line at 0 kW.
    expect(demandSettingAdd.safeParse({ siteId: 1, targetKw: 100, marginKw: 100 }).error?.issues[0]?.message).toBe(DEMAND_MARGIN_RANGE);
    expect(demandSettingAdd.safeParse({ siteId: 1, targetKw: 0, marginKw: 0 }).error?.issues[0]?.message).toBe(DEMAND_TARGET_POSITIVE);
    expect(demandSettingAdd.safeParse({ siteId: 1, targetKw: 10, marginKw: 10.5 }).error?.issues[0]?.message).toBe(DEMAND_MARGIN_RANGE);
    expect(demandSettingAdd.safeParse({ siteId: 1, month: '2026-3', targetKw: 10, marginKw: 1 }).success).toBe(false);
  });

  it('defaults the measures to the windows storage shaved, and a bill figure may be cleared with null', () => {
    expect(demandMeasurePage.parse({ siteId: 1, month: '2026-03' })).toMatchObject({ shavedOnly: true, guardedOnly: false, current: 1, pageSize: 10 });
    expect(demandReconcileEdit.parse({ siteId: 1, month: '2026-03', billMaxKw: null })).toMatchObject({ billMaxKw: null, note: null });
    expect(demandReconcileEdit.safeParse({ siteId: 1, month: '2026-03', billMaxKw: -1 }).success).toBe(false);
  });
});
