import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overviewCalendar, overviewSiteRecord, overviewStatistic, serviceRecord } from '@ess/contract';
import { inspectionDefect, inspectionWorkOrder, repairOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { overviewSummary } from './overview.service.ts';

/**
 * The overview against hand-worked cases: a station in Asia/Shanghai (A) and one in
 * America/Los_Angeles (B), work orders, repair orders (from alarms and not) and defects written
 * straight into the tables with known times. MTTA / MTTR per station and station-local month to
 * the minute; the calendar's due, done and overdue per day; the service per assignee; the station
 * list; and the scope refusals.
 */
const d = (iso: string) => new Date(iso);
let seq = 0;
const no = (p: string) => `${p}${Date.now()}${++seq}`;

describe.each(dbTargets(import.meta.url))('maintenance overview on %s', (target) => {
  let t: TestApp;
  let a: number;
  let b: number;
  let worker: FactoryUser;
  let viewer: FactoryUser;
  let onlyB: FactoryUser;

  beforeAll(async () => {
    t = await startTestApp(target, { ROLES: 'api' });
    const { east } = await seededCompanies(t);
    a = (await newSite(t, east.id)).id;
    b = (await newSite(t, east.id)).id;
    await t.ctx.db.update(site).set({ timeZone: 'Asia/Shanghai' }).where(eq(site.id, a));
    await t.ctx.db.update(site).set({ timeZone: 'America/Los_Angeles' }).where(eq(site.id, b));
    worker = await newUser(t, east.id, { signIn: false, name: '维护员甲' });
    viewer = await newUser(t, east.id, { menus: ['/overview/order'], siteIds: [a, b] });
    onlyB = await newUser(t, east.id, { menus: ['/overview/order'], siteIds: [b] });
    const db = t.ctx.db;
    const wo = (v: { siteId: number; status: string; dueAt: string; completedAt?: string; assigneeId?: number }) => ({
      no: no('XJ'), siteId: v.siteId, origin: 'manual', title: '巡检', status: v.status, scheduledDate: v.dueAt.slice(0, 10),
      startAt: d(v.dueAt), dueAt: d(v.dueAt), completedAt: v.completedAt ? d(v.completedAt) : null, assigneeId: v.assigneeId ?? null,
      createdByName: 'test', createdAt: d('2026-10-09T00:00:00Z'),
    });
    await db.insert(inspectionWorkOrder).values([
      // Due 10-10 (Shanghai): done on time that day; done late the next day; still open (overdue); closed (not counted).
      wo({ siteId: a, status: 'completed', dueAt: '2026-10-10T02:00:00Z', completedAt: '2026-10-10T01:00:00Z', assigneeId: worker.id }),
      wo({ siteId: a, status: 'completed', dueAt: '2026-10-10T03:00:00Z', completedAt: '2026-10-11T05:00:00Z', assigneeId: worker.id }),
      wo({ siteId: a, status: 'pending', dueAt: '2026-10-10T04:00:00Z', assigneeId: worker.id }),
      wo({ siteId: a, status: 'closed', dueAt: '2026-10-10T05:00:00Z' }),
    ]);
    const ro = (v: { siteId: number; status: string; alarm?: string; accepted?: string; completed?: string; dueAt?: string; assigneeId?: number; source?: string }) => ({
      no: no('WX'), siteId: v.siteId, level: 2, title: '维修', source: v.source ?? 'alarm', status: v.status,
      alarmStartedAt: v.alarm ? d(v.alarm) : null, acceptedAt: v.accepted ? d(v.accepted) : null, completedAt: v.completed ? d(v.completed) : null,
      dueAt: v.dueAt ? d(v.dueAt) : null, assigneeId: v.assigneeId ?? null, createdByName: 'test', createdAt: v.alarm ? d(v.alarm) : d('2026-10-15T00:00:00Z'),
    });
    await db.insert(repairOrder).values([
      // A, October: accepted after 30 and 10 min, completed after 120 and 190 min → MTTA 20, MTTR 155.
      ro({ siteId: a, status: 'completed', alarm: '2026-10-05T00:00:00Z', accepted: '2026-10-05T00:30:00Z', completed: '2026-10-05T02:00:00Z', assigneeId: worker.id }),
      ro({ siteId: a, status: 'completed', alarm: '2026-10-20T10:00:00Z', accepted: '2026-10-20T10:10:00Z', completed: '2026-10-20T13:10:00Z', dueAt: '2026-10-20T18:00:00Z', assigneeId: worker.id }),
      // A: 31 Oct 17:00 UTC is 1 Nov in Shanghai → November; accepted after 45 min, not completed.
      ro({ siteId: a, status: 'processing', alarm: '2026-10-31T17:00:00Z', accepted: '2026-10-31T17:45:00Z', assigneeId: worker.id }),
      // B: 1 Nov 05:00 UTC is 31 Oct 22:00 in Los Angeles → October; 7 and 60 min.
      ro({ siteId: b, status: 'completed', alarm: '2026-11-01T05:00:00Z', accepted: '2026-11-01T05:07:00Z', completed: '2026-11-01T06:00:00Z' }),
      // Not from an alarm: no part of MTTA / MTTR.
      ro({ siteId: a, status: 'completed', source: 'manual', accepted: '2026-10-06T00:00:00Z', completed: '2026-10-06T01:00:00Z' }),
    ]);
    await db.insert(inspectionDefect).values([
      { no: no('QX'), siteId: a, level: 3, description: '漏液', status: 'open', foundByName: 'test', foundAt: d('2026-10-10T03:00:00Z') },
      { no: no('QX'), siteId: a, level: 3, description: '已修', status: 'resolved', foundByName: 'test', foundAt: d('2026-10-10T03:00:00Z') },
    ]);
  });
  afterAll(async () => t?.stop());

  const post = <T>(path: string, body: unknown, token = viewer.token) => t.api.post<T>(path, token, body);

  it('MTTA and MTTR per station and station-local month, to the minute', async () => {
    const s = overviewStatistic.parse(await okData(post('/inspection/overview/statistic', { from: '2026-10-01', to: '2026-11-30', bucket: 'month' })));
    expect(s.mtt.map((m) => [m.siteId, m.month, m.orders, m.mttaMinutes, m.mttrMinutes])).toEqual(
      expect.arrayContaining([
        [a, '2026-10', 2, 20, 155],
        [a, '2026-11', 1, 45, null],
        [b, '2026-10', 1, 7, 60],
      ]),
    );
    expect(s.mtt).toHaveLength(3);
    // The counts over time: October's points, by month.
    expect(s.points.map((p) => p.date)).toEqual(['2026-10', '2026-11']);
    expect(s.points[0]).toMatchObject({ inspectionCreated: 4, inspectionCompleted: 2, defectsFound: 2 });
  });

  it('the month calendar: due, done and overdue per station-local day', async () => {
    const c = overviewCalendar.parse(await okData(post('/inspection/overview/calendar', { siteId: a, month: '2026-10' })));
    expect(c.days).toHaveLength(31);
    const day = (date: string) => c.days.find((x) => x.date === date);
    expect(day('2026-10-10')).toEqual({ date: '2026-10-10', inspectionDue: 3, repairDue: 0, inspectionDone: 1, repairDone: 0, overdue: 2 });
    expect(day('2026-10-11')).toMatchObject({ inspectionDue: 0, inspectionDone: 1 });
    expect(day('2026-10-20')).toMatchObject({ repairDone: 1 });
    // Due 18:00 UTC on the 20th is 02:00 on the 21st in Shanghai.
    expect(day('2026-10-21')).toMatchObject({ repairDue: 1, overdue: 0 });
    expect(day('2026-10-05')).toMatchObject({ repairDone: 1 });
  });

  it('the service per assignee: load, overdue, completed and on-time rate', async () => {
    const rows = (await okData(post<unknown[]>('/inspection/overview/service', { siteId: a, from: '2026-10-01', to: '2026-10-31' }))).map((r) => serviceRecord.parse(r));
    expect(rows).toEqual([
      { userId: worker.id, name: '维护员甲', load: 2, overdueOpen: 1, completed: 4, onTime: 3, onTimeRate: 0.75, inspectionCompleted: 2, repairCompleted: 2 },
    ]);
  });

  it('the stations with their open work', async () => {
    const rows = (await okData(post<unknown[]>('/inspection/overview/site/list', {}))).map((r) => overviewSiteRecord.parse(r));
    const rowA = rows.find((r) => r.siteId === a);
    expect(rowA).toMatchObject({ openInspection: 1, openRepair: 1, overdue: 1, openDefects: 1, timeZone: 'Asia/Shanghai' });
    expect(rows.map((r) => r.siteId)).toContain(b);
  });

  it('the summary on a pinned day: open, overdue, due today, completed this month, MTTA / MTTR of the month', async () => {
    const [u] = await t.ctx.db.select().from(appUser).where(eq(appUser.id, viewer.id));
    const [c] = await t.ctx.db.select().from(company).where(eq(company.id, u!.companyId));
    const caller: AuthUser = { id: u!.id, username: u!.username, name: u!.name, companyId: c!.id, companyPath: c!.path, buildIn: false, allSites: false, sessionId: 0 };
    const s = await overviewSummary(t.ctx, caller, { siteId: a }, d('2026-10-10T12:00:00Z'));
    expect(s).toEqual({
      inspection: { open: 1, overdue: 1, dueToday: 3, completedThisMonth: 2 },
      repair: { open: 1, overdue: 0, dueToday: 0, completedThisMonth: 3 },
      openDefects: 1,
      mttaMinutes: 20,
      mttrMinutes: 155,
    });
    // Through the API (today): answers in the contract's shape.
    const live = await okData(post<{ openDefects: number }>('/inspection/overview/summary', {}));
    expect(live.openDefects).toBe(1);
  });

  it('refuses another station, another company, a bad range and a user without the menu', async () => {
    expect((await post('/inspection/overview/summary', { siteId: a }, onlyB.token)).status).toBe(403);
    expect((await post('/inspection/overview/calendar', { siteId: a, month: '2026-10' }, onlyB.token)).status).toBe(403);
    const { south } = await seededCompanies(t);
    expect((await post('/inspection/overview/site/list', { companyId: south.id })).status).toBe(403);
    expect((await post('/inspection/overview/statistic', { from: '2026-10-31', to: '2026-10-01' })).status).toBe(400);
    expect((await post('/inspection/overview/statistic', { from: '2025-01-01', to: '2026-10-01' })).status).toBe(400);
    expect((await post('/inspection/overview/calendar', { month: '2026-13' })).status).toBe(400);
    const noMenu = await newUser(t, (await seededCompanies(t)).east.id, { menus: ['/patrol/work'], siteIds: [a] });
    expect((await post('/inspection/overview/summary', {}, noMenu.token)).status).toBe(403);
    // B only: A's figures are not in its answer.
    const onlyBList = (await okData(post<{ siteId: number }[]>('/inspection/overview/site/list', {}, onlyB.token))).map((r) => r.siteId);
    expect(onlyBList).toEqual([b]);
  });
});
