import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceTopic, type CommandRecord, type ImportRefusal, type DeviceHistory, type DeviceLatestRecord, type EventRecord, type Page, type ProductRecord, type PropertyRecord,
  type StaticPropertyRecord, type TemplateRecord, type TemplateTreeNode,
} from '@ess/contract';
import { product } from '../../db/schema/device.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, until } from '../../../test/factory.ts';
import { ingestOf } from '../telemetry/index.ts';

const tag = () => randomBytes(3).toString('hex');
const refusalOf = (body: { errorMsg: string }) => JSON.parse(body.errorMsg) as ImportRefusal;

describe.each(dbTargets(import.meta.url))('thing models and templates on %s', (target) => {
  let t: TestApp;
  let mqtt: MqttClient;
  let pcsId: number;
  let productOnly: string;
  let eastToken: string;
  let eastSite: { id: number; code: string };
  let southSite: { id: number; code: string };
  const devices = new Map<string, number>();

  const post = <T>(path: string, body: unknown, token: string | null = t.adminToken) => t.api.post<T>(path, token, body);
  const get = <T>(path: string, query: Record<string, string | number>, token: string | null = t.adminToken) => t.api.get<T>(path, token, query);
  const newProduct = async (type = 'pcs') => {
    const code = `T-${tag()}`;
    const { id } = await okData(post<{ id: number }>('/configure/product/add', { code, name: `测试产品${code}`, type }));
    return { id, code };
  };
  const addDevice = async (siteId: number, productId: number, type = 'pcs') => {
    const { id, code } = await newDevice(t, siteId, { productId, type });
    devices.set(code, id);
    await ingestOf(t.ctx)!.registry.refresh();
    return { id, code };
  };
  const ingest = () => ingestOf(t.ctx)!;
  let seq = 0;
  const publish = async (siteCode: string, deviceCode: string, values: Record<string, number | string | boolean>, ts = Date.now()) => {
    const before = ingest().counters.storedReports;
    await mqtt.publishAsync(deviceTopic(siteCode, deviceCode, 'telemetry'), JSON.stringify({ ts, seq: ++seq, values }), { qos: 1 });
    await until('the report to be stored', () => ingest().counters.storedReports > before);
    await ingest().flush();
  };

  beforeAll(async () => {
    t = await startTestApp(target, { INGEST_BATCH_MS: '20', LATEST_FLUSH_MS: '50', ROLLUP_FLUSH_MS: '100' });
    mqtt = await connectAsync(t.ctx.mqtt.url, { clientId: `product-test-${target}-${tag()}` });
    const [pcs] = await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.code, 'ESS-PCS'));
    pcsId = pcs!.id;
    const { east, south } = await seededCompanies(t);
    eastSite = await newSite(t, east.id);
    southSite = await newSite(t, south.id);
    eastToken = (await newUser(t, east.id, { menus: ['/product/management', '/product/template'], siteIds: [eastSite.id] })).token;
    productOnly = (await newUser(t, east.id, { menus: ['/product/management'] })).token;
  });
  afterAll(async () => {
    await mqtt?.endAsync();
    await t?.stop();
  });

  it('lists the standard products with their counts', async () => {
    const page = await okData(post<Page<ProductRecord>>('/configure/product/query/page', { type: 'pcs', pageSize: 50 }));
    const pcs = page.records.find((p) => p.code === 'ESS-PCS')!;
    expect(pcs.propertyCount).toBeGreaterThan(10);
    expect(pcs.commandCount).toBeGreaterThan(0);
    const list = await okData(post<ProductRecord[]>('/configure/product/query/list', { keyword: 'ESS-' }));
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect((await okData(post<ProductRecord>('/configure/product/query/one', { id: pcsId }))).code).toBe('ESS-PCS');
  });

  it('refuses callers without a token or the menu, and bad input naming the field', async () => {
    expect((await post('/configure/product/query/page', {}, null)).status).toBe(401);
    const noMenu = await post('/template/product/query/page', {}, productOnly);
    expect([noMenu.status, noMenu.body.errorCode]).toEqual([403, 'A0300']);
    const missing = await post('/configure/product/add', { name: 'x', type: 'pcs' });
    expect([missing.status, missing.body.tipMsg]).toEqual([400, 'code不能为空']);
    const badType = await post('/configure/product/add', { code: 'X1', name: 'x', type: 'toaster' });
    expect(badType.status).toBe(400);
    expect(badType.body.tipMsg).toMatch(/^type/);
    const dup = await post('/configure/product/add', { code: 'ess-pcs', name: 'x', type: 'pcs' });
    expect([dup.status, dup.body.errorCode]).toEqual([406, 'A0409']);
    expect(dup.body.tipMsg).toContain('code');
  });

  it('validates properties: lower camel case, unique enumeration values, labels and colours, cumulative only for numbers', async () => {
    const { id: productId } = await newProduct();
    const base = { productId, name: '状态', dataType: 'enum' };
    const camel = await post('/configure/property/add', { ...base, identifier: 'Run_State', enumValues: [{ value: 0, label: '停' }] });
    expect(camel.status).toBe(400);
    expect(camel.body.tipMsg).toMatch(/^identifier: .*小驼峰/);
    const dupValue = await post('/configure/property/add', { ...base, identifier: 'runState', enumValues: [{ value: 0, label: '停' }, { value: 0, label: '运行' }] });
    expect(dupValue.body.tipMsg).toMatch(/^enumValues\.1\.value: 状态值 0 重复/);
    const dupColour = await post('/configure/property/add', {
      ...base, identifier: 'runState', enumValues: [{ value: 0, label: '停', colour: '#FF0000' }, { value: 1, label: '运行', colour: '#ff0000' }],
    });
    expect(dupColour.body.tipMsg).toMatch(/^enumValues\.1\.colour/);
    const dupLabel = await post('/configure/property/add', { ...base, identifier: 'runState', enumValues: [{ value: 0, label: '停' }, { value: 1, label: '停' }] });
    expect(dupLabel.body.tipMsg).toMatch(/^enumValues\.1\.label/);
    const noValues = await post('/configure/property/add', { ...base, identifier: 'runState' });
    expect(noValues.body.tipMsg).toMatch(/^enumValues/);
    const cumulativeText = await post('/configure/property/add', { productId, identifier: 'note', name: '备注', dataType: 'string', cumulative: true });
    expect(cumulativeText.body.tipMsg).toMatch(/^cumulative/);
    const textValue = await post('/configure/property/add', { ...base, identifier: 'runState', enumValues: [{ value: 'a', label: '停' }] });
    expect(textValue.status).toBe(400);
    const list = await okData(post<PropertyRecord[]>('/configure/property/query/list', { productId }));
    expect(list).toEqual([]);
    const good = await okData(post<{ id: number; slot: number }>('/configure/property/add', {
      ...base, identifier: 'runState', enumValues: [{ value: 0, label: '停', colour: '#8C8C8C' }, { value: 1, label: '运行', colour: '#52c41a' }],
    }));
    const one = await okData(post<PropertyRecord>('/configure/property/query/one', { id: good.id }));
    expect(one).toMatchObject({ identifier: 'runState', slot: 1, enumValues: [{ value: 0, colour: '#8c8c8c' }, { value: 1 }] });
    const again = await post('/configure/property/add', { ...base, identifier: 'runState', enumValues: [{ value: 0, label: '停' }] });
    expect([again.status, again.body.errorCode]).toEqual([406, 'A0409']);
  });

  it('appends slots, never reuses one, keeps the others on delete, and the ingest stores a new property at once', async () => {
    const { id: productId } = await newProduct();
    const add = (identifier: string, dataType = 'float') =>
      okData(post<{ id: number; slot: number | null }>('/configure/property/add', { productId, identifier, name: identifier, dataType }));
    const a = await add('power');
    const b = await add('voltage');
    const txt = await add('firmware', 'string');
    const c = await add('current');
    expect([a.slot, b.slot, txt.slot, c.slot]).toEqual([1, 2, null, 3]);
    await okData(get('/configure/property/delete', { id: c.id }));
    await okData(get('/configure/property/delete', { id: a.id }));
    const d = await add('frequency');
    expect(d.slot).toBe(4);
    const left = await okData(post<PropertyRecord[]>('/configure/property/query/list', { productId }));
    expect(left.map((p) => [p.identifier, p.slot])).toEqual([['voltage', 2], ['firmware', null], ['frequency', 4]]);

    // A device of the product reports; then a property is added and its next value is stored in its slot.
    const dev = await addDevice(eastSite.id, productId);
    await publish(eastSite.code, dev.code, { voltage: 400, frequency: 50 });
    // Read once, so that the slot layouts are cached; the new property must show all the same.
    expect((await okData(post<DeviceLatestRecord>('/template/product/data/query/latest/one', { deviceId: dev.id }))).values).toEqual({ voltage: 400, frequency: 50 });
    const e = await add('temperature');
    expect(e.slot).toBe(5);
    await publish(eastSite.code, dev.code, { voltage: 401, frequency: 50.1, temperature: 35.5 });
    const rows = await t.ctx.database.sql.query<{ v2: number; v4: number; v5: number | null }>(
      'select v[2] as v2, v[4] as v4, v[5] as v5 from telemetry where device_id = $1 order by ts', [dev.id]);
    expect(rows.rows.map((r) => [r.v2, r.v4, r.v5])).toEqual([[400, 50, null], [401, 50.1, 35.5]]);
    const latest = await okData(post<DeviceLatestRecord>('/template/product/data/query/latest/one', { deviceId: dev.id }));
    expect(latest.values).toMatchObject({ voltage: 401, temperature: 35.5 });

    // With devices: float ↔ int is fine, anything else moves stored meaning and is refused.
    const voltage = left.find((p) => p.identifier === 'voltage')!;
    await okData(post('/configure/property/edit', { ...voltage, dataType: 'int' }));
    const toText = await post('/configure/property/edit', { ...voltage, dataType: 'string' });
    expect([toText.status, toText.body.errorCode]).toEqual([406, 'A0406']);
    expect(toText.body.tipMsg).toMatch(/^dataType: 产品下已有设备/);
    const toBool = await post('/configure/property/edit', { ...voltage, dataType: 'bool' });
    expect(toBool.status).toBe(406);
    expect((await okData(post<PropertyRecord>('/configure/property/query/one', { id: voltage.id }))).dataType).toBe('int');

    // Without devices a text property may become numeric: it gets a fresh slot.
    const { id: other } = await newProduct();
    const s = await okData(post<{ id: number }>('/configure/property/add', { productId: other, identifier: 'label', name: '标签', dataType: 'string' }));
    await okData(post('/configure/property/edit', { id: s.id, identifier: 'level', name: '液位', dataType: 'float' }));
    expect((await okData(post<PropertyRecord>('/configure/property/query/one', { id: s.id }))).slot).toBe(1);

    // A product with devices is not deleted; an empty one is.
    const refused = await get('/configure/product/delete', { id: productId });
    expect([refused.status, refused.body.tipMsg]).toEqual([406, '产品下有 1 台设备，不能删除']);
    const typeChange = await post('/configure/product/edit', { id: productId, code: `T-${tag()}`, name: 'x', type: 'bms' });
    expect(typeChange.body.tipMsg).toMatch(/^type:/);
    await okData(get('/configure/product/delete', { id: other }));
    expect((await post('/configure/product/query/one', { id: other })).status).toBe(404);
  });

  it('keeps events, commands and static properties unique per product', async () => {
    const { id: productId } = await newProduct();
    const ev = await okData(post<{ id: number }>('/configure/product/event/add', { productId, identifier: 'PCS_OVER_TEMP', name: '过温', level: 2 }));
    expect((await post('/configure/product/event/add', { productId, identifier: 'PCS_OVER_TEMP', name: '又过温', level: 2 })).body.errorCode).toBe('A0409');
    expect((await post('/configure/product/event/add', { productId, identifier: 'over-temp', name: 'x', level: 2 })).body.tipMsg).toMatch(/^identifier/);
    expect((await post('/configure/product/event/add', { productId, identifier: 'overTemp', name: 'x', level: 9 })).body.tipMsg).toMatch(/^level/);
    await okData(post('/configure/product/event/edit', { id: ev.id, identifier: 'PCS_OVER_TEMP', name: '温度过高', level: 1 }));
    const events = await okData(post<Page<EventRecord>>('/configure/product/event/query/page', { productId }));
    expect(events.records.map((e) => [e.identifier, e.name, e.level])).toEqual([['PCS_OVER_TEMP', '温度过高', 1]]);

    const cmd = { productId, identifier: 'setMode', name: '设置模式', requestParams: [{ identifier: 'mode', name: '模式', dataType: 'enum', enumValues: [{ value: 1, label: '自动' }] }] };
    const c = await okData(post<{ id: number }>('/configure/product/command/add', cmd));
    expect((await post('/configure/product/command/add', cmd)).body.errorCode).toBe('A0409');
    const dupParam = await post('/configure/product/command/add', { ...cmd, identifier: 'other', requestParams: [cmd.requestParams[0], cmd.requestParams[0]] });
    expect(dupParam.body.tipMsg).toMatch(/^requestParams\.1\.identifier/);
    const badParam = await post('/configure/product/command/add', { ...cmd, identifier: 'other', requestParams: [{ identifier: 'Mode', name: 'x', dataType: 'int' }] });
    expect(badParam.body.tipMsg).toMatch(/^requestParams\.0\.identifier/);
    const unique = await okData(post<CommandRecord | null>('/configure/product/command/query/unique', { productId, identifier: 'setMode' }));
    expect(unique?.id).toBe(c.id);
    expect(await okData(post<CommandRecord | null>('/configure/product/command/query/unique', { productId, identifier: 'setMode', excludeId: c.id }))).toBeNull();
    expect((await okData(post<CommandRecord[]>('/configure/product/command/query/list', { productId }))).length).toBe(1);

    const st = await okData(post<{ id: number }>('/configure/static/property/add', { productId, identifier: 'ratedCapacity', name: '额定容量', dataType: 'float', unit: 'kWh' }));
    expect((await post('/configure/static/property/add', { productId, identifier: 'ratedCapacity', name: 'x', dataType: 'string' })).body.errorCode).toBe('A0409');
    await okData(post('/configure/static/property/edit', { id: st.id, identifier: 'ratedCapacity', name: '额定容量', dataType: 'int', unit: 'kWh', required: true }));
    const statics = await okData(post<Page<StaticPropertyRecord>>('/configure/static/property/query/page', { productId }));
    expect(statics.records).toMatchObject([{ identifier: 'ratedCapacity', dataType: 'int', required: true }]);
    await okData(get('/configure/static/property/delete', { id: st.id }));
    await okData(get('/configure/product/command/delete', { id: c.id }));
    await okData(get('/configure/product/event/delete', { id: ev.id }));
    expect((await get('/configure/product/event/delete', { id: ev.id })).status).toBe(404);
  });

  it('exports a model to xlsx and imports it as a new product with the same model', async () => {
    await okData(post('/configure/static/property/add', { productId: pcsId, identifier: 'manufacturer', name: '制造商', dataType: 'string' }));
    const res = await t.api.call('GET', '/configure/product/export/model', { token: t.adminToken, query: { id: pcsId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const code = `COPY-${tag()}`;
    const form = new FormData();
    form.append('code', code);
    form.append('file', new Blob([new Uint8Array(res.raw)]), 'model.xlsx');
    const imported = await okData(t.api.call<{ ids: number[] }>('POST', '/configure/product/import', { token: t.adminToken, rawBody: form }));
    expect(imported.ids).toHaveLength(1);
    const newId = imported.ids[0]!;
    const strip = <T extends { id: number; productId: number }>(rows: T[], drop: string[] = []) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'productId', ...drop].includes(k))));
    for (const [path, drop] of [
      ['/configure/property/query/list', ['slot']], ['/configure/product/event/query/list', []], ['/configure/product/command/query/list', []],
    ] as const) {
      const a = await okData(post<{ id: number; productId: number }[]>(path, { productId: pcsId }));
      const b = await okData(post<{ id: number; productId: number }[]>(path, { productId: newId }));
      expect(a.length).toBeGreaterThan(0);
      expect(strip(b, [...drop])).toEqual(strip(a, [...drop]));
    }
    const sa = await okData(post<Page<StaticPropertyRecord>>('/configure/static/property/query/page', { productId: pcsId }));
    const sb = await okData(post<Page<StaticPropertyRecord>>('/configure/static/property/query/page', { productId: newId }));
    expect(strip(sb.records)).toEqual(strip(sa.records));
    const copy = await okData(post<ProductRecord>('/configure/product/query/one', { id: newId }));
    expect(copy).toMatchObject({ code, type: 'pcs' });

    // The same file again: the code is taken. A row breaking the rules: refused by line and field, nothing written.
    const again = new FormData();
    again.append('code', code);
    again.append('file', new Blob([new Uint8Array(res.raw)]), 'model.xlsx');
    const taken = await t.api.call('POST', '/configure/product/import', { token: t.adminToken, rawBody: again });
    expect([taken.status, taken.body.errorCode]).toEqual([406, 'A0406']);
    expect(refusalOf(taken.body).errors).toEqual([{ row: 2, column: '标识符', message: `产品编码 ${code} 已存在` }]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    wb.worksheets[0]!.getRow(3).getCell(2).value = 'Bad_Identifier';
    const broken = Buffer.from(await wb.xlsx.writeBuffer());
    const bad = new FormData();
    bad.append('code', `BAD-${tag()}`);
    bad.append('file', new Blob([new Uint8Array(broken)]), 'model.xlsx');
    const refused = await t.api.call('POST', '/configure/product/import', { token: t.adminToken, rawBody: bad });
    expect([refused.status, refused.body.errorCode]).toEqual([406, 'A0406']);
    expect(refused.body.tipMsg).toMatch(/^导入失败：第3行「标识符」/);
    const [badRow, ...more] = refusalOf(refused.body).errors;
    expect([badRow?.row, badRow?.column, more]).toEqual([3, '标识符', []]);
    expect(badRow?.message).toMatch(/小驼峰/);
    // Every bad row is listed: the bad identifier and, with the file's own code, the taken code too.
    const both = new FormData();
    both.append('file', new Blob([new Uint8Array(broken)]), 'model.xlsx');
    const all = await t.api.call('POST', '/configure/product/import', { token: t.adminToken, rawBody: both });
    expect(refusalOf(all.body).errors.map((e) => [e.row, e.column])).toEqual([[2, '标识符'], [3, '标识符']]);
    const notXlsx = new FormData();
    notXlsx.append('file', new Blob(['a,b']), 'model.csv');
    expect((await t.api.call('POST', '/configure/product/import', { token: t.adminToken, rawBody: notXlsx })).body.errorCode).toBe('A0420');
    const products = await okData(post<ProductRecord[]>('/configure/product/query/list', { keyword: 'BAD-' }));
    expect(products).toEqual([]);
  });

  it('templates: add, batch all or nothing, properties in order, and a used property is not deleted', async () => {
    const name = `PCS功率-${tag()}`;
    const tpl = await okData(post<{ id: number }>('/template/product/add', { name, productId: pcsId, identifiers: ['activePower', 'state', 'dcVoltage'] }));
    expect((await post('/template/product/add', { name, productId: pcsId, identifiers: ['activePower'] })).body.errorCode).toBe('A0409');
    const unknown = await post('/template/product/add', { name: `x${tag()}`, productId: pcsId, identifiers: ['noSuchThing'] });
    expect(unknown.body.tipMsg).toMatch(/^identifiers: 产品没有属性 noSuchThing/);
    const props = await okData(post<PropertyRecord[]>('/template/product/query/property', { id: tpl.id }));
    expect(props.map((p) => p.identifier)).toEqual(['activePower', 'state', 'dcVoltage']);
    const all = await okData(post<PropertyRecord[]>('/template/product/query/property', { productId: pcsId }));
    expect(all.length).toBeGreaterThan(props.length);

    const before = (await okData(post<TemplateRecord[]>('/template/product/query/list', {}))).length;
    const batchBad = await post('/template/product/add/batch', {
      items: [{ name: `b1-${tag()}`, productId: pcsId, identifiers: ['activePower'] }, { name: `b2-${tag()}`, productId: pcsId, identifiers: ['nope'] }],
    });
    expect(batchBad.body.tipMsg).toMatch(/^items\.1\.identifiers/);
    expect((await okData(post<TemplateRecord[]>('/template/product/query/list', {}))).length).toBe(before);
    const batch = await okData(post<{ ids: number[] }>('/template/product/add/batch', {
      items: [{ name: `b1-${tag()}`, productId: pcsId, identifiers: ['activePower'] }, { name: `b2-${tag()}`, productId: pcsId, identifiers: ['reactivePower'] }],
    }));
    expect(batch.ids).toHaveLength(2);
    const page = await okData(post<Page<TemplateRecord>>('/template/product/query/page', { productId: pcsId, pageSize: 50 }));
    expect(page.total).toBe(before + 2);

    const [dc] = await okData(post<PropertyRecord[]>('/configure/property/query/list', { productId: pcsId, keyword: 'dcVoltage' }));
    const used = await get('/configure/property/delete', { id: dc!.id });
    expect([used.status, used.body.errorCode]).toEqual([406, 'A0406']);
    expect(used.body.tipMsg).toContain(name);
    const pcsDelete = await get('/configure/product/delete', { id: pcsId });
    expect(pcsDelete.status).toBe(406);
    await okData(post('/template/product/edit', { id: tpl.id, name, productId: pcsId, identifiers: ['state', 'activePower'] }));
    expect((await okData(post<TemplateRecord>('/template/product/query/one', { id: tpl.id }))).identifiers).toEqual(['state', 'activePower']);
    for (const id of batch.ids) await okData(get('/template/product/delete', { id }));
  });

  it('template data stays within the caller stations and keeps the range rules', async () => {
    const tplName = `PCS数据-${tag()}`;
    const { id: templateId } = await okData(post<{ id: number }>('/template/product/add', { name: tplName, productId: pcsId, identifiers: ['activePower', 'dcVoltage'] }));
    const mine = await addDevice(eastSite.id, pcsId);
    const theirs = await addDevice(southSite.id, pcsId);
    const t0 = Date.now() - 60_000;
    await publish(eastSite.code, mine.code, { activePower: 100, dcVoltage: 700 }, t0);
    await publish(eastSite.code, mine.code, { activePower: 120, dcVoltage: 710 }, t0 + 10_000);
    await publish(southSite.code, theirs.code, { activePower: -50, dcVoltage: 690 }, t0);

    const adminPage = await okData(post<Page<DeviceLatestRecord>>('/template/product/data/latest/more/page', { templateId, pageSize: 100 }));
    expect(adminPage.records.map((r) => r.code)).toEqual(expect.arrayContaining([mine.code, theirs.code]));
    const minePage = await okData(post<Page<DeviceLatestRecord>>('/template/product/data/latest/more/page', { templateId, pageSize: 100 }, eastToken));
    expect(minePage.records.map((r) => r.code)).toEqual([mine.code]);
    expect(minePage.records[0]!.values).toEqual({ activePower: 120, dcVoltage: 710 });
    const foreignSite = await post('/template/product/data/latest/more/page', { templateId, siteId: southSite.id }, eastToken);
    expect(foreignSite.status).toBe(403);
    const tree = await okData(post<TemplateTreeNode[]>('/template/product/data/latest/more/tree', { templateId }, eastToken));
    expect(tree.map((s) => s.id)).toEqual([eastSite.id]);
    expect(tree[0]!.children.map((d) => [d.code, d.values])).toEqual([[mine.code, { activePower: 120, dcVoltage: 710 }]]);

    const range = { start: new Date(t0 - 1000).toISOString(), end: new Date(t0 + 20_000).toISOString() };
    const hist = await okData(post<DeviceHistory[]>('/template/product/data/query/history', { templateId, deviceIds: [mine.id], ...range }, eastToken));
    expect(hist[0]!.interval).toBe('raw');
    expect(hist[0]!.series.map((s) => [s.identifier, s.points.map((p) => p[1])])).toEqual([['activePower', [100, 120]], ['dcVoltage', [700, 710]]]);
    const foreign = await post('/template/product/data/query/history', { templateId, deviceIds: [theirs.id], ...range }, eastToken);
    expect(foreign.status).toBe(404);
    const tooLong = await post('/template/product/data/query/history', {
      templateId, deviceIds: [mine.id], interval: 'raw', start: new Date(t0 - 25 * 3_600_000).toISOString(), end: range.end,
    }, eastToken);
    expect([tooLong.status, tooLong.body.tipMsg]).toEqual([406, '查询时间范围不能超过24小时']);
    const acrossMonths = await post('/template/product/data/query/history', {
      templateId, deviceIds: [mine.id], interval: '1d', start: '2026-01-20T00:00:00Z', end: '2026-02-10T00:00:00Z',
    }, eastToken);
    expect([acrossMonths.status, acrossMonths.body.tipMsg]).toEqual([406, '日统计不能跨月查询']);
    const otherProduct = await addDevice(eastSite.id, (await newProduct('bms')).id, 'bms');
    const wrong = await post('/template/product/data/query/history', { templateId, deviceIds: [otherProduct.id], ...range });
    expect(wrong.body.tipMsg).toMatch(/^deviceIds: /);
    const noIds = await post('/template/product/data/query/history', { deviceIds: [mine.id], ...range });
    expect(noIds.body.tipMsg).toMatch(/^identifiers/);

    const xlsx = await t.api.call('POST', '/template/product/data/export/history', { token: eastToken, body: { templateId, deviceIds: [mine.id], ...range } });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['时间 (UTC)', '设备编码', '设备名称', '有功功率（放电为正） (kW)', '直流电压 (V)']);
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(3).getCell(4).value).toBe(120);
    const xlsxForeign = await t.api.call('POST', '/template/product/data/export/history', { token: eastToken, body: { templateId, deviceIds: [theirs.id], ...range } });
    expect(xlsxForeign.status).toBe(404);

    // Product data export: the latest values of the product's devices in the caller's stations only.
    const data = await t.api.call('GET', '/configure/product/export/data', { token: eastToken, query: { id: pcsId } });
    expect(data.status).toBe(200);
    const dw = new ExcelJS.Workbook();
    await dw.xlsx.load(data.raw as unknown as ArrayBuffer);
    const codes = dw.worksheets[0]!.getColumn(1).values.slice(2);
    expect(codes).toEqual([mine.code]);
  });
});
