import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { alarm, alarmDict } from '../src/db/schema/alarm.ts';
import { device, product } from '../src/db/schema/device.ts';
import { site, userSite } from '../src/db/schema/site.ts';
import { appUser, company, menu, role, roleMenu, userRole } from '../src/db/schema/system.ts';
import { hashPassword } from '../src/platform/password.ts';
import type { ApiResponse, TestApp } from './harness.ts';

/**
 * Test factories: companies, stations, devices, alarms, roles and users of a test app, written
 * straight into its database (as the seed writes them), each with fresh names and codes so tests
 * never collide. Users sign in over the real HTTP API.
 */
export const FACTORY_PASSWORD = 'Passw0rd1';

const tag = () => randomBytes(4).toString('hex');

/** The seeded group and its two subsidiaries. */
export async function seededCompanies(t: TestApp) {
  const rows = await t.ctx.db.select().from(company).where(inArray(company.code, ['GROUP', 'EAST', 'SOUTH']));
  const by = (code: string) => rows.find((r) => r.code === code)!;
  return { group: by('GROUP'), east: by('EAST'), south: by('SOUTH') };
}

/** A company under `parentId`, with its path. */
export async function newCompany(t: TestApp, parentId: number, opts: { name?: string; code?: string } = {}) {
  const { db } = t.ctx;
  const [parent] = await db.select({ path: company.path }).from(company).where(eq(company.id, parentId));
  const [c] = await db
    .insert(company)
    .values({ name: opts.name ?? `公司${tag()}`, code: opts.code ?? null, parentId })
    .returning();
  const path = `${parent!.path}${c!.id}/`;
  await db.update(company).set({ path }).where(eq(company.id, c!.id));
  return { ...c!, path };
}

/** A station of the company. */
export async function newSite(t: TestApp, companyId: number, opts: { code?: string; name?: string } = {}) {
  const code = opts.code ?? `S${tag()}`;
  const name = opts.name ?? `站点${code}`;
  const [s] = await t.ctx.db.insert(site).values({ companyId, name, code }).returning({ id: site.id });
  return { id: s!.id, code, name };
}

/** A device on the station: of a product given, or else the first product of the type (default bms). */
export async function newDevice(
  t: TestApp,
  siteId: number,
  opts: { type?: string; productId?: number; code?: string; name?: string; meterPurpose?: string } = {},
) {
  const { db } = t.ctx;
  const type = opts.type ?? 'bms';
  const productId = opts.productId ?? (await db.select({ id: product.id }).from(product).where(eq(product.type, type)).limit(1))[0]!.id;
  const code = opts.code ?? `D${tag()}`;
  const [d] = await db
    .insert(device)
    .values({ code, name: opts.name ?? `设备${code}`, siteId, productId, type, meterPurpose: opts.meterPurpose ?? null })
    .returning({ id: device.id });
  return { id: d!.id, code, siteId, productId, type };
}

/**
 * An alarm of the device, written straight into the table: raised by the dictionary entry given
 * (or the first of the device's type), active unless `endedAt` is given.
 */
export async function newAlarm(
  t: TestApp,
  deviceId: number,
  opts: {
    dictId?: number; no?: string; kind?: string; code?: string; level?: number; alarmType?: string; description?: string;
    startedAt?: Date; endedAt?: Date | null;
  } = {},
) {
  const { db } = t.ctx;
  const [d] = await db.select().from(device).where(eq(device.id, deviceId));
  const [entry] = opts.dictId
    ? await db.select().from(alarmDict).where(eq(alarmDict.id, opts.dictId))
    : await db.select().from(alarmDict).where(eq(alarmDict.deviceType, d!.type)).limit(1);
  const [a] = await db
    .insert(alarm)
    .values({
      no: opts.no ?? `ALM${tag()}`, dictId: entry!.id, deviceId, siteId: d!.siteId, cabinetId: d!.cabinetId,
      kind: opts.kind ?? entry!.kind, code: opts.code ?? entry!.eventCode ?? entry!.identifier ?? 'test',
      level: opts.level ?? entry!.level, alarmType: opts.alarmType ?? entry!.alarmType, description: opts.description ?? entry!.description,
      status: opts.endedAt ? 'ended' : 'active', startedAt: opts.startedAt ?? new Date(), endedAt: opts.endedAt ?? null,
    })
    .returning({ id: alarm.id, no: alarm.no });
  return a!;
}

