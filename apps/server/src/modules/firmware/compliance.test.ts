import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmwareComplianceResult, FirmwareUploadStatus } from '@ess/contract/firmware';
import { device } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies } from '../../../test/factory.ts';

/**
 * The compliance view (decision 0047): devices by version per device type, product and firmware
 * name, the latest released package (semver order, withdrawn ones aside), those behind it, and
 * drift after a replacement; limited to the caller's stations.
 */
describe.each(dbTargets(import.meta.url))('firmware compliance on %s', (target) => {
  let t: TestApp;
  let east: string;
  let eastId: number;
  let siteId: number;
  let otherSiteId: number;
  const name = `cmp-${randomBytes(3).toString('hex')}`;

  async function release(version: string) {
    const data = randomBytes(512);
    const s = await okData(t.api.post<FirmwareUploadStatus>('/firmware/package/upload/start', east, { companyId: eastId, deviceType: 'bms', name, version, fileName: 'f.bin', size: data.length }));
    const f = new FormData();
    f.append('file', new Blob([data]), 'f.bin');
    await okData(t.api.call('POST', '/firmware/package/upload/chunk', { token: east, query: { uploadId: s.uploadId, offset: 0 }, rawBody: f }));
    return (await okData(t.api.post<{ id: number }>('/firmware/package/upload/finish', east, { uploadId: s.uploadId }))).id;
  }
  async function bms(site: number, version: string | null, fwName: string | null = name) {
    const d = await newDevice(t, site, { type: 'bms' });
    await t.ctx.db.update(device).set({ firmwareName: fwName, firmwareVersion: version }).where(eq(device.id, d.id));
    return d;
  }

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east: e } = await seededCompanies(t);
    eastId = e.id;
    siteId = (await newSite(t, eastId)).id;
    otherSiteId = (await newSite(t, eastId)).id;
    east = (await newUser(t, eastId, { menus: ['/firmware/firmware'], siteIds: [siteId] })).token;
  });
  afterAll(async () => t?.stop());

  it('counts devices by version against the latest released package, lists those behind and the drift after a replacement', async () => {
    await release('1.1.0');
    const latest = await release('1.10.0');
    // A withdrawn 2.0.0 is not the latest; 1.10.0 > 1.9.0 > 1.1.0 in semver (not in text) order.
    const withdrawn = await release('2.0.0');
    await okData(t.api.post('/firmware/package/withdraw', east, { id: withdrawn }));
    await bms(siteId, '1.10.0');
    const old = await bms(siteId, '1.1.0');
    await bms(siteId, '1.9.0');
    await bms(siteId, null);
    const replaced = await bms(siteId, '1.1.0');
    // The device was replaced: the old one ran 1.10.0, the new one came with 1.1.0.
    await t.ctx.db.insert(deviceChange).values({
      deviceId: replaced.id, siteId, productId: replaced.productId, oldCode: 'OLD-BMS-1', newCode: replaced.code, oldName: 'old', newName: 'new',
      oldFirmwareVersion: '1.10.0', newFirmwareVersion: '1.1.0', userId: 1, username: 'admin',
    });
    // Outside the caller's stations: not counted.
    await bms(otherSiteId, '1.1.0');

    const r = await okData(t.api.post<FirmwareComplianceResult>('/firmware/compliance/query', east, { deviceType: 'bms' }));
    const row = r.rows.find((x) => x.firmwareName === name)!;
    expect(row).toMatchObject({ deviceType: 'bms', latestVersion: '1.10.0', latestPackageId: latest, total: 5, current: 1, behind: 3, unknown: 1 });
    expect(row.versions).toEqual([
      { version: '1.10.0', count: 1, latest: true },
      { version: '1.9.0', count: 1, latest: false },
      { version: '1.1.0', count: 2, latest: false },
      { version: null, count: 1, latest: false },
    ]);
    expect(row.lagging.map((d) => d.firmwareVersion).sort()).toEqual(['1.1.0', '1.1.0', '1.9.0']);
    expect(row.lagging.some((d) => d.deviceId === old.id)).toBe(true);
    expect(row.drift).toEqual([expect.objectContaining({ deviceId: replaced.id, previousVersion: '1.10.0', firmwareVersion: '1.1.0', oldCode: 'OLD-BMS-1' })]);
    expect(r.totals.drift).toBeGreaterThanOrEqual(1);

    const limited = await okData(t.api.post<FirmwareComplianceResult>('/firmware/compliance/query', east, { deviceType: 'bms', siteIds: [siteId], lagLimit: 1 }));
    expect(limited.rows.find((x) => x.firmwareName === name)).toMatchObject({ behind: 3, lagging: [expect.anything()] });
    const denied = await t.api.post('/firmware/compliance/query', east, { siteIds: [otherSiteId] });
    expect(denied.status).toBe(403);
  });
});
