import { and, asc, desc, eq } from 'drizzle-orm';
import {
  type DeviceFault, type DeviceFaultWarning, type DeviceFilter, type DeviceLatestRecord, type DeviceProperties,
  type DeviceRecord, type DeviceTreeNode, type Page, type PageRequest, type TelemetryValue,
} from '@ess/contract';
import { device, productEvent, productProperty } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { deviceEvent } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { productSlotsOf, valuesOf, type ProductSlots } from '../telemetry/index.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { countDevices, deviceOrder, deviceSortColumns, deviceWhere, selectDevices, selectLatest, statusExpr, toRecord } from './device.repository.ts';

const statusNow = (ctx: AppContext) => statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);

/** Named stations must all be the caller's: another company's station is refused, not emptied. */
async function assertFilterSites(ctx: AppContext, user: AuthUser, f: { siteId?: number; siteIds?: number[] }) {
  const ids = [...(f.siteId ? [f.siteId] : []), ...(f.siteIds ?? [])];
  await assertSites(ctx.db, user, ids);
}

export async function deviceList(ctx: AppContext, user: AuthUser, f: DeviceFilter): Promise<DeviceRecord[]> {
  await assertFilterSites(ctx, user, f);
  const status = statusNow(ctx);
  const rows = await selectDevices(ctx.db, status).where(deviceWhere(ctx.db, user, f, status)).orderBy(...deviceOrder).limit(5000);
  return rows.map(toRecord);
}

export async function devicePage(ctx: AppContext, user: AuthUser, req: PageRequest & DeviceFilter & SortRequest): Promise<Page<DeviceRecord>> {
  await assertFilterSites(ctx, user, req);
  const status = statusNow(ctx);
  const where = deviceWhere(ctx.db, user, req, status);
  const [{ n } = { n: 0 }] = await countDevices(ctx.db, where);
  const records = n === 0
    ? []
    : (await selectDevices(ctx.db, status).where(where).orderBy(...sortedBy(req, deviceSortColumns(status), deviceOrder)).limit(req.pageSize).offset((req.current - 1) * req.pageSize)).map(toRecord);
  return { records, total: n, current: req.current, pageSize: req.pageSize };
}

/** One device of the caller's stations; another company's is refused as not found. */
export async function deviceOne(ctx: AppContext, user: AuthUser, id: number): Promise<DeviceRecord> {
  const status = statusNow(ctx);
  const [row] = await selectDevices(ctx.db, status).where(and(eq(device.id, id), inSiteScope(device.siteId, ctx.db, user)));
  if (!row) throw new AppError('NOT_FOUND', '设备不存在');
  return toRecord(row);
}

/** Stations in scope (optionally one, or a company's), each with its devices as a tree by parent. */
export async function deviceTree(ctx: AppContext, user: AuthUser, f: { companyId?: number; siteId?: number; types?: string[] }): Promise<DeviceTreeNode[]> {
  await assertFilterSites(ctx, user, f);
  const status = statusNow(ctx);
  const rows = await selectDevices(ctx.db, status).where(deviceWhere(ctx.db, user, { companyId: f.companyId, siteId: f.siteId }, status)).orderBy(...deviceOrder);
  const sites = await ctx.db
    .select({ id: site.id, code: site.code, name: site.name })
    .from(site)
    .where(and(inSiteScope(site.id, ctx.db, user), f.siteId ? eq(site.id, f.siteId) : undefined))
    .orderBy(asc(site.id));
  const siteIds = new Set(rows.map((r) => r.siteId));
  const wanted = f.types?.length ? new Set(f.types) : null;
  const nodes = new Map<number, DeviceTreeNode>();
  for (const r of rows) {
    nodes.set(r.id, { key: `device-${r.id}`, kind: 'device', id: r.id, code: r.code, name: r.name, type: r.type, status: r.status, children: [] });
  }
  const roots = new Map<number, DeviceTreeNode>(
    sites
      .filter((s) => siteIds.has(s.id) || (!f.companyId && !wanted))
      .map((s) => [s.id, { key: `site-${s.id}`, kind: 'site' as const, id: s.id, code: s.code, name: s.name, children: [] }]),
  );
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const up = r.parentId !== null ? nodes.get(r.parentId) : undefined;
    (up ?? roots.get(r.siteId))?.children.push(node);
  }
  if (!wanted) return [...roots.values()];
  // With a type filter: keep matching devices and the path down to them.
  const prune = (n: DeviceTreeNode): DeviceTreeNode | null => {
    const kids = n.children.map(prune).filter((c): c is DeviceTreeNode => c !== null);
    if (n.kind === 'site' || wanted.has(n.type ?? '') || kids.length) return { ...n, children: kids };
    return null;
  };
  return [...roots.values()].map(prune).filter((n): n is DeviceTreeNode => n !== null && n.children.length > 0);
}

const pick = (values: Record<string, TelemetryValue>, identifiers?: string[]) => {
  if (!identifiers?.length) return values;
  return Object.fromEntries(identifiers.filter((k) => k in values).map((k) => [k, values[k]!]));
};