/** A role of the company granting the given menus (by path), or every menu. */
export async function newRole(t: TestApp, companyId: number, menus: string[] | 'all' = [], name = `role-${tag()}`): Promise<number> {
  const { db } = t.ctx;
  const [r] = await db.insert(role).values({ name, companyId }).returning({ id: role.id });
  const picked =
    menus === 'all'
      ? await db.select({ id: menu.id }).from(menu)
      : menus.length
        ? await db.select({ id: menu.id }).from(menu).where(inArray(menu.path, menus))
        : [];
  if (picked.length) await db.insert(roleMenu).values(picked.map((m) => ({ roleId: r!.id, menuId: m.id })));
  return r!.id;
}

export interface FactoryUser {
  id: number;
  username: string;
  name: string;
  roleId: number;
  /** Empty when `signIn: false`. */
  token: string;
}

let cheapHash: Promise<string> | null = null;

/**
 * An enabled user of the company holding a role (a new one granting `menus`, or `roleId`),
 * granted `siteIds`, signed in unless `signIn: false`; `status: 0` disables them after sign-in.
 */
export async function newUser(
  t: TestApp,
  companyId: number,
  opts: {
    menus?: string[] | 'all'; roleId?: number; siteIds?: number[]; username?: string; name?: string; password?: string;
    status?: 0 | 1; signIn?: boolean;
  } = {},
): Promise<FactoryUser> {
  const { db } = t.ctx;
  const username = opts.username ?? `u${tag()}`;
  const password = opts.password ?? FACTORY_PASSWORD;
  const roleId = opts.roleId ?? (await newRole(t, companyId, opts.menus ?? []));
  const passwordHash = password === FACTORY_PASSWORD ? await (cheapHash ??= hashPassword(FACTORY_PASSWORD)) : await hashPassword(password);
  const [u] = await db
    .insert(appUser)
    .values({ username, name: opts.name ?? `用户${username}`, companyId, passwordHash, status: 1 })
    .returning();
  await db.insert(userRole).values({ userId: u!.id, roleId });
  if (opts.siteIds?.length) await db.insert(userSite).values(opts.siteIds.map((siteId) => ({ userId: u!.id, siteId })));
  const token = opts.signIn === false ? '' : await t.api.login(username, password);
  if (opts.status === 0) await db.update(appUser).set({ status: 0 }).where(eq(appUser.id, u!.id));
  return { id: u!.id, username, name: u!.name, roleId, token };
}

/** Ids of the menus with these paths. */
export async function menuIdsOf(t: TestApp, paths: string[]): Promise<number[]> {
  const rows = await t.ctx.db.select({ id: menu.id }).from(menu).where(inArray(menu.path, paths));
  return rows.map((r) => r.id);
}

export async function interfaceIdOf(t: TestApp, path: string): Promise<number> {
  const rows = await t.ctx.database.sql.query<{ id: number }>('select id from api_interface where path = $1', [path]);
  return rows.rows[0]!.id;
}

export async function roleIdByName(t: TestApp, name: string, companyId: number): Promise<number> {
  const [r] = await t.ctx.db.select({ id: role.id }).from(role).where(and(eq(role.name, name), eq(role.companyId, companyId)));
  return r!.id;
}

/** The data of a call that must succeed; fails the test with the answer's tipMsg otherwise. */
export async function okData<T>(call: Promise<ApiResponse<T>>): Promise<T> {
  const r = await call;
  expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
  return r.body.data;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, stepMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Polls until `cond` holds, or fails naming `what` after `timeoutMs`. */
export async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000, stepMs = 25): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
