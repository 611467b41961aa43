import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementDetail } from '@ess/contract/statement';
import { siteStatementSetting } from '../../db/schema/statement.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies } from '../../../test/factory.ts';

/** With the metering module's real period energy (no stand-in): a storage meter that never reported settles to 0, its lines flagged missing or absent. */
describe('statements on the real readings', () => {
  let t: TestApp;
  let siteId: number;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLES: 'api' });
    const { east } = await seededCompanies(t);
    siteId = (await newSite(t, east.id)).id;
    await newDevice(t, siteId, { type: 'meter', meterPurpose: 'storage' });
    const a = await newUser(t, east.id, { siteIds: [siteId], signIn: false });
    const b = await newUser(t, east.id, { siteIds: [siteId], signIn: false });
    await t.ctx.db.insert(siteStatementSetting).values({ siteId, investorName: 'I', investorUserId: a.id, powerUserName: 'P', powerUserUserId: b.id, investorShareRatio: '60', billingDay: 1 });
  });
  afterAll(async () => t?.stop());

  it('makes the draft from the readings module', async () => {
    const { id } = await okData(t.api.post<{ id: number }>('/operation/statement/add', t.adminToken, { siteId, month: '2026-09' }));
    const d = await okData(t.api.post<StatementDetail>('/operation/statement/query/one', t.adminToken, { id }));
    expect(d).toMatchObject({ state: 'draft', totalRevenue: '0.00', investorAmount: '0.00', powerUserAmount: '0.00', chargeEnergy: '0.000' });
    expect((await t.api.get('/operation/statement/update', t.adminToken, { id })).body.data).toEqual({ id, totalBefore: '0.00', totalAfter: '0.00', difference: '0.00' });
  });
});
