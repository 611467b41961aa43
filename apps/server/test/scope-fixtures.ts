import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { appUser, company, role } from '../src/db/schema/system.ts';
import { storedFile } from '../src/db/schema/files.ts';
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
