import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import semver from 'semver';
import {
  FIRMWARE_ERRORS, type FirmwarePreviewDevice, type FirmwareSkipReason,
} from '@ess/contract/firmware';
import { device, product } from '../../db/schema/device.ts';
import { firmwarePackage, firmwareRollout, firmwareTask } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { onlineDevices } from './gate.ts';

/**
 * Which devices a rollout takes (the preview, add and edit share it): the package's device type
 * (and product), narrowed by stations, products, current versions and explicit devices, within the
 * caller's stations. A station or device outside them refuses the whole target naming the
 * station. Skipped, with the reason: disabled devices, those already on the version, those on a
 * newer one, those outside the package's "may upgrade from", those in another active rollout.
 */
export interface Target {
  packageId: number;
  siteIds: number[];
  productIds: number[];
  versions: string[];
  deviceIds: number[];
}
export interface Grouping {
  canarySize: number;
  groupSize: number | null;
  groupPercent: number | null;
}
export type PackageRow = typeof firmwarePackage.$inferSelect;

/** Semantic versions compared (semver.org §11, the `semver` package); null when either is not semver. */
export function compareVersions(a: string, b: string): number | null {
  const x = semver.valid(a.trim());
  const y = semver.valid(b.trim());
  return x && y ? semver.compare(x, y) : null;
}

/**
 * Whether a version satisfies a "may upgrade from" range (npm's range syntax, the `semver`
 * package; a device on a pre-release counts too: firmware release candidates run in the field);
 * a version or a range that does not parse: no.
 */
export function satisfiesRange(version: string, range: string | null): boolean {
  if (!range) return true;
  const v = semver.valid(version.trim());
  const r = semver.validRange(range);
  return v !== null && r !== null && semver.satisfies(v, r, { includePrerelease: true });
}

/** Refuses a target naming a station (or a device's station) outside the caller's stations; changes nothing. */
export async function assertTargetScope(db: DbOrTx, user: AuthUser, t: Target): Promise<void> {
  const named = new Set(t.siteIds);
  if (t.deviceIds.length) {
    const rows = await db.select({ siteId: device.siteId }).from(device).where(inArray(device.id, t.deviceIds));
    if (rows.length !== new Set(t.deviceIds).size) throw new AppError('NOT_FOUND', '目标设备不存在');
    for (const r of rows) named.add(r.siteId);
  }
  if (named.size === 0) return;
  const ids = [...named];
  const visible = await db.select({ id: site.id }).from(site).where(and(inArray(site.id, ids), inSiteScope(site.id, db, user)));
  const seen = new Set(visible.map((v) => v.id));
  const foreign = ids.filter((id) => !seen.has(id));
  if (foreign.length === 0) return;
  const names = await db.select({ name: site.name }).from(site).where(inArray(site.id, foreign));
  throw new AppError('OUT_OF_SCOPE', `${FIRMWARE_ERRORS.foreignSite}：${names.map((n) => n.name).join('、') || foreign.join('、')}`);
}

/** The devices the target matches, each targeted or skipped with the reason, in group order (station, code). */
export async function resolveTarget(ctx: AppContext, db: DbOrTx, user: AuthUser, pkg: PackageRow, t: Target, exceptRolloutId: number | null): Promise<FirmwarePreviewDevice[]> {
  const where = [eq(device.type, pkg.deviceType), inSiteScope(device.siteId, db, user)];
  if (pkg.productId) where.push(eq(device.productId, pkg.productId));
  if (t.siteIds.length) where.push(inArray(device.siteId, t.siteIds));
  if (t.productIds.length) where.push(inArray(device.productId, t.productIds));
  if (t.deviceIds.length) where.push(inArray(device.id, t.deviceIds));
  if (t.versions.length) {
    const named = t.versions.filter((v) => v !== '');
    const none = t.versions.includes('');
    where.push(sql`(${named.length ? sql`${device.firmwareVersion} in (${sql.join(named.map((v) => sql`${v}`), sql`, `)})` : sql`false`} ${none ? sql`or ${device.firmwareVersion} is null or ${device.firmwareVersion} = ''` : sql``})`);
  }
  const rows = await db
    .select({
      deviceId: device.id, code: device.code, name: device.name, siteId: device.siteId, siteName: site.name, type: device.type, productId: device.productId,
      productName: product.name, firmwareName: device.firmwareName, firmwareVersion: device.firmwareVersion, disabled: device.disabled,
    })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(product, eq(product.id, device.productId))
    .where(and(...where))
    .orderBy(asc(site.name), asc(device.siteId), asc(device.code));
  const ids = rows.map((r) => r.deviceId);
  const busy = new Set<number>();
  if (ids.length) {
    const active = await db
      .select({ deviceId: firmwareTask.deviceId })
      .from(firmwareTask)
      .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
      .where(and(
        inArray(firmwareTask.deviceId, ids), inArray(firmwareRollout.state, ['running', 'paused', 'ready', 'pendingApproval']),
        notInArray(firmwareTask.state, ['success', 'cancelled', 'issuedFailed', 'downloadFailed', 'verifyFailed', 'flashFailed', 'upgradeFailed']),
        ...(exceptRolloutId ? [sql`${firmwareRollout.id} <> ${exceptRolloutId}`] : []),
      ));
    for (const a of active) busy.add(a.deviceId);
  }
  // In the caller's transaction: the embedded database has one connection, and a query beside an open transaction waits for it.
  const online = await onlineDevices(ctx, ids, db);
  return rows.map((r) => {
    let skip: FirmwareSkipReason | null = null;
    const cmp = r.firmwareVersion ? compareVersions(r.firmwareVersion, pkg.version) : null;
    if (r.disabled) skip = 'disabled';
    else if (busy.has(r.deviceId)) skip = 'busy';
    else if (r.firmwareVersion === pkg.version && (!r.firmwareName || r.firmwareName === pkg.name)) skip = 'alreadyCurrent';
    else if (cmp !== null && cmp > 0) skip = 'newerVersion';
    else if (pkg.upgradeFrom && !(r.firmwareVersion && satisfiesRange(r.firmwareVersion, pkg.upgradeFrom))) skip = 'versionNotAllowed';
    const { disabled: _d, ...rest } = r;
    return { ...rest, online: online.has(r.deviceId), skip, group: null };
  });
}

/** Splits the targeted devices into groups (1 = the canary); sets each device's group and returns the sizes. */
export function splitGroups(devices: FirmwarePreviewDevice[], g: Grouping): number[] {
  const targeted = devices.filter((d) => d.skip === null);
  const sizes: number[] = [];
  let i = 0;
  if (g.canarySize > 0 && targeted.length > 0) {
    sizes.push(Math.min(g.canarySize, targeted.length));
    i = sizes[0]!;
  }
  const rest = targeted.length - i;
  const size = g.groupSize ?? Math.max(1, Math.ceil((rest * (g.groupPercent ?? 100)) / 100));
  for (let left = rest; left > 0; left -= size) sizes.push(Math.min(size, left));
  let k = 0;
  sizes.forEach((n, gi) => {
    for (let j = 0; j < n; j++) targeted[k++]!.group = gi + 1;
  });
  return sizes;
}
