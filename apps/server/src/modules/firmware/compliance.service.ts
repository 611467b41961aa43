import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import semver from 'semver';
import type { z } from 'zod';
import type { DeviceType } from '@ess/contract';
import type { firmwareComplianceQuery, FirmwareComplianceResult, FirmwareComplianceRow } from '@ess/contract/firmware';
import { device, product } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { firmwarePackage } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { assertCompany, assertSites, inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';

/**
 * The compliance view (decision 0047): the caller's devices grouped by device type, product and
 * firmware name (device.firmware_name / firmware_version, which devices keep current), with the
 * count per version, the latest released package of the caller's companies for that group (semver
 * order), the devices behind it, and drift after a replacement: devices whose version now differs
 * from what the device they replaced ran (the last replacement's recorded old version).
 */
type Query = z.output<typeof firmwareComplianceQuery>;
type Row = FirmwareComplianceRow;

export async function complianceQuery(ctx: AppContext, user: AuthUser, q: Query): Promise<FirmwareComplianceResult> {
  const { db } = ctx;
  if (q.companyId) await assertCompany(db, user, q.companyId);
  await assertSites(db, user, q.siteIds);
  const where: (SQL | undefined)[] = [
    inSiteScope(device.siteId, db, user),
    q.deviceType ? eq(device.type, q.deviceType) : undefined,
    q.productId ? eq(device.productId, q.productId) : undefined,
    q.siteIds.length ? inArray(device.siteId, q.siteIds) : undefined,
    q.companyId ? eq(site.companyId, q.companyId) : undefined,
  ];
  const devices = await db
    .select({
      deviceId: device.id, code: device.code, name: device.name, siteId: device.siteId, siteName: site.name, type: device.type,
      productId: device.productId, productName: product.name, firmwareName: device.firmwareName, firmwareVersion: device.firmwareVersion,
    })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(product, eq(product.id, device.productId))
    .where(and(...where))
    .orderBy(device.type, device.productId, device.code);

  const released = await db
    .select({ id: firmwarePackage.id, deviceType: firmwarePackage.deviceType, productId: firmwarePackage.productId, name: firmwarePackage.name, version: firmwarePackage.version })
    .from(firmwarePackage)
    .where(and(eq(firmwarePackage.state, 'released'), inCompanyScope(firmwarePackage.companyId, db, user)));

  // The last replacement of each device, for drift.
  const ids = devices.map((d) => d.deviceId);
  const changes = ids.length
    ? await db
        .selectDistinctOn([deviceChange.deviceId], { deviceId: deviceChange.deviceId, changedAt: deviceChange.changedAt, oldVersion: deviceChange.oldFirmwareVersion, oldCode: deviceChange.oldCode })
        .from(deviceChange)
        .where(inArray(deviceChange.deviceId, ids))
        .orderBy(deviceChange.deviceId, desc(deviceChange.changedAt), desc(deviceChange.id))
    : [];
  const lastChange = new Map(changes.map((c) => [c.deviceId, c]));

  const rows = new Map<string, Row & { all: typeof devices }>();
  for (const d of devices) {
    const key = `${d.type}|${d.productId}|${d.firmwareName ?? ''}`;
    let r = rows.get(key);
    if (!r) {
      const candidates = d.firmwareName
        ? released.filter((p) => p.deviceType === d.type && (p.productId === null || p.productId === d.productId) && p.name === d.firmwareName && semver.valid(p.version))
        : [];
      const latest = candidates.sort((a, b) => semver.rcompare(a.version, b.version))[0] ?? null;
      r = {
        deviceType: d.type as DeviceType, productId: d.productId, productName: d.productName, firmwareName: d.firmwareName, total: 0, versions: [],
        latestVersion: latest?.version ?? null, latestPackageId: latest?.id ?? null, current: 0, behind: 0, unknown: 0, lagging: [], drift: [], all: [],
      };
      rows.set(key, r);
    }
    r.all.push(d);
  }

  const totals = { devices: 0, current: 0, behind: 0, unknown: 0, drift: 0 };
  const out: Row[] = [];
  for (const { all, ...r } of rows.values()) {
    const byVersion = new Map<string | null, number>();
    for (const d of all) {
      const v = d.firmwareVersion;
      byVersion.set(v, (byVersion.get(v) ?? 0) + 1);
      const ref = { deviceId: d.deviceId, code: d.code, name: d.name, siteId: d.siteId, siteName: d.siteName, firmwareVersion: v };
      if (!v || !semver.valid(v)) r.unknown++;
      else if (r.latestVersion && semver.lt(v, r.latestVersion)) {
        r.behind++;
        if (r.lagging.length < q.lagLimit) r.lagging.push(ref);
      } else r.current++;
      const c = lastChange.get(d.deviceId);
      if (c && (c.oldVersion ?? null) !== (v ?? null)) r.drift.push({ ...ref, replacedAt: c.changedAt.toISOString(), previousVersion: c.oldVersion, oldCode: c.oldCode });
    }
    r.total = all.length;
    r.versions = [...byVersion.entries()]
      .map(([version, count]) => ({ version, count, latest: version !== null && version === r.latestVersion }))
      .sort((a, b) => versionOrder(b.version, a.version));
    totals.devices += r.total;
    totals.current += r.current;
    totals.behind += r.behind;
    totals.unknown += r.unknown;
    totals.drift += r.drift.length;
    out.push(r);
  }
  return { rows: out, totals };
}

/** Semver order, versions that are not semver (and none) after every one that is. */
function versionOrder(a: string | null, b: string | null): number {
  const va = a && semver.valid(a) ? a : null;
  const vb = b && semver.valid(b) ? b : null;
  if (va && vb) return semver.compare(va, vb);
  if (va) return 1;
  if (vb) return -1;
  return (a ?? '').localeCompare(b ?? '');
}
