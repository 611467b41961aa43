import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceTemplateDetail } from '@ess/contract';
import { sitePriceCycle } from '../../db/schema/pricing.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

/** A price template is shared by its company's stations; a user granted some of them sees only those through it. */
describe('price template: the stations using it, within the caller\'s stations', () => {
  let t: TestApp;
  let templateId: number;
  let granted: { id: number; name: string };
  let other: { id: number; name: string };
  let user: string;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    const { east } = await seededCompanies(t);
    granted = await newSite(t, east.id);
    other = await newSite(t, east.id);
    const add = await t.api.post<{ id: number }>('/operation/price/template/add', t.adminToken, {
      name: '共用模板', type: 'largeIndustrial', billingSystem: 'twoPart', voltageLevel: '10kV', companyId: east.id, currency: 'CNY', regionCode: '310000',
    });
    templateId = add.body.data.id;
    await t.ctx.db.insert(sitePriceCycle).values([
      { siteId: granted.id, templateId, startDate: '2026-01-01' },
      { siteId: other.id, templateId, startDate: '2026-01-01' },
    ]);
    user = (await newUser(t, east.id, { menus: 'all', siteIds: [granted.id] })).token;
  });
  afterAll(async () => t?.stop());

  it('lists in `uses` only the stations the caller may see', async () => {
    const mine = await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', user, { id: templateId });
    expect(mine.body.errorCode).toBe('00000');
    expect(mine.body.data.uses.map((u) => u.siteId)).toEqual([granted.id]);
    const all = await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', t.adminToken, { id: templateId });
    expect(all.body.data.uses.map((u) => u.siteId).sort()).toEqual([granted.id, other.id].sort());
  });

  it('names in a refusal only the stations the caller may see, and counts the others', async () => {
    const r = await t.api.get('/operation/price/template/delete', user, { id: templateId });
    expect(r.status).toBe(406);
    expect(r.body.errorMsg).toBe(`${granted.name}, 另有 1 个无权查看的站点`);
    expect(JSON.stringify(r.body)).not.toContain(other.name);
  });
});
