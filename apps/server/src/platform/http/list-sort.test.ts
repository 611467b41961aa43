import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CompanyNode, MenuNode, Page } from '@ess/contract';
import { alarmDict } from '../../db/schema/alarm.ts';
import { cabinet, productProperty } from '../../db/schema/device.ts';
import { priceTemplate, sitePriceCycle, solarPriceCycle } from '../../db/schema/pricing.ts';
import { productTemplate } from '../../db/schema/product.ts';
import { appUser, notification, notificationLog, notificationSetting } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newCompany, newDevice, newRole, newSite, newUser, seededCompanies } from '../../../test/factory.ts';

/**
 * The resource lists sort server-side through the shared list query by the fields their contract
 * declares (issue 16 §3): roles, login and access logs, cabinets, price templates and products,
 * beside users, stations and devices (i18n/tables.test.ts); then the notification inbox, settings
 * and push log, the alarm dictionary and monitor, product templates, parameters, a station's
 * price and feed-in price cycles, and the company and menu trees (siblings sorted within each
 * level). Each sorts both ways by a text field and a number or time, and refuses a field it does
 * not declare with the error envelope.
 */

const tag = () => randomBytes(3).toString('hex');
type Row = Record<string, unknown>;

describe.each(dbTargets(import.meta.url))('sorting the resource lists on %s', (target) => {
  let t: TestApp;
  const page = async (path: string, body: object) => {
    const r = await t.api.call<Page<Row>>('POST', path, { token: t.adminToken, body: { current: 1, pageSize: 100, ...body } });
    expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
    return r.body.data;
  };
  /** Every row of a list of at most one page, sorted both ways: the one order is the other reversed, and not all equal. */
  const bothWays = async (path: string, filter: object, field: string) => {
    const asc = await page(path, { ...filter, sortField: field, sortOrder: 'asc' });
    const desc = await page(path, { ...filter, sortField: field, sortOrder: 'desc' });
    expect(asc.total).toBeLessThanOrEqual(100);
    const values = (p: Page<Row>) => p.records.map((r) => r[field]);
    expect(new Set(values(asc)).size, `${path} needs different ${field}s`).toBeGreaterThan(1);
    expect(values(desc)).toEqual(values(asc).reverse());
    return values(asc);
  };
  /** The first page sorted each way by a number or an ISO time: in order, and the ends differ. */
  const ordered = async (path: string, field: string) => {
    const key = (v: unknown) => (typeof v === 'number' ? v : Date.parse(String(v)));
    const asc = (await page(path, { sortField: field, sortOrder: 'asc' })).records.map((r) => key(r[field]));
    const desc = (await page(path, { sortField: field, sortOrder: 'desc' })).records.map((r) => key(r[field]));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc[0]).toBeGreaterThan(asc[0]!);
  };
  const refuses = async (path: string) => {
    const r = await t.api.call('POST', path, { token: t.adminToken, body: { current: 1, pageSize: 10, sortField: 'passwordHash' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errorCode: 'A0400' });
    expect((r.body as { tipMsg: string }).tipMsg).toContain('passwordHash');
  };

  let x: string;
  let siteId: number;
  let settingId: number;
  let parentCompany: number;
  let paramProduct: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    const { east } = await seededCompanies(t);
    x = tag();
    const s = await newSite(t, east.id, { code: `Q${x}` });
    // Roles named out of order, one with users; sign-ins for the login log; calls for the access log.
    const busy = await newRole(t, east.id, [], `r${x}-b`);
    await newRole(t, east.id, [], `r${x}-c`);
    await newRole(t, east.id, [], `r${x}-a`);
    for (const n of ['m', 'k', 'o']) await newUser(t, east.id, { username: `${n}${x}`, roleId: busy });
    await t.ctx.db.insert(cabinet).values([
      { siteId: s.id, code: `CB${x}2`, name: `Z cabinet ${x}` },
      { siteId: s.id, code: `CB${x}1`, name: `A cabinet ${x}` },
      { siteId: s.id, code: `CB${x}3`, name: `M cabinet ${x}` },
    ]);
    const templates = await t.ctx.db.insert(priceTemplate).values(['Tb', 'Ta', 'Tc'].map((n, i) => ({
      companyId: east.id, name: `${n}${x}`, type: i ? 'residential' : 'largeIndustrial', billingSystem: 'singlePart', voltageLevel: '10kV', currency: 'CNY',
    }))).returning({ id: priceTemplate.id });
    const { db } = t.ctx;
    siteId = s.id;

    // The administrator's inbox, settings pushed from the east company and one setting's push log.
    const [admin] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin'));
    const hour = 3_600_000;
    const at = (h: number) => new Date(Date.UTC(2026, 0, 10) + h * hour);
    await db.insert(notification).values([
      { userId: admin!.id, title: `N${x} b`, content: 'b', createdAt: at(2) },
      { userId: admin!.id, title: `N${x} a`, content: 'c', createdAt: at(3), read: true, readAt: at(4) },
      { userId: admin!.id, title: `N${x} c`, content: 'a', createdAt: at(1) },
    ]);
    const settings = await db.insert(notificationSetting).values(['b', 'c', 'a'].map((n, i) => ({
      companyId: east.id, title: `S${x} ${n}`, content: n, pushMode: i === 1 ? 'scheduled' : 'immediate', pushAt: i === 1 ? at(48) : null,
      targetType: 'role', targetIds: [busy], status: i === 1 ? 'pending' : 'sent', createdBy: admin!.id, createdAt: at(i),
    }))).returning({ id: notificationSetting.id });
    settingId = settings[0]!.id;
    await db.insert(notificationLog).values([3, 1, 2].map((n) => ({
      settingId, companyId: east.id, title: `L${x} ${n}`, recipientCount: n, status: n === 1 ? 'failed' : 'success', createdAt: at(n),
    })));

    // Dictionary entries of a device type, and alarms of one device that lasted 1 h, 3 h and (open) since 2 h ago.
    await db.insert(alarmDict).values([
      { deviceType: 'bms', kind: 'event', eventCode: `E${x}1`, level: 3, alarmType: 'safety', description: `D${x} b` },
      { deviceType: 'bms', kind: 'event', eventCode: `E${x}2`, level: 1, alarmType: 'deviceFault', description: `D${x} c` },
      { deviceType: 'bms', kind: 'event', eventCode: `E${x}3`, level: 2, alarmType: 'communication', description: `D${x} a` },
    ]);
    const d = await newDevice(t, s.id);
    const now = Date.now();
    await newAlarm(t, d.id, { no: `A${x}2`, level: 2, startedAt: new Date(now - 5 * hour), endedAt: new Date(now - 4 * hour) });
    await newAlarm(t, d.id, { no: `A${x}3`, level: 1, startedAt: new Date(now - 6 * hour), endedAt: new Date(now - 3 * hour) });
    await newAlarm(t, d.id, { no: `A${x}1`, level: 3, startedAt: new Date(now - 2 * hour) });

    // Product templates; the product with the most writable properties (parameters).
    await db.insert(productTemplate).values(['b', 'c', 'a'].map((n, i) => ({
      name: `P${x} ${n}`, productId: d.productId, identifiers: [], sort: [5, 1, 9][i]!,
    })));
    paramProduct = d.productId;
    await db.insert(productProperty).values(['b', 'c', 'a'].map((n, i) => ({
      productId: d.productId, identifier: `q${x}${n}`, name: `Q${x} ${n}`, dataType: 'string', unit: ['kW', 'V', 'A'][i]!, writable: true,
    })));

    // The station's price and feed-in price cycles, by year.
    await db.insert(sitePriceCycle).values([
      { siteId: s.id, templateId: templates[1]!.id, startDate: '2025-01-01', endDate: '2025-12-31', serviceFee: '0.3' },
      { siteId: s.id, templateId: templates[0]!.id, startDate: '2024-01-01', endDate: '2024-12-31', serviceFee: '0.5' },
      { siteId: s.id, templateId: templates[2]!.id, startDate: '2026-01-01', endDate: null, serviceFee: null },
    ]);
    await db.insert(solarPriceCycle).values([
      { siteId: s.id, startDate: '2025-01-01', endDate: '2025-12-31', price: '0.4' },
      { siteId: s.id, startDate: '2026-01-01', endDate: null, price: '0.35' },
      { siteId: s.id, startDate: '2024-01-01', endDate: '2024-12-31', price: '0.45' },
    ]);

    // Three companies under one, named out of order.
    const p = await newCompany(t, east.id, { name: `C${x}` });
    parentCompany = p.id;
    for (const n of ['b', 'c', 'a']) await newCompany(t, p.id, { name: `C${x} ${n}`, code: `C${x}${n}` });
  });
  afterAll(async () => t?.stop());

  it('roles by name and by user count', async () => {
    expect(await bothWays('/system/role/query/page', { name: `r${x}` }, 'name')).toEqual([`r${x}-a`, `r${x}-b`, `r${x}-c`]);
    expect(await bothWays('/system/role/query/page', { name: `r${x}` }, 'userCount')).toEqual([0, 0, 3]);
    await refuses('/system/role/query/page');
  });

  it('login and access logs by user name and by time or duration', async () => {
    expect(await bothWays('/system/loginLog/query/page', { username: x }, 'username')).toEqual([`k${x}`, `m${x}`, `o${x}`]);
    await ordered('/system/loginLog/query/page', 'createdAt');
    await ordered('/system/access/log/query/page', 'durationMs');
    await refuses('/system/loginLog/query/page');
    await refuses('/system/access/log/query/page');
  });

  it('cabinets, price templates and products by name and code', async () => {
    expect(await bothWays('/configure/cabinet/query/page', { keyword: `CB${x}` }, 'name')).toEqual([`A cabinet ${x}`, `M cabinet ${x}`, `Z cabinet ${x}`]);
    expect(await bothWays('/configure/cabinet/query/page', { keyword: `CB${x}` }, 'code')).toEqual([`CB${x}1`, `CB${x}2`, `CB${x}3`]);
    expect(await bothWays('/operation/price/template/query/page', { keyword: x }, 'name')).toEqual([`Ta${x}`, `Tb${x}`, `Tc${x}`]);
    expect(await bothWays('/operation/price/template/query/page', { keyword: x }, 'type')).toEqual(['largeIndustrial', 'residential', 'residential']);
    await bothWays('/configure/product/query/page', {}, 'code');
    await bothWays('/configure/product/query/page', {}, 'propertyCount');
    await refuses('/configure/cabinet/query/page');
    await refuses('/operation/price/template/query/page');
    await refuses('/configure/product/query/page');
  });

  it('the notification inbox, settings and push log by title and by count or time', async () => {
    expect(await bothWays('/system/notification/query/page', { title: `N${x}` }, 'title')).toEqual([`N${x} a`, `N${x} b`, `N${x} c`]);
    expect(await bothWays('/system/notification/query/page', { title: `N${x}` }, 'content')).toEqual(['a', 'b', 'c']);
    expect(await bothWays('/system/notification/query/page', { title: `N${x}` }, 'read')).toEqual([false, false, true]);
    expect(await bothWays('/system/notification/set/query/page', { title: `S${x}` }, 'title')).toEqual([`S${x} a`, `S${x} b`, `S${x} c`]);
    expect(await bothWays('/system/notification/set/query/page', { title: `S${x}` }, 'status')).toEqual(['pending', 'sent', 'sent']);
    await ordered('/system/notification/set/query/page', 'createdAt');
    expect(await bothWays('/system/notification/log/query/page', { settingId }, 'recipientCount')).toEqual([1, 2, 3]);
    expect(await bothWays('/system/notification/log/query/page', { settingId }, 'title')).toEqual([`L${x} 1`, `L${x} 2`, `L${x} 3`]);
    await refuses('/system/notification/query/page');
    await refuses('/system/notification/set/query/page');
    await refuses('/system/notification/log/query/page');
  });

  it('the alarm dictionary and the alarm monitor by text, level and duration', async () => {
    expect(await bothWays('/alarm/dict/query/page', { keyword: `D${x}` }, 'description')).toEqual([`D${x} a`, `D${x} b`, `D${x} c`]);
    expect(await bothWays('/alarm/dict/query/page', { keyword: `D${x}` }, 'level')).toEqual([1, 2, 3]);
    expect(await bothWays('/alarm/dict/query/page', { keyword: `D${x}` }, 'alarmType')).toEqual(['communication', 'deviceFault', 'safety']);
    await ordered('/alarm/dict/query/page', 'createdAt');
    expect(await bothWays('/alarm/monitor/query/page', { keyword: `A${x}` }, 'no')).toEqual([`A${x}1`, `A${x}2`, `A${x}3`]);
    expect(await bothWays('/alarm/monitor/query/page', { keyword: `A${x}` }, 'level')).toEqual([1, 2, 3]);
    // 1 h, then the open one (2 h so far), then 3 h.
    const byDuration = await page('/alarm/monitor/query/page', { keyword: `A${x}`, sortField: 'durationMs', sortOrder: 'asc' });
    expect(byDuration.records.map((r) => r.no)).toEqual([`A${x}2`, `A${x}1`, `A${x}3`]);
    const longest = await page('/alarm/monitor/query/page', { keyword: `A${x}`, sortField: 'durationMs', sortOrder: 'desc' });
    expect(longest.records.map((r) => r.no)).toEqual([`A${x}3`, `A${x}1`, `A${x}2`]);
    await ordered('/alarm/monitor/query/page', 'startedAt');
    await refuses('/alarm/dict/query/page');
    await refuses('/alarm/monitor/query/page');
  });

  it('product templates by name and order, parameters by identifier and unit', async () => {
    expect(await bothWays('/template/product/query/page', { keyword: `P${x}` }, 'name')).toEqual([`P${x} a`, `P${x} b`, `P${x} c`]);
    expect(await bothWays('/template/product/query/page', { keyword: `P${x}` }, 'sort')).toEqual([1, 5, 9]);
    const params = async (field: string, order: string) => {
      const body = { productId: paramProduct, keyword: `q${x}`, sortField: field, sortOrder: order };
      const r = await t.api.call<Row[]>('POST', '/configure/param/query/list', { token: t.adminToken, body });
      expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
      return r.body.data.map((p) => p.identifier);
    };
    expect(await params('identifier', 'asc')).toEqual([`q${x}a`, `q${x}b`, `q${x}c`]);
    expect(await params('identifier', 'desc')).toEqual([`q${x}c`, `q${x}b`, `q${x}a`]);
    // Units A, V, kW.
    expect(await params('unit', 'asc')).toEqual([`q${x}a`, `q${x}c`, `q${x}b`]);
    await refuses('/template/product/query/page');
    await refuses('/configure/param/query/list');
  });

  it("a station's price and feed-in price cycles by date, template and price", async () => {
    const cycles = async (field: string, order: string) => {
      const r = await t.api.call<Row[]>('POST', '/configure/price/cycle/query/list', { token: t.adminToken, body: { siteId, sortField: field, sortOrder: order } });
      expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
      return r.body.data.map((c) => c[field]);
    };
    expect(await cycles('startDate', 'asc')).toEqual(['2024-01-01', '2025-01-01', '2026-01-01']);
    expect(await cycles('startDate', 'desc')).toEqual(['2026-01-01', '2025-01-01', '2024-01-01']);
    expect(await cycles('templateName', 'asc')).toEqual([`Ta${x}`, `Tb${x}`, `Tc${x}`]);
    // No service fee sorts last either way.
    expect(await cycles('serviceFee', 'asc')).toEqual([0.3, 0.5, null]);
    expect(await cycles('serviceFee', 'desc')).toEqual([0.5, 0.3, null]);
    expect(await bothWays('/configure/solar/price/cycle/query/page', { siteId }, 'price')).toEqual([0.35, 0.4, 0.45]);
    expect(await bothWays('/configure/solar/price/cycle/query/page', { siteId }, 'startDate')).toEqual(['2024-01-01', '2025-01-01', '2026-01-01']);
    await refuses('/configure/price/cycle/query/list');
    await refuses('/configure/solar/price/cycle/query/page');
  });

  it('the company and menu trees sort the entries under each entry by the chosen column', async () => {
    const children = async (body: object) => {
      const r = await t.api.call<CompanyNode[]>('POST', '/system/company/query/tree', { token: t.adminToken, body });
      expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
      const find = (nodes: CompanyNode[]): CompanyNode | undefined =>
        nodes.map((n) => (n.id === parentCompany ? n : find(n.children))).find(Boolean);
      return find(r.body.data)!.children.map((c) => c.name);
    };
    // Without a sort, by id (as added).
    expect(await children({})).toEqual([`C${x} b`, `C${x} c`, `C${x} a`]);
    expect(await children({ sortField: 'name', sortOrder: 'asc' })).toEqual([`C${x} a`, `C${x} b`, `C${x} c`]);
    expect(await children({ sortField: 'name', sortOrder: 'desc' })).toEqual([`C${x} c`, `C${x} b`, `C${x} a`]);
    expect(await bothWays('/system/company/query/page', { parentId: parentCompany }, 'code')).toEqual([`C${x}a`, `C${x}b`, `C${x}c`]);

    const menus = async (body: object) => {
      const r = await t.api.call<MenuNode[]>('POST', '/system/menu/query/tree', { token: t.adminToken, body });
      expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
      return r.body.data;
    };
    /** Each level's sort values (the roots, then every entry's children), in the tree's order. */
    const levels = (nodes: MenuNode[]): number[][] => [nodes.map((n) => n.sort), ...nodes.flatMap((n) => (n.children.length ? levels(n.children) : []))];
    const up = levels(await menus({ sortField: 'sort', sortOrder: 'asc' }));
    const down = levels(await menus({ sortField: 'sort', sortOrder: 'desc' }));
    expect(up.filter((l) => new Set(l).size > 1).length).toBeGreaterThan(1);
    for (const l of up) expect(l).toEqual([...l].sort((a, b) => a - b));
    for (const l of down) expect(l).toEqual([...l].sort((a, b) => b - a));
    // The same entries under the same parents, only in the other order.
    expect(down.map((l) => [...l].sort((a, b) => a - b))).toEqual(expect.arrayContaining(up.map((l) => [...l].sort((a, b) => a - b))));
    await refuses('/system/company/query/tree');
    await refuses('/system/company/query/page');
    await refuses('/system/menu/query/tree');
  });
});
