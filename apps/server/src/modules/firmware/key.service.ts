import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { FIRMWARE_ERRORS, type FirmwareKeyAlgorithm, type firmwareKeyAdd, type firmwareKeyEdit, type firmwareKeyPage, type FirmwareKeyRecord } from '@ess/contract/firmware';
import { firmwareKey } from '../../db/schema/firmware.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { parsePublicKey, type CandidateKey } from './signature.ts';

/**
 * Public keys (decision 0047): a company's Ed25519 and ECDSA P-256 keys that verify its packages'
 * signatures (and its subsidiaries': a key of a parent company is trusted below it). The key text
 * never changes once added (add another and disable this one); a disabled key verifies nothing.
 */
const KEY_NOT_FOUND = '公钥不存在';

const packageCount = sql<number>`(select count(*) from firmware_package p where p.key_id = "firmware_key"."id")`.mapWith(Number);

const keys = defineListQuery({
  table: firmwareKey,
  columns: {
    id: firmwareKey.id, companyId: firmwareKey.companyId, companyName: company.name, name: firmwareKey.name, algorithm: firmwareKey.algorithm,
    publicKeyPem: firmwareKey.publicKeyPem, fingerprint: firmwareKey.fingerprint, enabled: firmwareKey.enabled, remark: firmwareKey.remark,
    packageCount, createdAt: firmwareKey.createdAt, updatedAt: firmwareKey.updatedAt, createdByName: appUser.name,
  },
  joins: [
    { table: company, on: eq(company.id, firmwareKey.companyId) },
    { table: appUser, on: eq(appUser.id, firmwareKey.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(firmwareKey.companyId, db, user),
  filter: (f: z.output<typeof firmwareKeyPage>) => [
    f.companyId ? eq(firmwareKey.companyId, f.companyId) : undefined,
    f.name ? likeEscaped(firmwareKey.name, f.name) : undefined,
    f.algorithm ? eq(firmwareKey.algorithm, f.algorithm) : undefined,
    f.enabled === undefined ? undefined : eq(firmwareKey.enabled, f.enabled),
  ],
  orderBy: [asc(firmwareKey.companyId), asc(firmwareKey.id)],
  sortable: { name: firmwareKey.name, algorithm: firmwareKey.algorithm, enabled: firmwareKey.enabled, createdAt: firmwareKey.createdAt },
  toRecord: (r): FirmwareKeyRecord => ({ ...r, algorithm: r.algorithm as FirmwareKeyAlgorithm, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }),
});

export const keyPage = (ctx: AppContext, user: AuthUser, req: z.output<typeof firmwareKeyPage>) => keys.page(ctx.db, user, req);

export async function keyOne(ctx: AppContext, user: AuthUser, id: number): Promise<FirmwareKeyRecord> {
  const [r] = await keys.rows(ctx.db, and(eq(firmwareKey.id, id), inCompanyScope(firmwareKey.companyId, ctx.db, user)), 1);
  return found(r, KEY_NOT_FOUND);
}

async function storedKey(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db.select({ id: firmwareKey.id, companyId: firmwareKey.companyId }).from(firmwareKey).where(and(eq(firmwareKey.id, id), inCompanyScope(firmwareKey.companyId, db, user)));
  return found(r, KEY_NOT_FOUND);
}

export async function keyAdd(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwareKeyAdd>): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, body.companyId);
  const parsed = parsePublicKey(body.publicKeyPem);
  const [dup] = await ctx.db.select({ id: firmwareKey.id }).from(firmwareKey).where(and(eq(firmwareKey.companyId, body.companyId), eq(firmwareKey.fingerprint, parsed.fingerprint)));
  if (dup) throw new AppError('DUPLICATE', FIRMWARE_ERRORS.keyDuplicate);
  const [row] = await ctx.db
    .insert(firmwareKey)
    .values({ companyId: body.companyId, name: body.name, algorithm: parsed.algorithm, publicKeyPem: parsed.pem, fingerprint: parsed.fingerprint, enabled: body.enabled, remark: body.remark, createdBy: user.id })
    .returning({ id: firmwareKey.id });
  return { id: row!.id };
}

export async function keyEdit(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwareKeyEdit>): Promise<boolean> {
  const k = await storedKey(ctx.db, user, body.id);
  if (body.companyId !== k.companyId) await assertCompany(ctx.db, user, body.companyId);
  await ctx.db.update(firmwareKey).set({ companyId: body.companyId, name: body.name, enabled: body.enabled, remark: body.remark, updatedAt: new Date() }).where(eq(firmwareKey.id, k.id));
  return true;
}

/** Deleting a key keeps its packages (signed, their key now unknown): they verified when uploaded. */
export async function keyDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const k = await storedKey(ctx.db, user, id);
  await ctx.db.delete(firmwareKey).where(eq(firmwareKey.id, k.id));
  return true;
}

/** The enabled keys that may verify a package of the company: its own and its parent companies'. */
export async function candidateKeys(db: DbOrTx, companyId: number): Promise<CandidateKey[]> {
  const rows = await db.execute<{ id: number; algorithm: FirmwareKeyAlgorithm; public_key_pem: string }>(sql`
    select k.id, k.algorithm, k.public_key_pem from firmware_key k
      join company kc on kc.id = k.company_id
      join company pc on pc.id = ${companyId}
     where k.enabled and pc.path like kc.path || '%'
     order by k.id`);
  return rows.rows.map((r) => ({ id: Number(r.id), algorithm: r.algorithm, publicKeyPem: r.public_key_pem }));
}
