import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OriginalRecord, RefreshResult } from '@ess/contract/i18n';
import type { Page } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, okData, seededCompanies } from '../../../test/factory.ts';
import { rulesOf, translateData } from './data-translation.ts';

/**
 * Issue 24, business data served translated (decision 0053): built-in data seeded translated in
 * every shipped language; the records of lists, pages and trees in the caller's Client-Language,
 * falling back to the source; the form of one record keeps its source; an edit shows on the next
 * call; a renamed record shows its new name until translated again.
 */
describe.each(dbTargets(import.meta.url))('business data in the caller language on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let dev: { id: number; code: string };
  const call = <T>(path: string, body: unknown, language?: string) =>
    okData(t.api.call<T>('POST', path, { token: t.adminToken, body, headers: language ? { 'client-language': language } : {} }));

  beforeAll(async () => {
    t = await startTestApp(target);
    const c = await seededCompanies(t);
    siteId = (await newSite(t, c.east.id, { name: '翻译测试站' })).id;
    dev = await newDevice(t, siteId, { name: '一号电池簇' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('built-in roles and product models show translated in en-US, the source without the header', async () => {
    const roles = await call<Page<{ id: number; name: string }>>('/system/role/query/page', { pageSize: 50 }, 'en-US');
    const zh = await call<Page<{ id: number; name: string }>>('/system/role/query/page', { pageSize: 50 });
    const admin = zh.records.find((r) => r.name === '系统管理员')!;
    const en = roles.records.find((r) => r.id === admin.id)!.name;
    expect(en).not.toBe('系统管理员');
    expect(en).toMatch(/^[ -~]+$/);
    const products = await call<Page<{ id: number; name: string }>>('/configure/product/query/page', { pageSize: 50 }, 'en-US');
    expect(products.records.length).toBeGreaterThan(0);
    for (const p of products.records) expect(p.name, `product ${p.id}`).toMatch(/^[ -~]+$/);
    const seeded = await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'en-US', keyword: '系统管理员', pageSize: 10 });
    expect(seeded.records.find((r) => r.nodeName === '角色名称')).toMatchObject({ state: 'reviewed', translation: en });
  });

  it('a device name translated shows in its page, list, tree and in the alarms and related names; its form keeps the source', async () => {
    await okData(t.api.get<RefreshResult>('/i18n/data/original/refresh', t.adminToken));
    const [o] = (await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'de-DE', keyword: '一号电池簇', pageSize: 10 })).records;
    expect(o).toMatchObject({ state: 'untranslated', recordId: dev.id });
    const [s] = (await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'de-DE', keyword: '翻译测试站', pageSize: 10 })).records;
    await okData(t.api.post('/i18n/data/translation/edit', t.adminToken, { id: o!.id, languageId: 'de-DE', translation: 'Batteriecluster 1' }));
    await okData(t.api.post('/i18n/data/translation/edit', t.adminToken, { id: s!.id, languageId: 'de-DE', translation: 'Übersetzungsstation' }));

    const page = await call<Page<{ id: number; name: string; siteName: string }>>('/configure/device/query/page', { siteId, pageSize: 50 }, 'de-DE');
    expect(page.records.find((d) => d.id === dev.id)).toMatchObject({ name: 'Batteriecluster 1', siteName: 'Übersetzungsstation' });
    const list = await call<{ id: number; name: string }[]>('/configure/device/query/list', { siteId }, 'de-DE');
    expect(list.find((d) => d.id === dev.id)!.name).toBe('Batteriecluster 1');
    // Another language, and none: the source.
    expect((await call<Page<{ id: number; name: string }>>('/configure/device/query/page', { siteId, pageSize: 50 }, 'fr-FR')).records.find((d) => d.id === dev.id)!.name).toBe('一号电池簇');
    expect((await call<Page<{ id: number; name: string }>>('/configure/device/query/page', { siteId, pageSize: 50 })).records.find((d) => d.id === dev.id)!.name).toBe('一号电池簇');
    // The edit form loads the record as stored.
    expect((await call<{ name: string; siteName: string }>('/configure/device/query/one', { id: dev.id }, 'de-DE'))).toMatchObject({ name: '一号电池簇', siteName: 'Übersetzungsstation' });
    // The translation screens show the sources.
    expect((await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'de-DE', keyword: '一号电池簇', pageSize: 10 }, 'de-DE')).records[0]!.source).toBe('一号电池簇');
  });

  it('an edited translation shows on the next call; a renamed record shows its new name', async () => {
    const [o] = (await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'de-DE', keyword: '一号电池簇', pageSize: 10 })).records;
    await okData(t.api.post('/i18n/data/translation/edit', t.adminToken, { id: o!.id, languageId: 'de-DE', translation: 'Cluster Eins' }));
    const name = async () => (await call<Page<{ id: number; name: string }>>('/configure/device/query/page', { siteId, pageSize: 50 }, 'de-DE')).records.find((d) => d.id === dev.id)!.name;
    expect(await name()).toBe('Cluster Eins');
    await t.ctx.db.update(device).set({ name: '二号电池簇' }).where(eq(device.id, dev.id));
    expect(await name()).toBe('二号电池簇');
    await okData(t.api.get<RefreshResult>('/i18n/data/original/refresh', t.adminToken));
    const outdated = (await call<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'de-DE', state: 'outdated', pageSize: 50 })).records;
    expect(outdated.find((r) => r.id === o!.id)).toMatchObject({ source: '二号电池簇', translation: 'Cluster Eins' });
    expect(await name()).toBe('二号电池簇');
    await okData(t.api.post('/i18n/data/translation/edit', t.adminToken, { id: o!.id, languageId: 'de-DE', translation: 'Cluster Zwei' }));
    expect(await name()).toBe('Cluster Zwei');
    // A disabled node: its field no longer translated.
    const nodes = await call<{ id: number; field: string; name: string }[]>('/configure/text/node/query/list', {});
    const node = nodes.find((n) => n.field === 'device.name')!;
    await okData(t.api.post('/configure/text/node/edit', t.adminToken, { id: node.id, field: node.field, name: node.name, enabled: false }));
    expect(await name()).toBe('二号电池簇');
    await okData(t.api.post('/configure/text/node/edit', t.adminToken, { id: node.id, field: node.field, name: node.name, enabled: true }));
    expect(await name()).toBe('Cluster Zwei');
  });
});

