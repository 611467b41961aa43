import ExcelJS from 'exceljs';
import { eq, inArray } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_SHEET_COLUMNS, deviceTopic,
  type DeviceChangeProduct, type DeviceChangeRecord, type DeviceHistory, type DeviceImportRecord, type DeviceLatestRecord, type DeviceRecord,
  type EmsCheckResult, type ImportRefusal, type ImportResult, type Page,
} from '@ess/contract';
import { demoFleet, manualClock, runSimulator, type SimulatorHandle } from '@ess/simulator';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, eventually, newUser, type FactoryUser } from '../../../test/factory.ts';
import { device, product } from '../../db/schema/device.ts';
import { deviceStaticValue, productStaticProperty } from '../../db/schema/product.ts';
import { site } from '../../db/schema/site.ts';
import { ingestOf } from '../telemetry/index.ts';

type SheetKey = (typeof DEVICE_SHEET_COLUMNS)[number]['key'];

async function xlsx(headers: string[], rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('设备');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readSheet(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (c, col) => (cells[col - 1] = c.text));
    out.push(cells);
  });
  const width = out[0]?.length ?? 0;
  return out.map((r) => Array.from({ length: Math.max(width, r.length) }, (_, i) => r[i] ?? ''));
}

/** Device sheet rows by header, in DEVICE_SHEET_COLUMNS order. */
const sheetRow = (v: Partial<Record<SheetKey, string | number>>) => DEVICE_SHEET_COLUMNS.map((c) => v[c.key] ?? null);
const ALL_HEADERS = DEVICE_SHEET_COLUMNS.map((c) => c.header);

