import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CabinetRecord, CallbackDef, CallbackExecRecord, DiagramRecord, Page, ParamRecord, SiteKeyValueRecord, SiteRecord, SiteTreeNode } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { site, userSite } from '../../db/schema/site.ts';
import { seedDemoOnce } from '../../demo/demo-seed.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const past = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const validSite = (companyId: number, code: string) => ({
  companyId,
  name: `测试站 ${code}`,
  code,
  timeZone: 'Asia/Shanghai',
  commissioningDate: past(30),
  serviceEndDate: future(3650),
  regionCode: '310115',
  address: '上海市浦东新区',
  longitude: 121.5,
  latitude: 31.2,
  contact: '张三',
  phone: '13800138000',
  email: 'ops@example.com',
  currency: 'CNY',
  siteType: 'storagePv',
  projectNo: 'P-001',
  projectName: '示范项目',
  investor: '投资方',
  powerUser: '用电方',
  reconciliationContact: '李四',
  reconciliationPhone: '021-5555 1234',
  investorShareRatio: 70,
});

const DIAGRAM = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" onload="alert(1)">
  <script>alert(2)</script>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
  <image href="https://evil.example/t.png"/>
  <a href="javascript:alert(3)"><text id="label">主变</text></a>
  <rect id="bus" width="200" height="4" style="fill:url(https://evil.example/p)"/>
  <text id="ems-power" x="10" y="50" onclick="alert(4)">-- kW</text>
