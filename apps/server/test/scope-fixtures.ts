import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accessLog, appUser, company, notification, notificationLog, notificationSetting, role } from '../src/db/schema/system.ts';
import { storedFile } from '../src/db/schema/files.ts';
import { device, product } from '../src/db/schema/device.ts';
import { site } from '../src/db/schema/site.ts';
import { probeSuffix } from '../src/modules/files/files.service.ts';
import type { TestApp } from './harness.ts';

/**
 * Creates one object of the named entity inside `companyId` (a company the probing user may
 * not see) and returns its id. Each module adds the entities its routes declare in `scope`.
 */
export type ScopeFixture = (t: TestApp, companyId: number) => Promise<number>;

export const scopeFixtures: Record<string, ScopeFixture> = {};

const suffix = () => randomBytes(4).toString('hex');

// System administration: a child company, a role and a user inside the given company.
scopeFixtures.company = async (t, companyId) => {
  const { db } = t.ctx;
  const [parent] = await db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  const [c] = await db.insert(company).values({ name: `probe-${suffix()}`, parentId: companyId }).returning({ id: company.id });
  await db.update(company).set({ path: `${parent!.path}${c!.id}/` }).where(eq(company.id, c!.id));
  return c!.id;
};
scopeFixtures.role = async (t, companyId) => {
  const [r] = await t.ctx.db.insert(role).values({ name: `probe-${suffix()}`, companyId }).returning({ id: role.id });
  return r!.id;
};
scopeFixtures.user = async (t, companyId) => {
  const [u] = await t.ctx.db
    .insert(appUser)
    .values({ username: `probe-${suffix()}`, name: 'probe', companyId, passwordHash: 'not-a-hash' })
    .returning({ id: appUser.id });
  return u!.id;
};

// Files: a stored-file row of the given company, named so the download probe can ask for it.
scopeFixtures.storedFile = async (t, companyId) => {
  const [f] = await t.ctx.db
    .insert(storedFile)
    .values({ suffix: `pending-${suffix()}`, originalName: 'probe.bin', mime: 'application/octet-stream', size: 1, sha256: '0'.repeat(64), companyId, uploadedBy: 1 })
    .returning({ id: storedFile.id });
  await t.ctx.db.update(storedFile).set({ suffix: probeSuffix(f!.id) }).where(eq(storedFile.id, f!.id));
  return f!.id;
};

// Logs and notifications: rows of the given company (the inbox probe: another user's notification).
async function probeSetting(t: TestApp, companyId: number) {
  const [s] = await t.ctx.db
    .insert(notificationSetting)
    .values({ companyId, title: 'probe', content: 'probe', pushMode: 'scheduled', pushAt: new Date(Date.now() + 3_600_000), targetType: 'role', targetIds: [1], createdBy: 1 })
    .returning({ id: notificationSetting.id });
  return s!.id;
}
scopeFixtures.notificationSetting = probeSetting;
scopeFixtures.notificationLog = async (t, companyId) => {
  const settingId = await probeSetting(t, companyId);
  const [l] = await t.ctx.db
    .insert(notificationLog)
    .values({ settingId, companyId, title: 'probe', recipientCount: 0, status: 'failed', error: 'probe' })
    .returning({ id: notificationLog.id });
  return l!.id;
};
scopeFixtures.notification = async (t, companyId) => {
  const userId = await scopeFixtures.user!(t, companyId);
  const [n] = await t.ctx.db.insert(notification).values({ userId, title: 'probe', content: 'probe' }).returning({ id: notification.id });
  return n!.id;
};
scopeFixtures.accessLog = async (t, companyId) => {
  const [a] = await t.ctx.db
    .insert(accessLog)
    .values({ companyId, userId: null, username: 'probe', method: 'POST', path: '/probe', status: 200, durationMs: 1, createdAt: new Date() })
    .returning({ id: accessLog.id });
  return a!.id;
};

// Stations and devices: a station of the given company, and a device on such a station.
scopeFixtures.site = async (t, companyId) => {
  const [s] = await t.ctx.db.insert(site).values({ companyId, name: 'probe', code: `P${suffix()}` }).returning({ id: site.id });
  return s!.id;
};
scopeFixtures.device = async (t, companyId) => {
  const siteId = await scopeFixtures.site!(t, companyId);
  const [p] = await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.type, 'bms')).limit(1);
  const [d] = await t.ctx.db
    .insert(device)
    .values({ code: `probe-${suffix()}`, name: 'probe', siteId, productId: p!.id, type: 'bms' })
    .returning({ id: device.id });
  return d!.id;
};