describe.each(dbTargets(import.meta.url))('device registry operations on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle | undefined;
  let raw: MqttClient;
  let eastUser: FactoryUser;
  let replaceUser: FactoryUser;
  const codes = new Map<string, number>();
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const upload = <T>(path: string, file: Buffer, name = 'devices.xlsx', token = t.adminToken) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), name);
    return t.api.call<T>('POST', path, { token, rawBody: form });
  };
  const deviceCount = async () => (await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from device')).rows[0]!.n;
  const productCode = async (type: string) => (await t.ctx.db.select({ code: product.code }).from(product).where(eq(product.type, type)).limit(1))[0]!.code;
  const siteId = async (code: string) => (await t.ctx.db.select({ id: site.id }).from(site).where(eq(site.code, code)))[0]!.id;
  const publish = (siteCode: string, code: string, ts: number, seq: number, values: Record<string, number>) =>
    raw.publishAsync(deviceTopic(siteCode, code, 'telemetry'), JSON.stringify({ ts, seq, values }), { qos: 1 });

  beforeAll(async () => {
    t = await startTestApp(target, { SEED_DEMO: 'true', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', DEVICE_OFFLINE_TIMEOUT_MS: '60000' });
    for (const d of (await post<DeviceRecord[]>('/configure/device/query/list', {})).body.data) codes.set(d.code, d.id);
    const { east } = await seededCompanies(t);
    eastUser = await newUser(t, east.id, { menus: ['/product/equipment'], siteIds: [await siteId('SH01')] });
    replaceUser = await newUser(t, east.id, { menus: ['/product/replace'], siteIds: [await siteId('SH01')] });
    raw = await connectAsync(t.ctx.mqtt.url, { clientId: `test-registry-${target}` });
  });
  afterAll(async () => {
    await sim?.stop();
    await raw?.endAsync();
    await t?.stop();
  });

  it('exports the device sheet and imports it back unchanged (round trip)', async () => {
    const sh01 = await siteId('SH01');
    const res = await t.api.call('POST', '/configure/device/export', { token: t.adminToken, body: { siteId: sh01 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''/);
    const rows = await readSheet(res.raw);
    expect(rows[0]).toEqual(ALL_HEADERS);
    const before = (await post<DeviceRecord[]>('/configure/device/query/list', { siteId: sh01 })).body.data;
    expect(rows.length - 1).toBe(before.length);
    const pcs = rows.find((r) => r[1] === 'SH01-PCS-01')!;
    expect(pcs.slice(0, 6)).toEqual(['SH01', 'SH01-PCS-01', before.find((d) => d.code === 'SH01-PCS-01')!.name, await productCode('pcs'), expect.any(String), 'SH01-EMS-01']);

    const n = await deviceCount();
    const back = await upload<ImportResult>('/configure/device/import', res.raw, 'export.xlsx');
    expect(back.body.errorCode).toBe('00000');
    expect(back.body.data).toMatchObject({ totalRows: before.length, created: 0, updated: before.length });
    expect(await deviceCount()).toBe(n);
    const after = (await post<DeviceRecord[]>('/configure/device/query/list', { siteId: sh01 })).body.data;
    const strip = (d: DeviceRecord) => ({ ...d, lastSeenAt: null, status: null });
    expect(after.map(strip)).toEqual(before.map(strip));
  });

  it('imports a new station\'s devices with parents given later in the file; the ingest stores their telemetry at once', async () => {
    const { east } = await seededCompanies(t);
    await t.ctx.db.insert(site).values({ companyId: east.id, name: '新站', code: `NW${target.slice(0, 2).toUpperCase()}` });
    const sc = `NW${target.slice(0, 2).toUpperCase()}`;
    const file = await xlsx(ALL_HEADERS, [
      sheetRow({ siteCode: sc, code: `${sc}-BMS-01`, name: 'BMS', productCode: await productCode('bms'), parentCode: `${sc}-PCS-01` }),
      sheetRow({ siteCode: sc, code: `${sc}-PCS-01`, name: 'PCS', productCode: await productCode('pcs'), parentCode: `${sc}-EMS-01`, ratedPower: 100, barcode: 'SN-1' }),
      sheetRow({ siteCode: sc, code: `${sc}-EMS-01`, name: 'EMS', productCode: await productCode('ems'), disabled: '否' }),
    ]);
    const r = await upload<ImportResult>('/configure/device/import', file, 'new-site.xlsx');
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toMatchObject({ totalRows: 3, created: 3, updated: 0 });
    const list = (await post<DeviceRecord[]>('/configure/device/query/list', { siteId: await siteId(sc) })).body.data;
    expect(list.map((d) => [d.code, d.parentName, d.type, d.status]).sort()).toEqual([
      [`${sc}-BMS-01`, 'PCS', 'bms', 'inactive'],
      [`${sc}-EMS-01`, null, 'ems', 'inactive'],
      [`${sc}-PCS-01`, 'EMS', 'pcs', 'inactive'],
    ]);
    expect(list.find((d) => d.code === `${sc}-PCS-01`)).toMatchObject({ ratedPower: 100, barcode: 'SN-1' });

    const ts = Date.now();
    await publish(sc, `${sc}-PCS-01`, ts, 1, { activePower: 42.5 });
    const latest = await eventually(async () => {
      await ingestOf(t.ctx)!.flush();
      const l = await post<DeviceLatestRecord>('/template/product/data/query/latest/one', { deviceCode: `${sc}-PCS-01` });
      return l.body.data.ts ? l.body.data : undefined;
    });
    expect(latest.values.activePower).toBe(42.5);
    expect(latest.status).toBe('online');
    expect(ingestOf(t.ctx)!.counters.unknownDevice).toBe(0);
  });

  it('refuses files that are not xlsx, with wrong columns or bad rows — naming row and column — and writes nothing', async () => {
    const n = await deviceCount();
    const text = await upload('/configure/device/import', Buffer.from('code,name\nA,B\n'), 'devices.csv');
    expect(text.status).toBe(406);
    expect(text.body.tipMsg).toContain('xlsx');
    const fake = await upload('/configure/device/import', Buffer.from('not a workbook'), 'devices.xlsx');
    expect(fake.status).toBe(406);
    expect(fake.body.tipMsg).toContain('xlsx');
    const none = await t.api.call('POST', '/configure/device/import', { token: t.adminToken, rawBody: new FormData() });
    expect(none.status).toBe(400);

    const columns = await upload('/configure/device/import', await xlsx(['站点编码', '设备编码', '设备名称', '颜色'], [['SH01', 'X-1', 'x', 'red']]));
    expect(columns.status).toBe(406);
    const cols = JSON.parse(columns.body.errorMsg) as ImportRefusal;
    expect(cols.errors).toEqual(expect.arrayContaining([
      { row: 1, column: '颜色', message: '不是可导入的列' },
      { row: 1, column: '产品编码', message: '缺少此列' },
    ]));

    const pcs = await productCode('pcs');
    const bad = await upload('/configure/device/import', await xlsx(ALL_HEADERS, [
      sheetRow({ siteCode: 'SH01', code: 'OK-1', name: 'fine', productCode: pcs }),
      sheetRow({ siteCode: 'SH01', code: 'BAD-1', name: 'x', productCode: 'NO-SUCH-PRODUCT' }),
      sheetRow({ siteCode: 'NOPE', code: 'BAD-2', name: 'x', productCode: pcs }),
      sheetRow({ siteCode: 'SH01', code: 'OK-1', name: 'again', productCode: pcs }),
      sheetRow({ siteCode: 'SH01', code: 'BAD-3', name: 'x', productCode: pcs, parentCode: 'MISSING' }),
      sheetRow({ siteCode: 'SH01', code: 'CY-1', name: 'x', productCode: pcs, parentCode: 'CY-2' }),
      sheetRow({ siteCode: 'SH01', code: 'CY-2', name: 'x', productCode: pcs, parentCode: 'CY-1' }),
      sheetRow({ siteCode: 'SH01', code: 'BAD 4', name: '', productCode: pcs, ratedPower: 'lots', meterPurpose: 'kitchen' }),
      sheetRow({ siteCode: 'SH01', code: 'LA01-PCS-01', name: 'x', productCode: pcs }),
    ]), 'bad.xlsx');
    expect(bad.status).toBe(406);
    expect(bad.body.tipMsg).toMatch(/^导入失败：第3行「产品编码」产品 NO-SUCH-PRODUCT 不存在（共\d+处错误）$/);
    const report = JSON.parse(bad.body.errorMsg) as ImportRefusal;
    const at = (row: number) => report.errors.filter((e) => e.row === row).map((e) => `${e.column}: ${e.message}`);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual(['产品编码: 产品 NO-SUCH-PRODUCT 不存在']);
    expect(at(4)).toEqual(['站点编码: 站点 NOPE 不存在或无权访问']);
    expect(at(5)).toEqual(['设备编码: 设备编码在文件中重复（第2行）']);
    expect(at(6)).toEqual(['上级设备编码: 上级设备 MISSING 不存在']);
    expect(at(7)).toEqual(['上级设备编码: 上级设备形成循环']);
    expect(at(8)).toEqual(['上级设备编码: 上级设备形成循环']);
    expect(at(9)).toEqual(expect.arrayContaining([
      '设备编码: 设备编码只能包含字母、数字、_ . -', '设备名称: 设备名称不能为空', '额定功率: 须为数字，范围 0–1000000', '电表用途: 须为 main、storage、pv、pile 之一',
    ]));
    expect(at(10)).toEqual(['设备编码: 设备编码 LA01-PCS-01 已被其他站点的设备使用']);
    expect(await deviceCount()).toBe(n);
    const ok1 = await t.ctx.db.select().from(device).where(eq(device.code, 'OK-1'));
    expect(ok1).toEqual([]);

    const history = await post<Page<DeviceImportRecord>>('/configure/device/import/history/query/page', { status: 'failed', pageSize: 50 });
    const rec = history.body.data.records.find((h) => h.id === report.historyId)!;
    expect(rec).toMatchObject({ kind: 'device', fileName: 'bad.xlsx', status: 'failed', totalRows: 9, createdCount: 0, errorCount: report.errors.length });
    expect(rec.errors).toEqual(report.errors);
    const okHistory = await post<Page<DeviceImportRecord>>('/configure/device/import/history/query/page', { status: 'success' });
    expect(okHistory.body.data.records.map((h) => h.fileName)).toEqual(expect.arrayContaining(['new-site.xlsx', 'export.xlsx']));
  });

  it('keeps a user to the stations granted: other stations refused on every call', async () => {
    const la01 = await siteId('LA01');
    const tok = eastUser.token;
    const file = await xlsx(ALL_HEADERS, [sheetRow({ siteCode: 'LA01', code: 'SNEAK-1', name: 'x', productCode: await productCode('pcs') })]);
    const imp = await upload('/configure/device/import', file, 'sneak.xlsx', tok);
    expect(imp.status).toBe(406);
    expect((JSON.parse(imp.body.errorMsg) as ImportRefusal).errors).toEqual([{ row: 2, column: '站点编码', message: '站点 LA01 不存在或无权访问' }]);
    // Updating a device of another station through its code is refused too.
    const upd = await upload('/configure/device/import', await xlsx(ALL_HEADERS, [sheetRow({ siteCode: 'SH01', code: 'LA01-EMS-01', name: 'x', productCode: await productCode('ems') })]), 'x.xlsx', tok);
    expect(upd.status).toBe(406);
    expect((await post('/configure/device/edit', { id: codes.get('LA01-PCS-01'), code: 'LA01-PCS-01', name: 'hijack' }, tok)).status).toBe(404);
    expect((await t.api.call('POST', '/configure/device/export', { token: tok, body: { siteId: la01 } })).status).toBe(403);
    expect((await post('/configure/device/check/ems', { siteId: la01 }, tok)).status).toBe(403);
    expect((await t.api.call('POST', '/configure/device/product/export', { token: tok, body: { productId: 1, siteId: la01 } })).status).toBe(403);
    // The export without a station holds only the granted station's devices.
    const mine = await readSheet((await t.api.call('POST', '/configure/device/export', { token: tok, body: {} })).raw);
    expect(new Set(mine.slice(1).map((r) => r[0]))).toEqual(new Set(['SH01']));
    // Replacement calls belong to /product/replace.
    expect((await post('/configure/device/change/change', { deviceId: codes.get('LA01-PCS-01'), newCode: 'LA01-PCS-09' }, replaceUser.token)).status).toBe(404);
    expect((await post('/configure/device/change/query/page', { siteId: la01 }, replaceUser.token)).status).toBe(403);
    expect((await t.api.get('/configure/device/change/product/list', replaceUser.token, { siteId: la01 })).status).toBe(403);
    expect((await post('/configure/device/edit', { id: codes.get('SH01-PCS-01'), code: 'SH01-PCS-01', name: 'x' }, replaceUser.token)).status).toBe(403);
    // Import history: the user's companies only (EAST sees its own, not the group's admin imports).
    const h = await post<Page<DeviceImportRecord>>('/configure/device/import/history/query/page', {}, tok);
    expect(h.body.data.records.map((r) => r.username)).toEqual(h.body.data.records.map(() => eastUser.username));
    expect(h.body.data.total).toBe(2);
  });

  it('edits a device: validation, parent rules, and a new code is seen by the ingest without a restart', async () => {
    const id = codes.get('SH01-AC-01')!;
    const cur = (await post<DeviceRecord>('/configure/device/query/one', { id })).body.data;
    const blank = await post('/configure/device/edit', { id, code: cur.code });
    expect(blank.status).toBe(400);
    expect(blank.body.tipMsg).toBe('name不能为空');
    expect((await post('/configure/device/edit', { id, code: 'SH01-PCS-01', name: 'x' })).status).toBe(406);
    expect((await post('/configure/device/edit', { id, code: cur.code, name: 'x', parentId: id })).body.tipMsg).toContain('自身');
    const other = (await post('/configure/device/edit', { id, code: cur.code, name: 'x', parentId: codes.get('LA01-EMS-01') }));
    expect(other.status).toBe(406);
    const ems = codes.get('SH01-EMS-01')!;
    expect((await post('/configure/device/edit', { id: ems, code: 'SH01-EMS-01', name: 'EMS', parentId: codes.get('SH01-PCS-01') })).body.tipMsg).toContain('下级');

    const edited = await post<DeviceRecord>('/configure/device/edit', { id, code: 'SH01-AC-01X', name: '空调一号', barcode: 'AC-SN-9', firmwareVersion: '2.0.1' });
    expect(edited.body.errorCode).toBe('00000');
    expect(edited.body.data).toMatchObject({ code: 'SH01-AC-01X', name: '空调一号', barcode: 'AC-SN-9', firmwareVersion: '2.0.1', parentName: cur.parentName, siteId: cur.siteId });
    await publish('SH01', 'SH01-AC-01X', Date.now(), 1, { cabinetTemperature: 24.5 });
    await eventually(async () => {
      await ingestOf(t.ctx)!.flush();
      const l = await post<DeviceLatestRecord>('/template/product/data/query/latest/one', { deviceId: id });
      return l.body.data.ts ? true : undefined;
    });
    await post('/configure/device/edit', { id, code: 'SH01-AC-01', name: cur.name, barcode: cur.barcode, firmwareVersion: cur.firmwareVersion });
  });

  it('replaces a device: same id and position, old and new codes recorded, history before and after the change returned', async () => {
    const id = codes.get('SH01-PCS-01')!;
    const before = (await post<DeviceRecord>('/configure/device/query/one', { id })).body.data;
    const t1 = Date.now() - 20_000;
    await publish('SH01', 'SH01-PCS-01', t1, 1, { activePower: 11 });
    await eventually(async () => {
      await ingestOf(t.ctx)!.flush();
      const n = (await t.ctx.database.sql.query<{ n: number }>(`select count(*)::int as n from telemetry where device_id = ${id}`)).rows[0]!.n;
      return n >= 1 ? true : undefined;
    });

    const same = await post('/configure/device/change/change', { deviceId: id, newCode: 'SH01-PCS-01', newBarcode: before.barcode }, replaceUser.token);
    expect(same.status).toBe(406);
    const taken = await post('/configure/device/change/change', { deviceId: id, newCode: 'SH01-BMS-01' }, replaceUser.token);
    expect(taken.status).toBe(406);
    expect(taken.body.tipMsg).toContain('newCode');
    const missing = await post('/configure/device/change/change', { deviceId: id }, replaceUser.token);
    expect(missing.body.tipMsg).toBe('newCode不能为空');

    const changed = await post<DeviceChangeRecord>(
      '/configure/device/change/change', { deviceId: id, newCode: 'SH01-PCS-01B', newBarcode: 'PCS-NEW-SN', newFirmwareVersion: '3.1', reason: 'IGBT损坏' }, replaceUser.token,
    );
    expect(changed.body.errorCode).toBe('00000');
    expect(changed.body.data).toMatchObject({
      deviceId: id, siteId: before.siteId, oldCode: 'SH01-PCS-01', newCode: 'SH01-PCS-01B', oldBarcode: before.barcode, newBarcode: 'PCS-NEW-SN',
      oldFirmwareVersion: before.firmwareVersion, newFirmwareVersion: '3.1', reason: 'IGBT损坏', username: replaceUser.username, deviceType: 'pcs',
    });
    const after = (await post<DeviceRecord>('/configure/device/query/one', { id })).body.data;
    expect(after).toMatchObject({ id, code: 'SH01-PCS-01B', barcode: 'PCS-NEW-SN', siteId: before.siteId, parentId: before.parentId, no: before.no, productId: before.productId });
    const children = (await post<DeviceRecord[]>('/configure/device/query/list', { parentId: id })).body.data;
    expect(children.map((c) => c.code)).toContain('SH01-BMS-01');

    // The new hardware reports under its code, the old code is no longer stored.
    const t2 = Date.now() - 5_000;
    await publish('SH01', 'SH01-PCS-01B', t2, 1, { activePower: 22 });
    const history = await eventually(async () => {
      await ingestOf(t.ctx)!.flush();
      const h = await post<DeviceHistory>('/monitor/device/one/history', {
        deviceId: id, identifiers: ['activePower'], start: new Date(t1 - 1000).toISOString(), end: new Date().toISOString(), interval: 'raw',
      });
      return h.body.data.series[0]!.points.length >= 2 ? h.body.data : undefined;
    });
    expect(history.series[0]!.points.filter(([ts]) => ts === t1 || ts === t2)).toEqual([[t1, 11], [t2, 22]]);
    // The removed hardware's code is no longer accepted.
    const unknownBefore = ingestOf(t.ctx)!.counters.unknownDevice;
    await publish('SH01', 'SH01-PCS-01', Date.now(), 2, { activePower: 33 });
    await eventually(() => Promise.resolve(ingestOf(t.ctx)!.counters.unknownDevice > unknownBefore ? true : undefined));

    const page = await post<Page<DeviceChangeRecord>>('/configure/device/change/query/page', { siteId: before.siteId, keyword: 'PCS-01B' }, replaceUser.token);
    expect(page.body.data.records.map((r) => r.id)).toEqual([changed.body.data.id]);
    const one = await post<DeviceChangeRecord>('/configure/device/change/query/one', { id: changed.body.data.id }, replaceUser.token);
    expect(one.body.data.newCode).toBe('SH01-PCS-01B');
    const products = await t.api.get<DeviceChangeProduct[]>('/configure/device/change/product/list', replaceUser.token, { siteId: before.siteId });
    const pcsProduct = products.body.data.find((p) => p.type === 'pcs')!;
    expect(pcsProduct.deviceCount).toBe(1);
    expect(products.body.data.reduce((a, p) => a + p.deviceCount, 0)).toBe(demoFleet().stations.find((s) => s.code === 'SH01')!.devices.length);
  });

  it('checks a station\'s EMS: answered over MQTT while the simulator runs, not when it is silent', async () => {
    const fleet = demoFleet();
    fleet.stations = fleet.stations.filter((s) => s.code === 'BE01');
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet, intervalMs: 0, clock: manualClock(Date.now()) });
    const be01 = await siteId('BE01');
    const ok = await post<EmsCheckResult>('/configure/device/check/ems', { siteId: be01 });
    expect(ok.body.errorCode).toBe('00000');
    expect(ok.body.data).toMatchObject({ siteId: be01, deviceCode: 'BE01-EMS-01', answered: true, online: true });
    expect(ok.body.data.latencyMs).toBeGreaterThanOrEqual(0);
    sim.silence('BE01-EMS-01');
    const silent = await post<EmsCheckResult>('/configure/device/check/ems', { siteId: be01 });
    expect(silent.body.data).toMatchObject({ answered: false, online: false, latencyMs: null });
    expect(silent.body.data.message).toContain('未应答');
    sim.unsilence('BE01-EMS-01');
    // A station without an EMS.
    const { east } = await seededCompanies(t);
    const [empty] = await t.ctx.db.insert(site).values({ companyId: east.id, name: '空站', code: `EMPTY${target.length}` }).returning();
    const none = await post('/configure/device/check/ems', { siteId: empty!.id });
    expect(none.status).toBe(406);
    expect(none.body.tipMsg).toBe('该站点没有EMS设备');
    expect((await post('/configure/device/check/ems', {})).body.tipMsg).toContain('siteId');
  });

  it('exports and imports a product\'s static values per device, refusing bad values', async () => {
    const [pcs] = await t.ctx.db.select().from(product).where(eq(product.type, 'pcs')).limit(1);
    await t.ctx.db.insert(productStaticProperty).values([
      { productId: pcs!.id, identifier: 'manufacturer', name: '厂家', dataType: 'string', required: true, sort: 1 },
      { productId: pcs!.id, identifier: 'ratedCapacity', name: '额定容量', dataType: 'float', unit: 'kVA', sort: 2 },
    ]);
    const res = await t.api.call('POST', '/configure/device/product/export', { token: t.adminToken, body: { productId: pcs!.id } });
    expect(res.status).toBe(200);
    const sheet = await readSheet(res.raw);
    expect(sheet[0]).toEqual(['设备编码', '设备名称', '站点编码', '厂家(manufacturer)', '额定容量(ratedCapacity)']);
    const pcsCodes = sheet.slice(1).map((r) => r[0]!);
    expect(pcsCodes).toEqual(expect.arrayContaining(['SH01-PCS-01B', 'BE01-PCS-01', 'LA01-PCS-01']));

    const headers = sheet[0]!;
    const bad = await upload('/configure/device/product/import', await xlsx(headers, [
      ['SH01-PCS-01B', '', '', 'ACME', 'big'],
      ['BE01-PCS-01', '', '', '', '100'],
      ['NOPE-1', '', '', 'ACME', '1'],
    ]), 'static.xlsx');
    expect(bad.status).toBe(406);
    expect((JSON.parse(bad.body.errorMsg) as ImportRefusal).errors).toEqual([
      { row: 2, column: '额定容量(ratedCapacity)', message: '须为数字' },
      { row: 3, column: '厂家(manufacturer)', message: '厂家不能为空' },
      { row: 4, column: '设备编码', message: '设备 NOPE-1 不存在或无权访问' },
    ]);
    expect(await t.ctx.db.select().from(deviceStaticValue)).toEqual([]);

    const good = await upload<ImportResult>('/configure/device/product/import', await xlsx(headers, [
      ['SH01-PCS-01B', '', '', 'ACME', '250'],
      ['BE01-PCS-01', '', '', 'Volta', ''],
    ]), 'static.xlsx');
    expect(good.body.data).toMatchObject({ totalRows: 2, updated: 2 });
    const again = await readSheet((await t.api.call('POST', '/configure/device/product/export', { token: t.adminToken, body: { productId: pcs!.id } })).raw);
    expect(again.find((r) => r[0] === 'SH01-PCS-01B')!.slice(3)).toEqual(['ACME', '250']);
    expect(again.find((r) => r[0] === 'BE01-PCS-01')!.slice(3)).toEqual(['Volta', '']);
    // A user granted SH01 cannot write values of another station's devices.
    const sneak = await upload('/configure/device/product/import', await xlsx(headers, [['LA01-PCS-01', '', '', 'X', '1']]), 's.xlsx', eastUser.token);
    expect(sneak.status).toBe(406);
    const vals = await t.ctx.db.select().from(deviceStaticValue).where(inArray(deviceStaticValue.deviceId, [codes.get('LA01-PCS-01')!]));
    expect(vals).toEqual([]);
  });
});