</svg>`;

function upload(t: TestApp, token: string, fields: Record<string, string>, file?: { name: string; body: string; type?: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append('file', new Blob([file.body], { type: file.type ?? 'image/svg+xml' }), file.name);
  return t.api.call<DiagramRecord>('POST', '/configure/distribution/diagram/upload', { token, rawBody: f });
}

describe.each(dbTargets(import.meta.url))('station configuration on %s', (target) => {
  let t: TestApp;
  let east: { id: number };
  let south: { id: number };
  /** Built-in administrator's token: every station of the group. */
  let admin: string;
  /** A user of EAST granted SH01 only, with every menu. */
  let eastUser: { id: number; token: string };
  /** A user of EAST with only the cabinet menu. */
  let lockersOnly: string;
  let sh01: number;
  let be01: number;

  beforeAll(async () => {
    t = await startTestApp(target);
    admin = t.adminToken;
    ({ east, south } = await seededCompanies(t));
    await seedDemoOnce(t.ctx.db);
    const rows = await t.ctx.db.select({ id: site.id, code: site.code }).from(site);
    sh01 = rows.find((r) => r.code === 'SH01')!.id;
    be01 = rows.find((r) => r.code === 'BE01')!.id;
    eastUser = await newUser(t, east.id, { menus: 'all', siteIds: [sh01] });
    lockersOnly = (await newUser(t, east.id, { menus: ['/config/lockers'], siteIds: [sh01] })).token;
  });
  afterAll(async () => t?.stop());

  describe('stations', () => {
    it('refuses without a token (401) and without the menu (403)', async () => {
      const r = await t.api.post('/configure/site/query/page', null, {});
      expect(r.status).toBe(401);
      expect(r.body.errorCode).toBe('A0100');
      const f = await t.api.post('/configure/site/add', lockersOnly, validSite(east.id, 'NOMENU'));
      expect(f.status).toBe(403);
      expect(f.body.errorCode).toBe('A0300');
    });

    it('adds a station with every §3 field and reads it back by one, list, page and tree', async () => {
      const add = await t.api.post<{ id: number }>('/configure/site/add', admin, validSite(east.id, 'T-ADD1'));
      expect(add.body.errorCode).toBe('00000');
      const id = add.body.data.id;
      const one = await t.api.post<SiteRecord>('/configure/site/query/one', admin, { id });
      expect(one.body.data).toMatchObject({ code: 'T-ADD1', companyId: east.id, investorShareRatio: 70, longitude: 121.5, email: 'ops@example.com', reconciliationPhone: '021-5555 1234', deviceCount: 0, siteType: 'storagePv' });
      const page = await t.api.post<Page<SiteRecord>>('/configure/site/query/page', admin, { current: 1, pageSize: 50, keyword: 'T-ADD' });
      expect(page.body.data.records.map((r) => r.id)).toEqual([id]);
      const list = await t.api.post<SiteRecord[]>('/configure/site/query/list', admin, { companyId: east.id });
      expect(list.body.data.map((r) => r.code)).toEqual(expect.arrayContaining(['SH01', 'T-ADD1']));
      expect(list.body.data.map((r) => r.code)).not.toContain('BE01');
      const tree = await t.api.get<SiteTreeNode[]>('/configure/site/query/tree', admin);
      const codes = (nodes: SiteTreeNode[]): string[] => nodes.flatMap((n) => [...(n.kind === 'site' ? [n.code!] : []), ...codes(n.children)]);
      expect(codes(tree.body.data)).toEqual(expect.arrayContaining(['SH01', 'BE01', 'LA01', 'T-ADD1']));
    });

    it('a user sees only granted stations; the tree by userId lists that user\'s stations', async () => {
      const list = await t.api.post<SiteRecord[]>('/configure/site/query/list', eastUser.token, {});
      expect(list.body.data.map((r) => r.id)).toEqual([sh01]);
      const tree = await t.api.get<SiteTreeNode[]>('/configure/site/query/tree', admin, { userId: eastUser.id });
      expect(JSON.stringify(tree.body.data)).toContain('"code":"SH01"');
      expect(JSON.stringify(tree.body.data)).not.toContain('BE01');
    });

    it("another company's station: one and delete 404, a filter naming that company 403", async () => {
      const one = await t.api.post('/configure/site/query/one', eastUser.token, { id: be01 });
      expect(one.status).toBe(404);
      const del = await t.api.get('/configure/site/delete', eastUser.token, { id: be01 });
      expect(del.status).toBe(404);
      const list = await t.api.post('/configure/site/query/list', eastUser.token, { companyId: south.id });
      expect(list.status).toBe(403);
      const add = await t.api.post('/configure/site/add', eastUser.token, validSite(south.id, 'T-FOREIGN'));
      expect(add.status).toBe(403);
      const [row] = await t.ctx.db.select().from(site).where(eq(site.code, 'T-FOREIGN'));
      expect(row).toBeUndefined();
    });

    it.each([
      [{ name: undefined }, 'name不能为空'],
      [{ code: undefined }, 'code不能为空'],
      [{ companyId: undefined }, 'companyId不能为空'],
      [{ investorShareRatio: 120 }, 'investorShareRatio'],
      [{ investorShareRatio: -1 }, 'investorShareRatio'],
      [{ phone: '12ab' }, 'phone'],
      [{ email: 'not-mail' }, 'email'],
      [{ reconciliationPhone: 'x' }, 'reconciliationPhone'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ code: 'a/b' }, 'code'],
      [{ code: 'a+#' }, 'code'],
      [{ currency: 'yuan' }, 'currency'],
      // A well-formed code that is not one of the currencies of /globalization/currency.
      [{ currency: 'XYZ' }, 'currency: 币种不存在'],
      [{ commissioningDate: future(10), serviceEndDate: future(5) }, 'serviceEndDate: 服务到期日期不能早于投运日期'],
      [{ commissioningDate: past(100), serviceEndDate: past(2) }, 'serviceEndDate: 服务到期日期不能早于今天'],
    ])('refuses bad input %j with a 400 naming the field', async (patch, tip) => {
      const body = { ...validSite(east.id, `T-BAD${Math.abs(JSON.stringify(patch).length)}`), ...patch };
      const r = await t.api.post('/configure/site/add', admin, body);
      expect(r.status).toBe(400);
      expect(r.body.errorCode).toBe('A0400');
      expect(r.body.tipMsg).toContain(tip);
    });

    it('judges "today" in the station time zone', async () => {
      // Pacific/Kiritimati is UTC+14: its today can be the UTC tomorrow.
      const kiritimati = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
      const utc = new Date().toISOString().slice(0, 10);
      const body = { ...validSite(east.id, 'T-ZONE'), timeZone: 'Pacific/Kiritimati', commissioningDate: null, serviceEndDate: utc };
      const r = await t.api.post('/configure/site/add', admin, body);
      if (kiritimati > utc) expect(r.body.tipMsg).toContain('服务到期日期不能早于今天');
      else expect(r.body.errorCode).toBe('00000');
    });

    it('refuses a duplicate code (any case)', async () => {
      const r = await t.api.post('/configure/site/add', admin, validSite(east.id, 'sh01'));
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('站点编码已存在');
    });

    it("edits a station; refuses a new code when it has devices (they publish under it)", async () => {
      const one = await t.api.post<SiteRecord>('/configure/site/query/one', admin, { id: sh01 });
      const cur = one.body.data;
      const base = { ...validSite(cur.companyId, cur.code), id: sh01, name: cur.name, timeZone: cur.timeZone };
      const rename = await t.api.post('/configure/site/edit', admin, { ...base, code: 'SH01X' });
      expect(rename.status).toBe(406);
      expect(rename.body.tipMsg).toContain('不能修改站点编码');
      const ok = await t.api.post('/configure/site/edit', admin, { ...base, contact: '王五' });
      expect(ok.body.errorCode).toBe('00000');
      const after = await t.api.post<SiteRecord>('/configure/site/query/one', admin, { id: sh01 });
      expect(after.body.data).toMatchObject({ code: 'SH01', contact: '王五' });
      // Without devices the code may change.
      const bare = (await newSite(t, east.id)).id;
      const b = await t.api.post<SiteRecord>('/configure/site/query/one', admin, { id: bare });
      const moved = await t.api.post('/configure/site/edit', admin, { ...validSite(east.id, 'T-RECODED'), id: bare, name: b.body.data.name });
      expect(moved.body.errorCode).toBe('00000');
    });

    it('keeps an expired end date on edit, but refuses changing it to a past date', async () => {
      const id = (await newSite(t, east.id)).id;
      await t.ctx.db.update(site).set({ commissioningDate: past(400), serviceEndDate: past(10) }).where(eq(site.id, id));
      const cur = (await t.api.post<SiteRecord>('/configure/site/query/one', admin, { id })).body.data;
      const same = { ...validSite(east.id, cur.code), id, name: cur.name, commissioningDate: past(400), serviceEndDate: past(10) };
      expect((await t.api.post('/configure/site/edit', admin, same)).body.errorCode).toBe('00000');
      const changed = await t.api.post('/configure/site/edit', admin, { ...same, serviceEndDate: past(5) });
      expect(changed.status).toBe(400);
      expect(changed.body.tipMsg).toContain('serviceEndDate');
    });

    it('refuses deleting a station with devices; deletes an empty one with its cabinets, key values and grants', async () => {
      const refused = await t.api.get('/configure/site/delete', admin, { id: sh01 });
      expect(refused.status).toBe(406);
      expect(refused.body.tipMsg).toMatch(/站点下还有\d+台设备/);
      const id = (await t.api.post<{ id: number }>('/configure/site/add', admin, validSite(east.id, 'T-DEL'))).body.data.id;
      await t.api.post('/configure/cabinet/add', admin, { siteId: id, code: 'T-DEL-C1', name: '柜1' });
      await t.api.post('/configure/site/key/value/add', admin, { siteId: id, installedCapacity: 100 });
      await t.ctx.db.insert(userSite).values({ userId: eastUser.id, siteId: id });
      const del = await t.api.get('/configure/site/delete', admin, { id });
      expect(del.body.errorCode).toBe('00000');
      expect((await t.api.post('/configure/site/query/one', admin, { id })).status).toBe(404);
      expect(await t.ctx.db.select().from(userSite).where(eq(userSite.siteId, id))).toEqual([]);
    });
  });

  describe('key values', () => {
    it('reads unsaved values, adds once, edits, and validates', async () => {
      const id = (await newSite(t, east.id)).id;
      const empty = await t.api.post<SiteKeyValueRecord>('/configure/site/key/value/query/one', admin, { siteId: id });
      expect(empty.body.data).toMatchObject({ siteId: id, saved: false, installedCapacity: null });
      const body = { siteId: id, installedCapacity: 215, voltageLevel: 10, transformerProtectionPower: 800, installedPower: 100, depthOfDischarge: 90, pvModuleCount: 240, pvWorkingMode: 'surplusGrid', pilePower: 120 };
      expect((await t.api.post('/configure/site/key/value/edit', admin, body)).status).toBe(404);
      expect((await t.api.post('/configure/site/key/value/add', admin, body)).body.errorCode).toBe('00000');
      const again = await t.api.post('/configure/site/key/value/add', admin, body);
      expect(again.status).toBe(406);
      expect((await t.api.post('/configure/site/key/value/edit', admin, { ...body, installedCapacity: 430 })).body.errorCode).toBe('00000');
      const one = await t.api.post<SiteKeyValueRecord>('/configure/site/key/value/query/one', admin, { siteId: id });
      expect(one.body.data).toMatchObject({ saved: true, installedCapacity: 430, pvWorkingMode: 'surplusGrid', depthOfDischarge: 90 });
      for (const [patch, field] of [[{ depthOfDischarge: 0 }, 'depthOfDischarge'], [{ depthOfDischarge: 101 }, 'depthOfDischarge'], [{ pvModuleCount: 1.5 }, 'pvModuleCount'], [{ pvWorkingMode: 'x' }, 'pvWorkingMode'], [{ installedCapacity: -1 }, 'installedCapacity']] as const) {
        const r = await t.api.post('/configure/site/key/value/edit', admin, { ...body, ...patch });
        expect(r.status).toBe(400);
        expect(r.body.tipMsg).toContain(field);
      }
      expect((await t.api.post('/configure/site/key/value/query/one', eastUser.token, { siteId: be01 })).status).toBe(404);
      expect((await t.api.post('/configure/site/key/value/add', eastUser.token, { siteId: be01, installedCapacity: 1 })).status).toBe(404);
    });
  });

  describe('cabinets', () => {
    it('lists the seeded cabinets, adds, edits, refuses deleting one with devices and deletes an empty one', async () => {
      const list = await t.api.post<CabinetRecord[]>('/configure/cabinet/query/list', eastUser.token, { siteId: sh01 });
      expect(list.body.data.length).toBeGreaterThan(0);
      const withDevices = list.body.data.find((c) => c.deviceCount > 0)!;
      expect(withDevices).toBeDefined();
      const refused = await t.api.get('/configure/cabinet/delete', eastUser.token, { id: withDevices.id });
      expect(refused.status).toBe(406);
      const add = await t.api.post<{ id: number }>('/configure/cabinet/add', eastUser.token, { siteId: sh01, code: 'SH01-T1', name: '测试柜' });
      expect(add.body.errorCode).toBe('00000');
      const dup = await t.api.post('/configure/cabinet/add', eastUser.token, { siteId: sh01, code: 'SH01-T1', name: '重复' });
      expect(dup.status).toBe(406);
      const edit = await t.api.post('/configure/cabinet/edit', eastUser.token, { id: add.body.data.id, siteId: sh01, code: 'SH01-T1', name: '改名柜' });
      expect(edit.body.errorCode).toBe('00000');
      const page = await t.api.post<Page<CabinetRecord>>('/configure/cabinet/query/page', eastUser.token, { keyword: '改名', current: 1, pageSize: 10 });
      expect(page.body.data.records.map((r) => r.name)).toEqual(['改名柜']);
      expect((await t.api.get('/configure/cabinet/delete', eastUser.token, { id: add.body.data.id })).body.errorCode).toBe('00000');
    });

    it("refuses another company's station and cabinet, and bad input", async () => {
      const foreign = await t.api.post<CabinetRecord[]>('/configure/cabinet/query/list', admin, { siteId: be01 });
      const cab = foreign.body.data[0]!;
      expect((await t.api.post('/configure/cabinet/query/one', eastUser.token, { id: cab.id })).status).toBe(404);
      expect((await t.api.post('/configure/cabinet/query/list', eastUser.token, { siteId: be01 })).status).toBe(403);
      expect((await t.api.post('/configure/cabinet/add', eastUser.token, { siteId: be01, code: 'X1', name: 'x' })).status).toBe(404);
      const moved = await t.api.post('/configure/cabinet/edit', eastUser.token, { id: cab.id, siteId: sh01, code: cab.code, name: 'x' });
      expect(moved.status).toBe(404);
      const bad = await t.api.post('/configure/cabinet/add', eastUser.token, { siteId: sh01, name: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.tipMsg).toBe('code不能为空');
    });
  });

  describe('distribution diagram', () => {
    it('stores the SVG sanitised: no script, handler, javascript:, foreignObject or external reference', async () => {
      const r = await upload(t, eastUser.token, { siteId: String(sh01) }, { name: 'main.svg', body: DIAGRAM });
      expect(r.body.errorCode).toBe('00000');
      const svg = r.body.data.svg;
      expect(svg).not.toMatch(/<script|onload|onclick|javascript:|foreignObject|evil\.example|<image/i);
      expect(svg).toContain('-- kW');
      expect(r.body.data.elementIds).toEqual(expect.arrayContaining(['label', 'bus', 'ems-power']));
      const loaded = await t.api.get<DiagramRecord>('/configure/distribution/diagram/load', eastUser.token, { siteId: sh01 });
      expect(loaded.body.data.svg).toBe(svg);
    });

    it('binds elements to device properties; refuses unknown elements, foreign devices and unknown properties', async () => {
      const [ems] = await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.code, 'SH01-EMS'));
      const [foreign] = await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.siteId, be01)).limit(1);
      const emsId = ems?.id ?? (await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.siteId, sh01)).limit(1))[0]!.id;
      const [emsRow] = await t.ctx.db.select({ type: device.type }).from(device).where(eq(device.id, emsId));
      expect(emsRow!.type).toBe('ems');
      const good = [{ elementId: 'ems-power', deviceId: emsId, identifier: 'activePower' }];
      const ok = await upload(t, eastUser.token, { siteId: String(sh01), bindings: JSON.stringify(good) });
      expect(ok.body.errorCode).toBe('00000');
      expect(ok.body.data.bindings).toEqual(good);
      for (const [bindings, tip] of [
        [[{ elementId: 'nope', deviceId: emsId, identifier: 'activePower' }], 'bindings.0.elementId'],
        [[{ elementId: 'bus', deviceId: foreign!.id, identifier: 'activePower' }], 'bindings.0.deviceId'],
        [[{ elementId: 'bus', deviceId: emsId, identifier: 'noSuchThing' }], 'bindings.0.identifier'],
        [[{ elementId: 'bus', deviceId: emsId, identifier: 'activePower' }, { elementId: 'bus', deviceId: emsId, identifier: 'gridPower' }], 'bindings'],
      ] as const) {
        const r = await upload(t, eastUser.token, { siteId: String(sh01), bindings: JSON.stringify(bindings) });
        expect(r.status).toBe(400);
        expect(r.body.tipMsg).toContain(tip);
      }
      const notJson = await upload(t, eastUser.token, { siteId: String(sh01), bindings: '[{' });
      expect(notJson.status).toBe(400);
      // Bindings survive a new file that keeps their element.
      const again = await upload(t, eastUser.token, { siteId: String(sh01) }, { name: 'v2.svg', body: DIAGRAM.replace('主变', '1号主变') });
      expect(again.body.data.bindings).toEqual(good);
      expect(again.body.data.fileName).toBe('v2.svg');
    });

    it('refuses a non-SVG file, a missing file for a station without a diagram, and another company\'s station', async () => {
      const png = await upload(t, eastUser.token, { siteId: String(sh01) }, { name: 'x.png', body: '\x89PNG\r\n', type: 'image/png' });
      expect(png.status).toBe(406);
      expect(png.body.errorCode).toBe('A0420');
      const disguised = await upload(t, eastUser.token, { siteId: String(sh01) }, { name: 'x.svg', body: '<html><script>alert(1)</script></html>' });
      expect(disguised.body.errorCode).toBe('A0420');
      const bare = (await newSite(t, east.id)).id;
      await t.ctx.db.insert(userSite).values({ userId: eastUser.id, siteId: bare });
      const noFile = await upload(t, eastUser.token, { siteId: String(bare) });
      expect(noFile.status).toBe(400);
      expect(noFile.body.tipMsg).toBe('file不能为空');
      const noSite = await upload(t, eastUser.token, {}, { name: 'a.svg', body: DIAGRAM });
      expect(noSite.body.tipMsg).toBe('siteId不能为空');
      const foreign = await upload(t, eastUser.token, { siteId: String(be01) }, { name: 'a.svg', body: DIAGRAM });
      expect(foreign.status).toBe(404);
      expect((await t.api.get('/configure/distribution/diagram/load', eastUser.token, { siteId: be01 })).status).toBe(404);
      const json = await t.api.post('/configure/distribution/diagram/upload', eastUser.token, { siteId: sh01 });
      expect(json.status).toBe(415);
    });

    it('deletes a diagram; another company\'s is not found', async () => {
      const up = await upload(t, admin, { siteId: String(be01) }, { name: 'be.svg', body: DIAGRAM });
      expect((await t.api.get('/configure/distribution/diagram/delete', eastUser.token, { id: up.body.data.id })).status).toBe(404);
      expect((await t.api.get('/configure/distribution/diagram/delete', admin, { id: up.body.data.id })).body.errorCode).toBe('00000');
      const gone = await t.api.get<DiagramRecord | null>('/configure/distribution/diagram/load', admin, { siteId: be01 });
      expect(gone.body.data).toBeNull();
    });
  });

  describe('params and callbacks', () => {
    it('lists writable properties as parameters; with a device, its product only', async () => {
      const all = await t.api.post<ParamRecord[]>('/configure/param/query/list', eastUser.token, {});
      expect(all.body.data.length).toBeGreaterThan(0);
      expect(all.body.data.map((p) => p.identifier)).toContain('socUpperLimit');
      expect(all.body.data.map((p) => p.identifier)).not.toContain('activePower');
      const [ems] = await t.ctx.db.select({ id: device.id, productId: device.productId }).from(device).where(eq(device.siteId, sh01)).limit(1);
      const mine = await t.api.post<ParamRecord[]>('/configure/param/query/list', eastUser.token, { deviceId: ems!.id });
      expect(new Set(mine.body.data.map((p) => p.productId))).toEqual(new Set([ems!.productId]));
      expect(mine.body.data.every((p) => 'value' in p)).toBe(true);
      const [foreign] = await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.siteId, be01)).limit(1);
      expect((await t.api.post('/configure/param/query/list', eastUser.token, { deviceId: foreign!.id })).status).toBe(404);
    });

    it('runs a callback, records it, lists it with its last run; a failing one is recorded as failed', async () => {
      const run = await t.api.post<CallbackExecRecord>('/configure/callback/exec', eastUser.token, { code: 'site.deviceStatus', siteId: sh01 });
      expect(run.body.errorCode).toBe('00000');
      expect(run.body.data.success).toBe(true);
      const [{ n }] = [{ n: (await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.siteId, sh01))).length }];
      expect(run.body.data.result).toMatchObject({ total: n, inactive: n });

      const bare = (await newSite(t, east.id)).id;
      await t.ctx.db.insert(userSite).values({ userId: eastUser.id, siteId: bare });
      const failed = await t.api.post<CallbackExecRecord>('/configure/callback/exec', eastUser.token, { code: 'site.energyCheck', siteId: bare });
      expect(failed.body.data).toMatchObject({ success: false, error: '请先在站点设置中填写装机容量和放电深度' });

      // The demo seed writes the demo stations' key values: change them.
      const kv = await t.api.post('/configure/site/key/value/edit', eastUser.token, { siteId: sh01, installedCapacity: 200, depthOfDischarge: 90, installedPower: 100 });
      expect(kv.body.errorCode).toBe('00000');
      const energy = await t.api.post<CallbackExecRecord>('/configure/callback/exec', eastUser.token, { code: 'site.energyCheck', siteId: sh01 });
      expect(energy.body.data.success).toBe(true);
      expect(energy.body.data.result).toMatchObject({ cycleCount: 0, installedPower: 100 });

      const check = await t.api.post<CallbackExecRecord>('/configure/callback/exec', eastUser.token, { code: 'site.diagramCheck', siteId: sh01 });
      expect(check.body.data).toMatchObject({ success: true, result: { kept: 1, removed: [] } });

      const page = await t.api.post<Page<CallbackExecRecord>>('/configure/callback/query/page', eastUser.token, { current: 1, pageSize: 10 });
      expect(page.body.data.total).toBe(4);
      expect(page.body.data.records[0]!.code).toBe('site.diagramCheck');
      const failures = await t.api.post<Page<CallbackExecRecord>>('/configure/callback/query/page', eastUser.token, { success: false });
      expect(failures.body.data.records.map((r) => r.siteId)).toEqual([bare]);
      const list = await t.api.post<CallbackDef[]>('/configure/callback/query/list', eastUser.token, {});
      expect(list.body.data.find((d) => d.code === 'site.energyCheck')).toMatchObject({ runs: 2, lastRun: { success: true } });

      // Another company's user sees none of these records.
      const southUser = await newUser(t, south.id, { menus: 'all', siteIds: [be01] });
      const theirs = await t.api.post<Page<CallbackExecRecord>>('/configure/callback/query/page', southUser.token, {});
      expect(theirs.body.data.total).toBe(0);
      expect((await t.api.post('/configure/callback/exec', southUser.token, { code: 'site.deviceStatus', siteId: sh01 })).status).toBe(404);
      const unknown = await t.api.post('/configure/callback/exec', eastUser.token, { code: 'rm -rf', siteId: sh01 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.tipMsg).toContain('code');
    });
  });
});
