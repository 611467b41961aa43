import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import type { FirmwareKeyRecord, FirmwarePackageRecord } from '@ess/contract/firmware';
import { firmwarePackage } from '../../db/schema/firmware.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { okData } from '../../../test/factory.ts';
import { DEMO_FIRMWARE_KEY_NAME, DEMO_PACKAGES, seedFirmwareDemo } from './firmware.demo.ts';
import { candidateKeys } from './key.service.ts';
import { verifyFileSignature } from './signature.ts';

/** The demo's packages (seeded once): the simulator's firmware and a newer version of each, signed with the demo key, verifying. */
describe.each(dbTargets(import.meta.url))('firmware demo on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
    const seed = { config: { ...t.ctx.config, seedDemo: true }, database: t.ctx.database, db: t.ctx.db, log: t.ctx.log };
    await seedFirmwareDemo(seed);
    await seedFirmwareDemo(seed);
  });
  afterAll(async () => t?.stop());

  it('seeds the packages once, signed by the demo key, each verifying against it and downloadable', async () => {
    const page = await okData(t.api.post<Page<FirmwarePackageRecord>>('/firmware/package/query/page', t.adminToken, { pageSize: 50 }));
    expect(page.total).toBe(DEMO_PACKAGES.length);
    expect(page.records.filter((p) => p.state === 'withdrawn').map((p) => p.version)).toEqual(['5.1.0-rc.1']);
    const keys = await okData(t.api.post<Page<FirmwareKeyRecord>>('/firmware/key/query/page', t.adminToken, {}));
    expect(keys.records.map((k) => [k.name, k.algorithm, k.packageCount])).toEqual([[DEMO_FIRMWARE_KEY_NAME, 'ed25519', DEMO_PACKAGES.length]]);
    const rows = await t.ctx.db.select().from(firmwarePackage);
    for (const r of rows) {
      const key = await verifyFileSignature(join(t.ctx.config.dataDir, 'firmware', r.storageKey), Buffer.from(r.signature!, 'base64'), await candidateKeys(t.ctx.db, r.companyId));
      expect(key?.id, r.name).toBe(r.keyId);
    }
    const bms = page.records.find((p) => p.name === 'bms-master' && p.version === '2.0.0')!;
    expect(bms).toMatchObject({ deviceType: 'bms', signed: true, keyName: DEMO_FIRMWARE_KEY_NAME, upgradeFrom: '>=1.8.0 <2.0.0' });
    const file = await t.api.get('/firmware/package/download', t.adminToken, { id: bms.id });
    expect([file.status, file.raw.length]).toEqual([200, bms.size]);
  });
});
