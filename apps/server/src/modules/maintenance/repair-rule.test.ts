import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepairAutoRuleRecord, RepairRecord } from '@ess/contract';
import { repairAutoRule, repairOrder } from '../../db/schema/maintenance.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newDevice, okData, seededCompanies } from '../../../test/factory.ts';
import { orderWorld, type OrderWorld } from './orders.fixtures.ts';
import { createAutomaticRepairs } from './repair.service.ts';

const MIN = 60_000;
const ONE = '/inspection/repair/auto/rule/query/one';
const EDIT = '/inspection/repair/auto/rule/edit';

/** The automatic-repair rule's calls (decision 0034): read, set, refusals, and the job following the rule. */
describe.each(dbTargets(import.meta.url))('automatic repair rule on %s', (target) => {
  let t: TestApp;
  let w: OrderWorld;
  let eastId: number;
  let southId: number;
  const post = <T>(path: string, body: unknown, token: string | null = t.adminToken) => t.api.post<T>(path, token, body);
  const ruleRow = async (companyId: number) => (await t.ctx.db.select().from(repairAutoRule).where(eq(repairAutoRule.companyId, companyId)))[0] ?? null;

  beforeAll(async () => {
    t = await startTestApp(target);
    w = await orderWorld(t);
    const { east, south } = await seededCompanies(t);
    eastId = east.id;
    southId = south.id;
  });
  afterAll(async () => t?.stop());

  it('answers the default for a company without a rule of its own, then the rule as set, with who set it', async () => {
    expect(await okData(post<RepairAutoRuleRecord>(ONE, { companyId: eastId }, w.worker.token))).toEqual({
      companyId: eastId, enabled: true, maxLevel: 2, openMinutes: 10, custom: false, updatedByName: null, updatedAt: null,
    });
    expect((await post(EDIT, { companyId: eastId, enabled: true, maxLevel: 3, openMinutes: 30 }, w.worker.token)).status).toBe(200);
    const r = await okData(post<RepairAutoRuleRecord>(ONE, { companyId: eastId }, w.worker.token));
    expect(r).toMatchObject({ companyId: eastId, enabled: true, maxLevel: 3, openMinutes: 30, custom: true, updatedByName: w.worker.name });
    expect(r.updatedAt).not.toBeNull();
    // Setting it again updates the one row.
    expect((await post(EDIT, { companyId: eastId, enabled: false, maxLevel: 1, openMinutes: 1440 }, w.worker.token)).status).toBe(200);
    expect(await ruleRow(eastId)).toMatchObject({ enabled: false, maxLevel: 1, openMinutes: 1440, updatedBy: w.worker.id });
    expect((await t.ctx.db.select().from(repairAutoRule).where(eq(repairAutoRule.companyId, eastId))).length).toBe(1);
  });

  it('refuses a foreign company, a bad level or duration, no sign-in and no menu, and writes nothing', async () => {
    const before = await ruleRow(eastId);
    const good = { companyId: eastId, enabled: true, maxLevel: 2, openMinutes: 10 };
    const cases: [string, unknown, string | null, number][] = [
      ['foreign company', { ...good, companyId: southId }, w.worker.token, 403],
      ['unknown company', { ...good, companyId: 2 ** 31 - 1 }, t.adminToken, 404],
      ['level 0', { ...good, maxLevel: 0 }, w.worker.token, 400],
      ['level 5', { ...good, maxLevel: 5 }, w.worker.token, 400],
      ['level 2.5', { ...good, maxLevel: 2.5 }, w.worker.token, 400],
      ['0 minutes', { ...good, openMinutes: 0 }, w.worker.token, 400],
      ['1441 minutes', { ...good, openMinutes: 1441 }, w.worker.token, 400],
      ['no enabled', { companyId: eastId, maxLevel: 2, openMinutes: 10 }, w.worker.token, 400],
      ['not signed in', good, null, 401],
      ['without the repair menus', good, w.noMenu.token, 403],
    ];
    for (const [what, body, token, status] of cases) {
      const res = await post(EDIT, body, token);
      expect(res.status, `${what}: ${res.body.tipMsg}`).toBe(status);
      expect(res.body.errorCode).not.toBe('00000');
    }
    expect((await post(EDIT, { ...good, maxLevel: 5 }, w.worker.token)).body.tipMsg).toContain('等级上限应为1-4');
    expect((await post(EDIT, { ...good, openMinutes: 1441 }, w.worker.token)).body.tipMsg).toContain('持续分钟数应为1-1440');
    expect(await ruleRow(eastId)).toEqual(before);
    expect(await ruleRow(southId)).toBeNull();
    // Reading is refused the same way.
    expect((await post(ONE, { companyId: southId }, w.worker.token)).status).toBe(403);
    expect((await post(ONE, { companyId: eastId }, null)).status).toBe(401);
    expect((await post(ONE, { companyId: eastId }, w.noMenu.token)).status).toBe(403);
    expect((await post(ONE, { companyId: 'x' }, w.worker.token)).status).toBe(400);
  });

  it('changes what the automatic job creates: a level-3 alarm open 6 minutes gets an order under level ≤ 3 / 5 minutes, none while disabled', async () => {
    const ordersOf = async (alarmId: number) => (await okData(post<RepairRecord[]>('/inspection/repair/order/query/list', { alarmId }))).length;
    const setRule = async (rule: { enabled: boolean; maxLevel: number; openMinutes: number }) =>
      expect((await post(EDIT, { companyId: eastId, ...rule }, w.worker.token)).status).toBe(200);
    const sixMinutesOld = async () => newAlarm(t, (await newDevice(t, w.siteId, { type: 'bms' })).id, { level: 3, startedAt: new Date(Date.now() - 6 * MIN) });

    // The default (level ≤ 2, 10 minutes) leaves it alone.
    await t.ctx.db.delete(repairAutoRule).where(eq(repairAutoRule.companyId, eastId));
    const first = await sixMinutesOld();
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(first.id)).toBe(0);

    await setRule({ enabled: true, maxLevel: 3, openMinutes: 5 });
    await createAutomaticRepairs(t.ctx);
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(first.id)).toBe(1);
    const [o] = await t.ctx.db.select().from(repairOrder).where(eq(repairOrder.alarmId, first.id));
    expect(o).toMatchObject({ source: 'autoAlarm', level: 3, status: 'toBeDispatched' });

    // Disabled: the same kind of alarm gets none; a level-3 rule of 7 minutes is not yet due at 6.
    await setRule({ enabled: false, maxLevel: 3, openMinutes: 5 });
    const second = await sixMinutesOld();
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(second.id)).toBe(0);
    await setRule({ enabled: true, maxLevel: 3, openMinutes: 7 });
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(second.id)).toBe(0);
    // Level ≤ 2 leaves level 3 alone whatever its age.
    await setRule({ enabled: true, maxLevel: 2, openMinutes: 1 });
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(second.id)).toBe(0);
    await setRule({ enabled: true, maxLevel: 3, openMinutes: 6 });
    await createAutomaticRepairs(t.ctx);
    expect(await ordersOf(second.id)).toBe(1);
    await setRule({ enabled: false, maxLevel: 2, openMinutes: 10 });
  });
});