type LatestFilter = DeviceFilter & { deviceIds?: number[]; identifiers?: string[] };
type LatestRow = Parameters<typeof toRecord>[0] & { ts: Date | null; v: (number | null)[] | null; text: Record<string, string> | null };

function toLatest(slots: Map<number, ProductSlots>, r: LatestRow, identifiers?: string[]): DeviceLatestRecord {
  const { ts, v, text, ...rest } = r;
  return { ...toRecord(rest), ts: ts ? ts.toISOString() : null, values: pick(valuesOf(slots.get(r.productId), v, text), identifiers) };
}

export async function latestList(ctx: AppContext, user: AuthUser, f: LatestFilter): Promise<DeviceLatestRecord[]> {
  await assertFilterSites(ctx, user, f);
  const status = statusNow(ctx);
  const rows = await selectLatest(ctx.db, status).where(deviceWhere(ctx.db, user, f, status)).orderBy(...deviceOrder).limit(2000);
  const slots = await productSlotsOf(ctx);
  return rows.map((r) => toLatest(slots, r, f.identifiers));
}

export async function latestPage(ctx: AppContext, user: AuthUser, req: PageRequest & LatestFilter & SortRequest): Promise<Page<DeviceLatestRecord>> {
  await assertFilterSites(ctx, user, req);
  const status = statusNow(ctx);
  const where = deviceWhere(ctx.db, user, req, status);
  const [{ n } = { n: 0 }] = await countDevices(ctx.db, where);
  const rows = n === 0
    ? []
    : await selectLatest(ctx.db, status).where(where).orderBy(...sortedBy(req, deviceSortColumns(status), deviceOrder)).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  const slots = await productSlotsOf(ctx);
  return { records: rows.map((r) => toLatest(slots, r, req.identifiers)), total: n, current: req.current, pageSize: req.pageSize };
}

/** Latest values of one device (by id or code) in the caller's stations. */
export async function latestOne(ctx: AppContext, user: AuthUser, b: { deviceId?: number; deviceCode?: string; identifiers?: string[] }): Promise<DeviceLatestRecord> {
  const status = statusNow(ctx);
  const [row] = await selectLatest(ctx.db, status).where(
    and(b.deviceId ? eq(device.id, b.deviceId) : eq(device.code, b.deviceCode!), inSiteScope(device.siteId, ctx.db, user)),
  );
  if (!row) throw new AppError('NOT_FOUND', '设备不存在');
  return toLatest(await productSlotsOf(ctx), row, b.identifiers);
}

/** A device's latest values labelled from its thing model: names, units, enumeration labels. */
export async function deviceProperties(ctx: AppContext, user: AuthUser, deviceId: number): Promise<DeviceProperties> {
  const latest = await latestOne(ctx, user, { deviceId });
  const { ts, values, ...record } = latest;
  const props = await ctx.db
    .select()
    .from(productProperty)
    .where(eq(productProperty.productId, record.productId))
    .orderBy(asc(productProperty.sort), asc(productProperty.id));
  return {
    device: record,
    ts,
    properties: props.map((p) => {
      const value = values[p.identifier] ?? null;
      const e = p.enumValues && typeof value === 'number' ? p.enumValues.find((x) => x.value === value) : undefined;
      return {
        identifier: p.identifier,
        name: p.name,
        unit: p.unit,
        dataType: p.dataType,
        value,
        ...(e ? { valueLabel: e.label, ...(e.colour ? { colour: e.colour } : {}) } : {}),
        cumulative: p.cumulative,
        writable: p.writable,
      };
    }),
  };
}

/** Active faults (their latest transition is active) and the recent transitions of a device. */
export async function deviceFaultWarning(ctx: AppContext, user: AuthUser, deviceId: number): Promise<DeviceFaultWarning> {
  const d = await deviceOne(ctx, user, deviceId);
  const names = new Map(
    (await ctx.db.select({ code: productEvent.identifier, name: productEvent.name, level: productEvent.level }).from(productEvent).where(eq(productEvent.productId, d.productId)))
      .map((e) => [e.code, e]),
  );
  const latestPerCode = await ctx.db
    .selectDistinctOn([deviceEvent.code], { code: deviceEvent.code, active: deviceEvent.active, message: deviceEvent.message, ts: deviceEvent.ts })
    .from(deviceEvent)
    .where(eq(deviceEvent.deviceId, deviceId))
    .orderBy(deviceEvent.code, desc(deviceEvent.ts), desc(deviceEvent.id));
  const recent = await ctx.db
    .select({ code: deviceEvent.code, active: deviceEvent.active, message: deviceEvent.message, ts: deviceEvent.ts })
    .from(deviceEvent)
    .where(eq(deviceEvent.deviceId, deviceId))
    .orderBy(desc(deviceEvent.ts), desc(deviceEvent.id))
    .limit(20);
  const active: DeviceFault[] = latestPerCode
    .filter((e) => e.active)
    .map((e) => ({ code: e.code, name: names.get(e.code)?.name ?? e.code, level: names.get(e.code)?.level ?? null, message: e.message, since: e.ts.toISOString() }));
  return {
    active,
    recent: recent.map((e) => ({ code: e.code, name: names.get(e.code)?.name ?? e.code, active: e.active, message: e.message, ts: e.ts.toISOString() })),
  };
}
