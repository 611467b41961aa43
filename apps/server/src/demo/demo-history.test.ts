import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { ETA_BATTERY, ETA_PCS, commissionedState, demoFleet, localTime, manualClock, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { AlarmKanbanChart, AlarmKanbanSite, HomeTop, SiteEarnings, SiteOverview, SitePerformance } from '@ess/contract';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { alarm } from '../db/schema/alarm.ts';
import { site } from '../db/schema/site.ts';
import { company } from '../db/schema/system.ts';
import { refreshAll } from '../modules/dashboard/revenue.jobs.ts';
import { demoHistoryWanted, seedDemoHistory, type DemoHistory } from './demo-history.ts';

const DAY = 86_400_000;
/** Days of history played here (the demo plays 14), up to a fixed instant: the same alarms every run. */
const DAYS = 4;
const NOW = Date.UTC(2026, 10, 25, 9, 0);

/**
 * The demo's past: the simulator's readings into the rollups and through the alarm engine, the
 * revenue the engine computes from them, and lifetime figures that agree with the days.
 */
describe('demo history', () => {
  let t: TestApp;
  let history: DemoHistory;
  let now: number;
  let sim: SimulatorHandle | null = null;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('writes rollups once, from which every demo station earns money at its own prices', async () => {
    const fleet = demoFleet();
    expect(await demoHistoryWanted(t.ctx, fleet, '')).toBe(true);
    now = NOW;
    history = await seedDemoHistory(t.ctx, fleet, DAYS, '', now, 0.1);
    expect(history.steps).toBe(DAYS * 288);
    expect(history.rows).toBeGreaterThan(1000);
    expect(await demoHistoryWanted(t.ctx, fleet, '')).toBe(false);
    expect(await refreshAll(t.ctx, now)).toBeGreaterThanOrEqual(3);
    // PGlite ran on this process's event loop for a minute: a kept-alive connection the server
    // timed out meanwhile may be reset under the first request (ECONNRESET); one new try.
    const earnings = (siteId: number) =>
      t.api.get<SiteEarnings>('/comprehensive/site/overview/earnings', t.adminToken, { siteId }).catch((err: unknown) => {
        if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
        return t.api.get<SiteEarnings>('/comprehensive/site/overview/earnings', t.adminToken, { siteId });
      });
    for (const s of await t.ctx.db.select({ id: site.id, code: site.code }).from(site)) {
      const e = await earnings(s.id);
      expect(e.status, s.code).toBe(200);
      const total = e.body.data.total;
      expect(total.charge + total.discharge, s.code).toBeGreaterThan(0);
      expect(e.body.data.pricesComplete, s.code).toBe(true);
      expect(total.total, s.code).not.toBe(0);
    }
  }, 600_000);

  it('raises and ends the past alarms through the engine: several kinds, some ended (MTTR), some still open, on the kanban and the analysis', async () => {
    const rows = await t.ctx.db
      .select({ kind: alarm.kind, code: alarm.code, type: alarm.alarmType, status: alarm.status, startedAt: alarm.startedAt, endedAt: alarm.endedAt, siteId: alarm.siteId })
      .from(alarm);
    const start = now - DAYS * DAY;
    expect(rows.length).toBeGreaterThan(4 * DAYS);
    for (const r of rows) expect(r.startedAt.getTime()).toBeGreaterThanOrEqual(start - 300_000);
    // Faults of the thing models and threshold crossings, of several types and codes.
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['event', 'threshold']));
    expect(new Set(rows.map((r) => r.type)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((r) => r.code)).size).toBeGreaterThanOrEqual(8);
    // Communication losses (a device offline, a cabinet) among them.
    expect(rows.some((r) => /COMM_LOST/.test(r.code))).toBe(true);
    // Every station has some; transient ones ended by themselves, latched ones may still be open.
    expect(new Set(rows.map((r) => r.siteId)).size).toBe(3);
    const ended = rows.filter((r) => r.status === 'ended');
    // Counted for seed 1 over these four days.
    expect([rows.length, ended.length]).toEqual([42, 40]);
    expect(ended.length).toBeGreaterThan(2 * DAYS);
    expect(rows.filter((r) => r.status === 'active').length).toBeGreaterThan(0);
    // Spread over the days, not a burst at the end.
    const days = new Set(rows.map((r) => Math.floor((r.startedAt.getTime() - start) / DAY)));
    expect(days.size).toBeGreaterThanOrEqual(DAYS - 1);

    // SOC limits: the BMS's drifted estimate corrected at a knee of the LFP curve, low and high,
    // each ended by the next charge or discharge (seed 1: Berlin low, Shanghai high).
    const soc = await t.ctx.db
      .select({ siteCode: site.code, description: alarm.description, level: alarm.level, status: alarm.status, trigger: alarm.triggerValue, clear: alarm.clearValue, startedAt: alarm.startedAt, endedAt: alarm.endedAt })
      .from(alarm)
      .innerJoin(site, eq(site.id, alarm.siteId))
      .where(eq(alarm.code, 'soc'))
      .orderBy(asc(alarm.startedAt));
    expect(soc.map((a) => [a.siteCode, a.description, a.level, a.status])).toEqual([
      ['BE01', '电池SOC过低', 2, 'ended'],
      ['SH01', '电池SOC过高', 4, 'ended'],
    ]);
    const [low, high] = soc;
    expect(low!.trigger).toBeLessThan(4);
    expect(low!.clear).toBeGreaterThan(5);
    expect(high!.trigger).toBeGreaterThan(98);
    expect(high!.clear).toBeLessThan(95);
    for (const a of soc) expect(a.endedAt!.getTime() - a.startedAt.getTime()).toBeGreaterThan(60 * 60_000);

    // Every fault event raised went through the engine's fault rules into an alarm.
    const { rows: raised } = await t.ctx.database.sql.query<{ n: number }>(
      `select count(*)::int as n from device_event e join alarm_dict d on d.kind = 'event' and d.event_code = e.code where e.active`,
    );
    expect(rows.filter((r) => r.kind === 'event').length).toBe(raised[0]!.n);

    // What the kanban and the analysis read: the range of the history.
    const q = { start, end: now + 60_000 };
    const site_ = await t.api.get<AlarmKanbanSite>('/alarm/kanban/site', t.adminToken, q);
    expect(site_.status).toBe(200);
    expect(site_.body.data.total.reduce((a, l) => a + l.raised, 0)).toBe(rows.length);
    const chart = await t.api.get<AlarmKanbanChart>('/alarm/kanban/chart', t.adminToken, q);
    expect(chart.status).toBe(200);
    expect(chart.body.data.endedCount).toBe(ended.length);
    expect(chart.body.data.meanTimeToEndMs).toBeGreaterThan(60_000);
    expect(chart.body.data.byType.filter((x) => x.count > 0).length).toBeGreaterThanOrEqual(3);
  });

  it('the stations were commissioned where the history starts; lifetime figures are the sum of the days, with a round trip of 85–92 %', async () => {
    // The live simulator resumes from the history's end and reports the registers.
    const clock = manualClock(now);
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: demoFleet(), intervalMs: 0, clock, state: history.state, randomFaultsPerDevicePerDay: 0.1 });
    await sim.tick();
    const sites = await t.ctx.db.select({ id: site.id, code: site.code, timeZone: site.timeZone, commissioningDate: site.commissioningDate }).from(site);
    const lifetimeOf = async (siteId: number) => {
      for (let i = 0; i < 200; i++) {
        const o = await t.api.get<SiteOverview>('/comprehensive/site/overview', t.adminToken, { siteId });
        if (o.body.data.total.charge !== null && o.body.data.total.discharge !== null) return o.body.data.total;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no lifetime registers reported');
    };
    const efficiency: Record<string, number | null> = {};
    let lifetimeCharge = 0;
    let lifetimeDischarge = 0;
    for (const s of sites) {
      expect(s.commissioningDate, s.code).toBe(localTime(now - DAYS * DAY, s.timeZone).dateKey);
      const life = await lifetimeOf(s.id);
      const { rows } = await t.ctx.database.sql.query<{ charge: number; discharge: number; n: number }>(
        `select sum(charge)::float8 as charge, sum(discharge)::float8 as discharge, count(*)::int as n from revenue_daily where site_id = $1 and day >= $2`,
        [s.id, s.commissioningDate],
      );
      const days = rows[0]!;
      expect(days.n, s.code).toBeGreaterThanOrEqual(DAYS);
      // The registers count from zero at commissioning; the days since add up to them (the live
      // tick adds a few seconds' energy, the days are rounded).
      expect(Math.abs(life.charge! - days.charge), s.code).toBeLessThan(2);
      expect(Math.abs(life.discharge! - days.discharge), s.code).toBeLessThan(2);
      lifetimeCharge += life.charge!;
      lifetimeDischarge += life.discharge!;
      const perf = await t.api.get<SitePerformance>('/comprehensive/site/performance', t.adminToken, { siteId: s.id });
      efficiency[s.code] = perf.body.data.totalEfficiency;
      // The console's lifetime round trip is these registers' ratio.
      if (life.discharge! <= life.charge!) expect(efficiency[s.code], s.code).toBeCloseTo((life.discharge! / life.charge!) * 100, 1);
    }
    // Shanghai and Los Angeles: AC meters, about one and a half cycles a day, so a few days' SOC
    // difference weighs little. (Berlin's battery cycles less than once a day: over these four days
    // it gave out more than it took in (null, no round trip yet); its two weeks are in the
    // simulator's lifetime test.) The difference includes the BMS's SOC error at the end (soc.ts):
    // the EMS ends at the same estimate as it started, the cells a point or two off it, which over
    // four days moves the ratio by up to a few tenths (Shanghai 84.99 % for seed 1). Taken out, the
    // conversion losses alone are inside 85–92 % as before.
    const commissioned = commissionedState(demoFleet(), now - DAYS * DAY, { randomFaultsPerDevicePerDay: 0.1 });
    const etaBoth = ETA_BATTERY * ETA_PCS;
    for (const code of ['SH01', 'LA01']) {
      expect(efficiency[code], code).toBeGreaterThan(84.5);
      expect(efficiency[code], code).toBeLessThan(92);
      const sid = sites.find((x) => x.code === code)!.id;
      const life = await lifetimeOf(sid);
      const stored = history.state.stations.find((x) => x.def.code === code)!.dyn.energy - commissioned.stations.find((x) => x.def.code === code)!.dyn.energy;
      const conversion = stored >= 0 ? life.discharge! / (life.charge! - stored / etaBoth) : (life.discharge! + stored * etaBoth) / life.charge!;
      expect(conversion * 100, code).toBeGreaterThan(85);
      expect(conversion * 100, code).toBeLessThan(92);
    }
    // The home page's totals are the same figures, added up.
    const [group] = await t.ctx.db.select({ id: company.id }).from(company).orderBy(asc(company.id)).limit(1);
    const top = await t.api.get<HomeTop>('/home/page/top', t.adminToken, { companyId: group!.id });
    expect(top.status).toBe(200);
    expect(Math.abs(top.body.data.totalCharge - lifetimeCharge)).toBeLessThan(6);
    expect(Math.abs(top.body.data.totalDischarge - lifetimeDischarge)).toBeLessThan(6);
    expect(await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(site).where(eq(site.code, 'SH01'))).toEqual([{ n: 1 }]);
  });
});