describe('translateData', () => {
  const tables = new Map([
    ['device.name', new Map([[1, { source: '设备一', translation: 'Device one' }]])],
    ['site.name', new Map([[7, { source: '站点', translation: 'Station' }]])],
    ['role.name', new Map([[3, { source: '运维人员', translation: 'Maintainer' }]])],
    ['alarmDict.description', new Map([[9, { source: '过温', translation: 'Over temperature' }]])],
  ] as const) as unknown as Parameters<typeof translateData>[1];

  it('translates by the naming rules, copying only what changed', () => {
    const shared = { id: 5, name: 'x' };
    const data = {
      records: [
        { id: 1, name: '设备一', siteId: 7, siteName: '站点', parentId: 1, parentName: '设备一', stats: shared },
        { id: 1, name: '别的名字', siteId: 7, siteName: '别的' },
      ],
      total: 2,
    };
    const out = translateData(data, tables, rulesOf('/configure/device/query/page')) as typeof data;
    expect(out.records[0]).toMatchObject({ name: 'Device one', siteName: 'Station', parentName: 'Device one' });
    expect(out.records[0]!.stats).toBe(shared);
    expect(out.records[1]).toBe(data.records[1]);
    expect(data.records[0]!.name).toBe('设备一');
    const tree = translateData([{ kind: 'site', id: 7, name: '站点', children: [{ kind: 'device', id: 1, name: '设备一' }] }], tables, rulesOf('/configure/device/query/tree'));
    expect(tree).toEqual([{ kind: 'site', id: 7, name: 'Station', children: [{ kind: 'device', id: 1, name: 'Device one' }] }]);
    const user = translateData({ id: 3, name: '运维人员', roles: [{ id: 3, name: '运维人员' }] }, tables, rulesOf('/system/user/query/one'));
    expect(user).toEqual({ id: 3, name: '运维人员', roles: [{ id: 3, name: 'Maintainer' }] });
    const alarm = translateData({ id: 1, dictId: 9, description: '过温', deviceId: 1, deviceName: '设备一' }, tables, rulesOf('/alarm/monitor/query/page'));
    expect(alarm).toEqual({ id: 1, dictId: 9, description: 'Over temperature', deviceId: 1, deviceName: 'Device one' });
    // A parent elsewhere is not a device; the form of one record keeps its own name.
    expect(translateData({ id: 2, parentId: 1, parentName: '设备一' }, tables, rulesOf('/system/company/query/list'))).toEqual({ id: 2, parentId: 1, parentName: '设备一' });
    expect(translateData({ id: 1, name: '设备一' }, tables, rulesOf('/configure/device/query/one'))).toEqual({ id: 1, name: '设备一' });
  });
});
