import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notification, notificationSetting } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, newUser } from '../../../test/factory.ts';
import { sweepOverduePushes } from './notification.jobs.ts';

/** A scheduled push whose job was lost is still delivered, once, by the periodic sweep. */
describe.each(dbTargets(import.meta.url))('overdue scheduled pushes on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => t?.stop());

  it('sends a pending push well past its time exactly once, and leaves future ones alone', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { signIn: false });
    const admin = await t.api.get<{ id: number; companyId: number }>('/system/user/profile/info', t.adminToken);
    const insert = (pushAt: Date, title: string) =>
      t.ctx.db
        .insert(notificationSetting)
        .values({
          companyId: admin.body.data.companyId, title, content: '补发', pushMode: 'scheduled', pushAt, targetType: 'user',
          targetIds: [u.id], status: 'pending', createdBy: admin.body.data.id,
        })
        .returning({ id: notificationSetting.id });
    // As if the queue had lost their jobs: rows only, no job.
    const [lost] = await insert(new Date(Date.now() - 10 * 60_000), 'lost push');
    const [future] = await insert(new Date(Date.now() + 60 * 60_000), 'future push');

    expect(await sweepOverduePushes(t.ctx)).toBe(1);
    expect(await sweepOverduePushes(t.ctx)).toBe(0);

    const delivered = await t.ctx.db.select().from(notification).where(and(eq(notification.userId, u.id), eq(notification.title, 'lost push')));
    expect(delivered).toHaveLength(1);
    const [lostRow] = await t.ctx.db.select().from(notificationSetting).where(eq(notificationSetting.id, lost!.id));
    const [futureRow] = await t.ctx.db.select().from(notificationSetting).where(eq(notificationSetting.id, future!.id));
    expect(lostRow!.status).toBe('sent');
    expect(futureRow!.status).toBe('pending');
  });
});
