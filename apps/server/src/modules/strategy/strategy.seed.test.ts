import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGY_DRIFT_ALARM } from '@ess/contract/strategy';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { alarmDict } from '../../db/schema/alarm.ts';
import { modules } from '../index.ts';

/**
 * A database created before issue 19 has a default dictionary without the drift event: the
 * start's seeds add it (decision 0040), and leave an existing entry as an administrator set it.
 */
describe('the strategy drift alarm in an existing dictionary', () => {
  let t: TestApp;
  const drift = () => t.ctx.db.select().from(alarmDict).where(and(eq(alarmDict.deviceType, 'ems'), eq(alarmDict.eventCode, STRATEGY_DRIFT_ALARM)));
  /** What a start does with the database: every module's seeds, in order. */
  const restartSeeds = async () => {
    for (const m of modules) for (const s of m.seeds ?? []) await s({ config: t.ctx.config, database: t.ctx.database, db: t.ctx.db, log: t.ctx.log });
  };

  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is in a new database once (from the default dictionary, not twice)', async () => {
    const rows = await drift();
    expect(rows.map((r) => [r.kind, r.level, r.alarmType, r.description])).toEqual([['event', 2, 'deviceFault', '运行策略与已同步策略不一致']]);
  });

  it('is added on start to a dictionary seeded before it existed, and then left as set', async () => {
    // The old database: its dictionary without the entry (and others in it, so it was seeded).
    await t.ctx.db.delete(alarmDict).where(and(eq(alarmDict.deviceType, 'ems'), eq(alarmDict.eventCode, STRATEGY_DRIFT_ALARM)));
    expect(await drift()).toEqual([]);
    const others = (await t.ctx.db.select({ id: alarmDict.id }).from(alarmDict)).length;
    expect(others).toBeGreaterThan(10);
    await restartSeeds();
    const [added] = await drift();
    expect(added).toMatchObject({ kind: 'event', level: 2, alarmType: 'deviceFault', description: '运行策略与已同步策略不一致', enabled: true });
    // Nothing else came back or doubled.
    expect((await t.ctx.db.select({ id: alarmDict.id }).from(alarmDict)).length).toBe(others + 1);
    // An administrator re-levels and disables it: the next start keeps that.
    await t.ctx.db.update(alarmDict).set({ level: 4, enabled: false }).where(eq(alarmDict.id, added!.id));
    await restartSeeds();
    expect((await drift()).map((r) => [r.id, r.level, r.enabled])).toEqual([[added!.id, 4, false]]);
  });
});
