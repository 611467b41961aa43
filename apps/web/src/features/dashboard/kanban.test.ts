// @vitest-environment node
import type { AlarmKanbanSite, AlarmLevelCount } from '@ess/contract/alarm';
import type { LiveSite } from '@ess/contract/comprehensive';
import { describe, expect, it } from 'vitest';
import { boardTotals, buildBoard, laneOf } from './kanban.ts';

function site(id: number, over: Partial<LiveSite> = {}): LiveSite {
  return {
    id, name: `站点${id}`, code: `S${id}`, companyId: 1, companyName: '公司', siteType: 'storage', timeZone: 'Asia/Shanghai', address: null,
    status: 'online', devices: { total: 10, online: 10, offline: 0, disabled: 0, inactive: 0 },
    power: { grid: 10, storage: -50, pv: null, load: 60, piles: null }, soc: 50,
    subsystems: { storage: true, pv: false, pvCoupling: null, charging: false, transformer: false, mainMeter: true },
    maintenance: null, ts: '2026-01-01T00:00:00Z', ...over,
  };
}

const levels = (active: number[]): AlarmLevelCount[] => active.map((n, i) => ({ level: (i + 1) as AlarmLevelCount['level'], active: n, raised: 0, ended: 0 }));
const alarms = (bySite: Record<number, number[]>): AlarmKanbanSite => ({
  start: '', end: '', total: levels([0, 0, 0, 0, 0]),
  sites: Object.entries(bySite).map(([id, a]) => ({ siteId: Number(id), siteName: '', siteCode: '', levels: levels(a) })),
});
const maintenance = { since: '2026-01-01T00:00:00Z', note: '检修', userId: 1, username: 'admin' };

describe('operations board lanes', () => {
  it('puts maintenance first, then offline, then alarms, then partial, else normal', () => {
    expect(laneOf({ status: 'offline', maintenance }, 3)).toBe('maintenance');
    expect(laneOf({ status: 'noData', maintenance: null }, 3)).toBe('offline');
    expect(laneOf({ status: 'offline', maintenance: null }, 0)).toBe('offline');
    expect(laneOf({ status: 'partial', maintenance: null }, 1)).toBe('alarm');
    expect(laneOf({ status: 'partial', maintenance: null }, 0)).toBe('partial');
    expect(laneOf({ status: 'online', maintenance: null }, 0)).toBe('normal');
  });

  it('joins alarms by station id and sorts the most severe first', () => {
    const sites = [site(1), site(2), site(3), site(4, { status: 'partial' }), site(5, { maintenance }), site(6)];
    const board = buildBoard(sites, alarms({ 1: [0, 0, 4, 0, 0], 2: [1, 0, 0, 0, 0], 3: [0, 0, 5, 1, 0], 5: [2, 0, 0, 0, 0] }));
    expect(board.alarm.map((s) => s.site.id)).toEqual([2, 3, 1]);
    expect(board.alarm[0]).toMatchObject({ worstLevel: 1, activeTotal: 1, active: [1, 0, 0, 0, 0] });
    expect(board.alarm[1]).toMatchObject({ worstLevel: 3, activeTotal: 6 });
    expect(board.partial.map((s) => s.site.id)).toEqual([4]);
    expect(board.maintenance.map((s) => s.site.id)).toEqual([5]);
    expect(board.normal.map((s) => s.site.id)).toEqual([6]);
    expect(board.offline).toEqual([]);
  });

  it('counts a station the alarm answer leaves out as having none, and works before alarms load', () => {
    const board = buildBoard([site(7)], undefined);
    expect(board.normal[0]).toMatchObject({ activeTotal: 0, worstLevel: null, active: [0, 0, 0, 0, 0] });
  });

  it('sorts stations of a lane without alarms by devices offline, then name', () => {
    const a = site(1, { name: 'B', status: 'partial', devices: { total: 10, online: 9, offline: 1, disabled: 0, inactive: 0 } });
    const b = site(2, { name: 'A', status: 'partial', devices: { total: 10, online: 7, offline: 3, disabled: 0, inactive: 0 } });
    const c = site(3, { name: 'C', status: 'partial', devices: { total: 10, online: 9, offline: 1, disabled: 0, inactive: 0 } });
    expect(buildBoard([a, b, c], alarms({})).partial.map((s) => s.site.name)).toEqual(['A', 'B', 'C']);
  });
});

describe('operations board totals', () => {
  it('adds up devices and power, leaves out what is not measured, averages SOC', () => {
    const t = boardTotals([
      site(1, { soc: 40, power: { grid: 1, storage: 100, pv: null, load: 20, piles: null } }),
      site(2, { soc: null, status: 'offline', power: { grid: null, storage: null, pv: null, load: null, piles: null }, devices: { total: 4, online: 0, offline: 4, disabled: 0, inactive: 0 } }),
      site(3, { soc: 60, status: 'partial', power: { grid: 1, storage: -30, pv: 12.5, load: 5, piles: null } }),
    ]);
    expect(t).toEqual({ stations: 3, reporting: 2, devicesOnline: 20, devicesTotal: 24, storage: 70, pv: 12.5, load: 25, soc: 50 });
    expect(boardTotals([])).toMatchObject({ stations: 0, storage: null, soc: null });
  });
});
