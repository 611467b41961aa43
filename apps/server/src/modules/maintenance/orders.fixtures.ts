import { randomBytes } from 'node:crypto';
import { inspectionItem } from '../../db/schema/maintenance.ts';
import { storedFile } from '../../db/schema/files.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies, type FactoryUser } from '../../../test/factory.ts';

/** Test fixtures of the order tests: a station with devices, items of each check type, users. */

/** The menus a maintenance user holds. */
export const MAINT_MENUS = ['/patrol/order', '/patrol/order-detail', '/patrol/flaw', '/repair/order', '/repair/order-detail'];

/** A 1×1 PNG and the bytes of a JPEG head: real images for the upload call. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4830000000049454e44ae426082', 'hex');
/** A Windows executable's first bytes, named .png. */
export const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(512, 1)]);

export interface OrderWorld {
  siteId: number;
  otherSiteId: number;
  devices: { id: number; type: string }[];
  items: { status: number; number: number; text: number; photo: number };
  worker: FactoryUser;
  worker2: FactoryUser;
  /** A user of the company not granted the station. */
  stranger: FactoryUser;
  /** A user of the other subsidiary with every menu and its own station. */
  foreign: FactoryUser;
  foreignSiteId: number;
  /** Signed in, without the maintenance menus. */
  noMenu: FactoryUser;
}

export async function orderWorld(t: TestApp): Promise<OrderWorld> {
  const { east, south } = await seededCompanies(t);
  const s = await newSite(t, east.id);
  const other = await newSite(t, east.id);
  const foreignSite = await newSite(t, south.id);
  const devices = [await newDevice(t, s.id, { type: 'pcs' }), await newDevice(t, s.id, { type: 'bms' })];
  const tag = randomBytes(3).toString('hex');
  const item = async (name: string, checkType: string, extra: Partial<typeof inspectionItem.$inferInsert> = {}) =>
    (await t.ctx.db.insert(inspectionItem).values({ companyId: east.id, name: `${name}${tag}`, checkType, ...extra }).returning({ id: inspectionItem.id }))[0]!.id;
  const items = {
    status: await item('外观检查', 'status', { standard: '无破损、无异味' }),
    number: await item('柜内温度', 'number', { unit: '℃', minValue: 10, maxValue: 35 }),
    text: await item('巡检记录', 'text'),
    photo: await item('现场照片', 'photo'),
  };
  return {
    siteId: s.id,
    otherSiteId: other.id,
    devices,
    items,
    worker: await newUser(t, east.id, { menus: [...MAINT_MENUS, '/alarm/monitor'], siteIds: [s.id] }),
    worker2: await newUser(t, east.id, { menus: MAINT_MENUS, siteIds: [s.id] }),
    stranger: await newUser(t, east.id, { menus: MAINT_MENUS, siteIds: [other.id] }),
    foreign: await newUser(t, south.id, { menus: 'all', siteIds: [foreignSite.id] }),
    foreignSiteId: foreignSite.id,
    noMenu: await newUser(t, east.id, { menus: ['/home/index'], siteIds: [s.id] }),
  };
}

/** Uploads a file through POST /basic/oss/upload. */
export function upload(t: TestApp, token: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return t.api.call<{ suffix: string; url: string }>('POST', '/basic/oss/upload', { token, rawBody: form });
}

/** A stored-file row as if uploaded (a size or type the upload call would refuse today). */
export async function storedRow(t: TestApp, companyId: number, opts: { mime?: string; size?: number; ext?: string } = {}): Promise<string> {
  const suffix = `${randomBytes(12).toString('hex')}.${opts.ext ?? 'png'}`;
  await t.ctx.db.insert(storedFile).values({
    suffix, originalName: `x.${opts.ext ?? 'png'}`, mime: opts.mime ?? 'image/png', size: opts.size ?? 100, sha256: '0'.repeat(64), companyId, uploadedBy: 1,
  });
  return suffix;
}

/** Counts of the rows a refused call must leave as they were. */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const { rows } = await t.ctx.database.sql.query<Record<string, number>>(
    `select (select count(*)::int from inspection_work_order) as orders, (select count(*)::int from inspection_defect) as defects,
            (select count(*)::int from repair_order) as repairs, (select count(*)::int from maintenance_log) as logs,
            (select count(*)::int from domain_event) as events,
            (select count(*)::int from inspection_work_order_item where result is not null) as results`,
  );
  return rows[0]!;
}

/**
 * The context as a job sees it, with a database that fails once in the middle of a transaction:
 * the `nth` insert into `table` made inside a transaction throws as a dropped connection does,
 * after that transaction's earlier writes. Everything else reaches the real database (the seam of
 * the outage tests: no product code knows of it).
 */
export function failingOnce(ctx: AppContext, table: unknown, nth = 1): AppContext {
  let seen = 0;
  const forward = <T extends object>(target: T, own: (prop: PropertyKey) => unknown): T =>
    new Proxy(target, {
      get: (o, prop) => {
        const mine = own(prop);
        if (mine !== undefined) return mine;
        const v: unknown = Reflect.get(o, prop, o);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(o) : v;
      },
    });
  const txOf = (tx: DbOrTx) =>
    forward(tx, (prop) =>
      prop === 'insert'
        ? (t: Parameters<DbOrTx['insert']>[0]) => {
            if (t === table && ++seen === nth) throw Object.assign(new Error('Connection terminated unexpectedly (simulated)'), { code: '57P01' });
            return tx.insert(t);
          }
        : undefined,
    );
  const db = forward(ctx.db, (prop) =>
    prop === 'transaction' ? (fn: (tx: DbOrTx) => Promise<unknown>, config?: unknown) => ctx.db.transaction((tx) => fn(txOf(tx)), config as never) : undefined,
  );
  return Object.create(ctx, { db: { value: db } }) as AppContext;
}
