import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlarmDictImportResult, AlarmDictRecord, AlarmKanbanCabinet, AlarmKanbanChart, AlarmKanbanSite, AlarmRecord, DeviceRecord, Page, ProductRecord,
} from '@ess/contract';
import { alarm, alarmDict } from '../../db/schema/alarm.ts';
import { site } from '../../db/schema/site.ts';
import { type ApiResponse, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, newUser, type FactoryUser } from '../../../test/factory.ts';

const HOUR = 3_600_000;

/** A cell as read: times are date cells holding the caller's wall-clock time, read as "YYYY-MM-DD HH:mm:ss". */
const shown = (cell: ExcelJS.Cell) => (cell.value instanceof Date ? cell.value.toISOString().slice(0, 19).replace('T', ' ') : cell.text);

async function sheetOf(res: ApiResponse): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => cells.push(shown(cell)));
    rows.push(cells);
  });
  return rows;
}

async function xlsxOf(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('告警字典');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The dictionary, monitor, shield and kanban calls over HTTP, with their refusals. */
describe.each(dbTargets(import.meta.url))('alarm calls on %s', (target) => {
  let t: TestApp;
  let eastUser: FactoryUser;
  const devices = new Map<string, DeviceRecord>();
  const sites = new Map<string, number>();
  const now = Date.now();
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const get = <T>(path: string, query: Record<string, string | number> = {}, token = t.adminToken) => t.api.get<T>(path, token, query);
  const upload = <T>(file: Buffer, name = 'dict.xlsx') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), name);
    return t.api.call<T>('POST', '/alarm/dict/import', { token: t.adminToken, rawBody: form });
  };
  const dictCount = async () => (await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from alarm_dict')).rows[0]!.n;
  const dictId = async (deviceType: string, code: string) =>
    (await t.ctx.db.select({ id: alarmDict.id }).from(alarmDict).where(and(eq(alarmDict.deviceType, deviceType), eq(alarmDict.eventCode, code))))[0]!.id;

  /** An alarm written straight into the table, at known times. */
  async function insertAlarm(code: string, event: string, level: number, startedAt: number, endedAt: number | null = null) {
    const d = devices.get(code)!;
    const [row] = await t.ctx.db
      .insert(alarm)
      .values({
        no: `ALMTEST${Math.round(Math.random() * 1e9)}`, dictId: await dictId(d.type, event), deviceId: d.id, siteId: d.siteId, cabinetId: d.cabinetId,
        kind: 'event', code: event, level, alarmType: 'deviceFault', description: `${event} 描述`, status: endedAt ? 'ended' : 'active',
        startedAt: new Date(startedAt), endedAt: endedAt ? new Date(endedAt) : null,
      })
      .returning({ id: alarm.id });
    return row!.id;
  }

  let pcsAlarm: number;
  let trAlarm: number;
  let acAlarm: number;
  let beAlarm: number;

  beforeAll(async () => {
    t = await startTestApp(target, { SEED_DEMO: 'true' });
    for (const d of (await post<DeviceRecord[]>('/configure/device/query/list', {})).body.data) devices.set(d.code, d);
    for (const s of await t.ctx.db.select().from(site)) sites.set(s.code, s.id);
    const { east } = await seededCompanies(t);
    eastUser = await newUser(t, east.id, { menus: ['/alarm/monitor', '/alarm/alarmKanban'], siteIds: [sites.get('SH01')!] });
  });
  afterAll(async () => t?.stop());

  describe('dictionary', () => {
    let pcsProduct: ProductRecord;
    let added: number;
    const entry = (over: object = {}) => ({
      productId: pcsProduct.id, deviceType: null, kind: 'event', eventCode: 'PCS_FAN_FAULT', level: 4, alarmType: 'deviceFault', description: '风扇故障（本产品）', ...over,
    });

    beforeAll(async () => {
      pcsProduct = (await post<ProductRecord[]>('/configure/product/query/list', { type: 'pcs' })).body.data.find((p) => p.code === 'ESS-PCS')!;
    });

    it('pages and filters the seeded entries', async () => {
      const all = await post<Page<AlarmDictRecord>>('/alarm/dict/query/page', { pageSize: 500 });
      expect(all.body.data.total).toBe(await dictCount());
      const pcs = await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'pcs' });
      expect(pcs.body.data.map((d) => d.eventCode ?? d.identifier).sort()).toEqual(
        ['PCS_DC_OVERCURRENT', 'PCS_FAN_FAULT', 'PCS_GRID_OVERVOLTAGE', 'PCS_GRID_UNDERVOLTAGE', 'PCS_IGBT_FAULT', 'PCS_OVER_TEMPERATURE', 'igbtTemperature'].sort(),
      );
      const thresholds = await post<AlarmDictRecord[]>('/alarm/dict/query/list', { kind: 'threshold' });
      expect(thresholds.body.data.length).toBeGreaterThanOrEqual(8);
      expect(thresholds.body.data.every((d) => d.kind === 'threshold' && d.clearValue !== null)).toBe(true);
      const found = await post<AlarmDictRecord[]>('/alarm/dict/query/list', { keyword: 'IGBT' });
      expect(found.body.data.map((d) => d.eventCode ?? d.identifier).sort()).toEqual(['PCS_IGBT_FAULT', 'igbtTemperature']);
      const page2 = await post<Page<AlarmDictRecord>>('/alarm/dict/query/page', { current: 2, pageSize: 5, level: 2 });
      expect(page2.body.data.records.every((d) => d.level === 2)).toBe(true);
      expect((await post('/alarm/dict/query/list', { productId: 999_999 })).status).toBe(404);
    });

    it('adds an entry for one product; refuses a duplicate, an unknown code or property and bad input naming the field', async () => {
      const r = await post<{ id: number }>('/alarm/dict/add', entry());
      expect(r.body.errorCode).toBe('00000');
      added = r.body.data.id;
      const [rec] = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { productId: pcsProduct.id })).body.data;
      expect(rec).toMatchObject({ id: added, productCode: 'ESS-PCS', deviceType: null, targetName: '风扇故障', level: 4, identifier: null, operator: null });

      const dup = await post('/alarm/dict/add', entry({ level: 5 }));
      expect(dup.status).toBe(406);
      expect(dup.body.errorCode).toBe('A0409');
      const unknown = await post('/alarm/dict/add', entry({ eventCode: 'NO_SUCH_FAULT' }));
      expect(unknown.status).toBe(406);
      expect(unknown.body.tipMsg).toBe('该产品的物模型中没有此故障码');
      const text = await post('/alarm/dict/add', { ...entry(), kind: 'threshold', eventCode: null, identifier: 'ratedPower', operator: '>', threshold: 1, clearValue: 1, productId: null, deviceType: 'bms' });
      expect(text.status).toBe(406);
      expect(text.body.tipMsg).toBe('该设备类型的物模型中没有此数值属性');
      const position = await post('/alarm/dict/add', { ...entry(), kind: 'threshold', identifier: 'maxCellVoltagePosition', operator: '>', threshold: 1, clearValue: 1, productId: null, deviceType: 'bms' });
      expect(position.status).toBe(406);

      const noLevel = await post('/alarm/dict/add', entry({ level: undefined }));
      expect(noLevel.status).toBe(400);
      expect(noLevel.body.tipMsg).toContain('level');
      const both = await post('/alarm/dict/add', entry({ deviceType: 'pcs' }));
      expect(both.status).toBe(400);
      expect(both.body.tipMsg).toContain('请选择产品或设备类型（二选一）');
      const side = await post('/alarm/dict/add', {
        ...entry(), kind: 'threshold', identifier: 'igbtTemperature', operator: '>', threshold: 80, clearValue: 85,
      });
      expect(side.status).toBe(400);
      expect(side.body.tipMsg).toContain('clearValue');
      const noThreshold = await post('/alarm/dict/add', { ...entry(), kind: 'threshold', identifier: 'igbtTemperature', operator: '<' });
      expect(noThreshold.status).toBe(400);
      expect(noThreshold.body.tipMsg).toContain('threshold');
      const badLevel = await post('/alarm/dict/add', entry({ level: 6 }));
      expect(badLevel.status).toBe(400);
    });

    it('edits an entry, refusing an unknown one and an edit into a duplicate', async () => {
      const ok = await post('/alarm/dict/edit', entry({ id: added, level: 2, description: '风扇故障（改）' }));
      expect(ok.body.errorCode).toBe('00000');
      const [rec] = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { productId: pcsProduct.id })).body.data;
      expect(rec).toMatchObject({ level: 2, description: '风扇故障（改）' });
      // An entry of the product replaces its type's for that product: the type entry's open alarms there end.
      const typeAlarm = await insertAlarm('SH01-PCS-01', 'PCS_IGBT_FAULT', 1, now - HOUR);
      const other = await insertAlarm('BE01-PCS-01', 'PCS_IGBT_FAULT', 1, now - HOUR);
      await post('/alarm/dict/add', entry({ eventCode: 'PCS_IGBT_FAULT' }));
      const status = async (id: number) => (await t.ctx.db.select({ s: alarm.status }).from(alarm).where(eq(alarm.id, id)))[0]!.s;
      expect(await status(typeAlarm)).toBe('ended');
      // BE01's converter is of the same product too.
      expect(await status(other)).toBe('ended');
      await t.ctx.db.delete(alarm);
      const intoDup = await post('/alarm/dict/edit', entry({ id: added, eventCode: 'PCS_IGBT_FAULT' }));
      expect(intoDup.status).toBe(406);
      expect(intoDup.body.errorCode).toBe('A0409');
      expect((await post('/alarm/dict/edit', entry({ id: 999_999 }))).status).toBe(404);
      const override = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { productId: pcsProduct.id })).body.data.find((d) => d.eventCode === 'PCS_IGBT_FAULT')!;
      expect((await get('/alarm/dict/delete', { id: override.id })).body.errorCode).toBe('00000');
    });

    it('deletes an entry; its open alarms end and keep their copies', async () => {
      const own = await insertAlarmFor(added);
      const r = await get('/alarm/dict/delete', { id: added });
      expect(r.body.errorCode).toBe('00000');
      expect((await post<AlarmDictRecord[]>('/alarm/dict/query/list', { productId: pcsProduct.id })).body.data).toEqual([]);
      const [kept] = await t.ctx.db.select().from(alarm).where(eq(alarm.id, own));
      expect(kept).toMatchObject({ dictId: null, status: 'ended', description: '风扇故障（改）' });
      expect((await get('/alarm/dict/delete', { id: added })).status).toBe(404);
      expect((await get('/alarm/dict/delete', { id: 'x' })).status).toBe(400);
      await t.ctx.db.delete(alarm).where(eq(alarm.id, own));
    });

    async function insertAlarmFor(id: number) {
      const d = devices.get('SH01-PCS-01')!;
      const [row] = await t.ctx.db
        .insert(alarm)
        .values({ no: `ALMDEL${id}`, dictId: id, deviceId: d.id, siteId: d.siteId, kind: 'event', code: 'PCS_FAN_FAULT', level: 2, alarmType: 'deviceFault', description: '风扇故障（改）', startedAt: new Date() })
        .returning({ id: alarm.id });
      return row!.id;
    }

    it('exports the dictionary as xlsx with readable columns', async () => {
      const res = await t.api.call('POST', '/alarm/dict/export', { token: t.adminToken, body: { deviceType: 'transformer' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('.xlsx');
      const rows = await sheetOf(res);
      expect(rows[0]).toEqual(['产品编码', '设备类型', '规则类型', '故障码', '属性标识符', '运算符', '阈值', '恢复值', '告警等级', '告警类型', '告警描述', '启用']);
      const load = rows.find((r) => r[4] === 'loadRate')!;
      expect(load).toEqual(['', '变压器', '阈值', '', 'loadRate', '>', '90', '85', '3', '越限告警', '变压器负载率过高', '是']);
      expect(rows).toHaveLength(1 + (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'transformer' })).body.data.length);
    });

    it('imports a sheet: updates matching entries and adds new ones', async () => {
      const exported = await sheetOf(await t.api.call('POST', '/alarm/dict/export', { token: t.adminToken, body: { deviceType: 'transformer' } }));
      const rows = exported.map((r) => [...r]);
      const load = rows.find((r) => r[4] === 'loadRate')!;
      load[6] = '92';
      load[8] = '2';
      rows.push(['', 'transformer', '阈值', '', 'windingTemperature', '>', '110', '100', '三级告警', '越限告警', '绕组温度过高', '']);
      const before = await dictCount();
      const r = await upload<AlarmDictImportResult>(await xlsxOf(rows));
      expect(r.body.errorCode).toBe('00000');
      expect(r.body.data).toEqual({ totalRows: rows.length - 1, created: 1, updated: rows.length - 2 });
      expect(await dictCount()).toBe(before + 1);
      const list = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'transformer' })).body.data;
      expect(list.find((d) => d.identifier === 'loadRate')).toMatchObject({ threshold: 92, clearValue: 85, level: 2 });
      expect(list.find((d) => d.identifier === 'windingTemperature')).toMatchObject({ threshold: 110, clearValue: 100, level: 3, enabled: true, unit: '°C' });
    });

    it('refuses a sheet with a bad row naming its row and column, and writes nothing', async () => {
      const header = ['产品编码', '设备类型', '规则类型', '故障码', '属性标识符', '运算符', '阈值', '恢复值', '告警等级', '告警类型', '告警描述', '启用'];
      const good = ['', '变压器', '阈值', '', 'loadRate', '>', '99', '90', '1', '越限告警', '改了也不会写入', '是'];
      const before = await dictCount();
      const snapshot = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'transformer' })).body.data;

      const badLevel = await upload(await xlsxOf([header, good, ['', '变压器', '阈值', '', 'oilTemperature', '>', '80', '75', '9', '越限告警', '油温', '是']]));
      expect(badLevel.status).toBe(406);
      expect(badLevel.body.errorCode).toBe('A0406');
      expect(badLevel.body.tipMsg).toBe('导入失败：第3行「告警等级」告警等级应为1-5');
      const badSide = await upload(await xlsxOf([header, good, ['', '变压器', '阈值', '', 'oilTemperature', '<', '80', '75', '2', '越限告警', '油温', '是']]));
      expect(badSide.status).toBe(406);
      expect(badSide.body.tipMsg).toContain('第3行「恢复值」');
      const unknown = await upload(await xlsxOf([header, good, ['NO-SUCH', '', '故障码', 'X', '', '', '', '', '2', '设备故障', 'x', '是']]));
      expect(unknown.body.tipMsg).toBe('导入失败：第3行「产品编码」产品不存在');
      const twice = await upload(await xlsxOf([header, good, good]));
      expect(twice.body.tipMsg).toBe('导入失败：第3行「属性标识符」与第2行重复');
      const noCode = await upload(await xlsxOf([header, good, ['', '变压器', '阈值', '', 'oilLevel', '>', '80', '75', '2', '越限告警', '油位', '是']]));
      expect(noCode.body.tipMsg).toBe('导入失败：第3行「属性标识符」该设备类型的物模型中没有此数值属性');
      const missing = await upload(await xlsxOf([header.slice(0, 10), good.slice(0, 10)]));
      expect(missing.body.tipMsg).toBe('导入失败：第1行「告警描述」缺少此列');
      const notXlsx = await upload(Buffer.from('a,b\n1,2'), 'dict.csv');
      expect(notXlsx.status).toBe(406);

      expect(await dictCount()).toBe(before);
      expect((await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType: 'transformer' })).body.data).toEqual(snapshot);
    });
  });

  describe('monitor and kanban', () => {
  beforeAll(async () => {
    pcsAlarm = await insertAlarm('SH01-PCS-01', 'PCS_IGBT_FAULT', 1, now - 2 * HOUR);
    trAlarm = await insertAlarm('SH01-TR-01', 'TRANSFORMER_OVERLOAD', 3, now - 5 * HOUR, now - 4 * HOUR);
    acAlarm = await insertAlarm('SH01-AC-01', 'AC_COMPRESSOR_FAULT', 2, now - 30 * HOUR);
    beAlarm = await insertAlarm('BE01-PCS-01', 'PCS_OVER_TEMPERATURE', 2, now - HOUR);
  });

  describe('monitor', () => {
    it('lists and pages alarms with filters', async () => {
      const all = (await post<AlarmRecord[]>('/alarm/monitor/query/list', {})).body.data;
      expect(all.map((a) => a.id)).toEqual([beAlarm, pcsAlarm, trAlarm, acAlarm]);
      const pcs = all.find((a) => a.id === pcsAlarm)!;
      expect(pcs).toMatchObject({ siteCode: 'SH01', deviceCode: 'SH01-PCS-01', deviceType: 'pcs', status: 'active', level: 1, shield: null, cabinetName: null });
      expect(pcs.durationMs).toBeGreaterThanOrEqual(2 * HOUR);
      const ac = all.find((a) => a.id === acAlarm)!;
      expect(ac.cabinetName).not.toBeNull();
      const ids = async (body: object) => (await post<AlarmRecord[]>('/alarm/monitor/query/list', body)).body.data.map((a) => a.id).sort((a, b) => a - b);
      const sorted = (...x: number[]) => x.sort((a, b) => a - b);
      expect(await ids({ siteId: sites.get('SH01') })).toEqual(sorted(pcsAlarm, trAlarm, acAlarm));
      expect(await ids({ status: 'ended' })).toEqual([trAlarm]);
      expect(await ids({ level: 2 })).toEqual(sorted(acAlarm, beAlarm));
      expect(await ids({ maxLevel: 2 })).toEqual(sorted(pcsAlarm, acAlarm, beAlarm));
      expect(await ids({ deviceId: devices.get('SH01-TR-01')!.id })).toEqual([trAlarm]);
      expect(await ids({ cabinetId: ac.cabinetId })).toEqual([acAlarm]);
      expect(await ids({ start: now - 3 * HOUR, end: now })).toEqual(sorted(pcsAlarm, beAlarm));
      expect(await ids({ keyword: 'SH01-AC' })).toEqual([acAlarm]);
      expect(await ids({ alarmType: 'safety' })).toEqual([]);
      const { south } = await seededCompanies(t);
      expect(await ids({ companyId: south.id })).toEqual([beAlarm]);
      const page = await post<Page<AlarmRecord>>('/alarm/monitor/query/page', { current: 2, pageSize: 3 });
      expect(page.body.data).toMatchObject({ total: 4, current: 2, pageSize: 3 });
      expect(page.body.data.records.map((a) => a.id)).toEqual([acAlarm]);
      expect((await post('/alarm/monitor/query/page', { level: 7 })).status).toBe(400);
      expect((await post('/alarm/monitor/query/list', { status: 'open' })).status).toBe(400);
    });

    it("shows a user only the alarms of their stations and refuses filters naming others'", async () => {
      const mine = (await post<AlarmRecord[]>('/alarm/monitor/query/list', {}, eastUser.token)).body.data;
      expect(mine.map((a) => a.siteCode)).toEqual(['SH01', 'SH01', 'SH01']);
      expect((await post('/alarm/monitor/query/list', { siteId: sites.get('BE01') }, eastUser.token)).status).toBe(403);
      expect((await post('/alarm/monitor/query/page', { deviceId: devices.get('BE01-PCS-01')!.id }, eastUser.token)).status).toBe(404);
      expect((await get('/alarm/kanban/site', { siteId: sites.get('BE01')! }, eastUser.token)).status).toBe(403);
      // No dictionary menu: its calls are refused.
      expect((await post('/alarm/dict/query/list', {}, eastUser.token)).status).toBe(403);
    });

    it('exports the filtered alarms as xlsx in the caller\'s time zone', async () => {
      const res = await t.api.call('POST', '/alarm/monitor/export', { token: t.adminToken, body: { siteId: sites.get('SH01') }, headers: { 'utc-zone': '480' } });
      expect(res.status).toBe(200);
      const rows = await sheetOf(res);
      expect(rows[0]!.slice(0, 5)).toEqual(['告警编号', '告警等级', '告警类型', '告警描述', '状态']);
      expect(rows).toHaveLength(4);
      const tr = rows.find((r) => r[7] === 'SH01-TR-01')!;
      expect(tr[1]).toBe('三级告警');
      expect(tr[4]).toBe('已结束');
      expect(tr[12]).toBe(new Date(now - 5 * HOUR + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' '));
      expect(tr[14]).toBe('1小时0分');
      const scoped = await sheetOf(await t.api.call('POST', '/alarm/monitor/export', { token: eastUser.token, body: {} }));
      expect(scoped).toHaveLength(4);
    });

    it('shields an alarm source for a validity period and cancels it, refusing what does not fit', async () => {
      const end = now + HOUR;
      const r = await post<{ id: number }>('/alarm/monitor/create/shield', { alarmId: pcsAlarm, end, remark: '检修' }, eastUser.token);
      expect(r.body.errorCode).toBe('00000');
      const [shown] = (await post<AlarmRecord[]>('/alarm/monitor/query/list', { deviceId: devices.get('SH01-PCS-01')!.id })).body.data;
      expect(shown!.shield).toMatchObject({ id: r.body.data.id, endAt: new Date(end).toISOString(), remark: '检修', createdBy: eastUser.name });

      const overlap = await post('/alarm/monitor/create/shield', { alarmId: pcsAlarm, end: end + HOUR });
      expect(overlap.status).toBe(406);
      expect(overlap.body.errorCode).toBe('A0409');
      expect((await post('/alarm/monitor/create/shield', { alarmId: trAlarm, end: now + 400 * 24 * HOUR })).status).toBe(406);
      expect((await post('/alarm/monitor/create/shield', { alarmId: trAlarm, end: now - HOUR })).status).toBe(400);
      const noEnd = await post('/alarm/monitor/create/shield', { alarmId: trAlarm });
      expect(noEnd.status).toBe(400);
      expect(noEnd.body.tipMsg).toContain('end');
      expect((await post('/alarm/monitor/create/shield', { end })).status).toBe(400);
      expect((await post('/alarm/monitor/create/shield', { alarmId: beAlarm, end }, eastUser.token)).status).toBe(404);
      expect((await post('/alarm/monitor/create/shield', { alarmId: 999_999, end })).status).toBe(404);
      const wrongEntry = await post('/alarm/monitor/create/shield', { deviceId: devices.get('SH01-PCS-01')!.id, dictId: await dictId('transformer', 'TRANSFORMER_OVERLOAD'), end });
      expect(wrongEntry.status).toBe(406);
      expect(wrongEntry.body.tipMsg).toBe('该告警字典项不适用于此设备');
      // Named by device and entry, starting later: no overlap with the first.
      const later = await post<{ id: number }>('/alarm/monitor/create/shield', {
        deviceId: devices.get('SH01-PCS-01')!.id, dictId: await dictId('pcs', 'PCS_IGBT_FAULT'), start: end, end: end + HOUR,
      });
      expect(later.body.errorCode).toBe('00000');

      expect((await post('/alarm/monitor/cancel/shield', { id: r.body.data.id }, eastUser.token)).body.errorCode).toBe('00000');
      const again = await post('/alarm/monitor/cancel/shield', { id: r.body.data.id });
      expect(again.status).toBe(406);
      expect(again.body.tipMsg).toBe('屏蔽已结束');
      expect((await post('/alarm/monitor/cancel/shield', { id: 999_999 })).status).toBe(404);
      expect((await post('/alarm/monitor/cancel/shield', {})).status).toBe(400);
      // By the alarm: the shield still to come on its source.
      expect((await post('/alarm/monitor/cancel/shield', { alarmId: pcsAlarm })).body.errorCode).toBe('00000');
      const [after] = (await post<AlarmRecord[]>('/alarm/monitor/query/list', { deviceId: devices.get('SH01-PCS-01')!.id })).body.data;
      expect(after!.shield).toBeNull();
      const rows = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from alarm_shield where cancelled_at is null');
      expect(rows.rows[0]!.n).toBe(0);
    });
  });

  describe('kanban', () => {
    it('counts per station and level: in progress now, raised and ended within the range', async () => {
      const r = await get<AlarmKanbanSite>('/alarm/kanban/site', { end: now + 1000 });
      expect(r.body.errorCode).toBe('00000');
      const sh = r.body.data.sites.find((s) => s.siteCode === 'SH01')!;
      expect(sh.levels).toEqual([
        { level: 1, active: 1, raised: 1, ended: 0 },
        { level: 2, active: 1, raised: 0, ended: 0 },
        { level: 3, active: 0, raised: 1, ended: 1 },
        { level: 4, active: 0, raised: 0, ended: 0 },
        { level: 5, active: 0, raised: 0, ended: 0 },
      ]);
      expect(r.body.data.sites.find((s) => s.siteCode === 'LA01')!.levels.every((l) => l.active + l.raised + l.ended === 0)).toBe(true);
      expect(r.body.data.total[1]).toEqual({ level: 2, active: 2, raised: 1, ended: 0 });
      const one = await get<AlarmKanbanSite>('/alarm/kanban/site', { siteId: sites.get('BE01')! });
      expect(one.body.data.sites.map((s) => s.siteCode)).toEqual(['BE01']);
      const { east } = await seededCompanies(t);
      const company = await get<AlarmKanbanSite>('/alarm/kanban/site', { companyId: east.id });
      expect(company.body.data.sites.map((s) => s.siteCode)).toEqual(['SH01']);
      const mine = await get<AlarmKanbanSite>('/alarm/kanban/site', {}, eastUser.token);
      expect(mine.body.data.sites.map((s) => s.siteCode)).toEqual(['SH01']);
      expect((await get('/alarm/kanban/site', { start: now, end: now - HOUR })).status).toBe(400);
      expect((await get('/alarm/kanban/site', { start: now - 400 * 24 * HOUR, end: now })).status).toBe(400);
    });

    it('counts per energy cabinet, with the station\'s devices in no cabinet apart', async () => {
      const r = await get<AlarmKanbanCabinet>('/alarm/kanban/cabinet', { siteId: sites.get('SH01')!, end: now + 1000 });
      const ac = devices.get('SH01-AC-01')!;
      const cab = r.body.data.cabinets.find((c) => c.cabinetId === ac.cabinetId)!;
      expect(cab.levels[1]).toEqual({ level: 2, active: 1, raised: 0, ended: 0 });
      const none = r.body.data.cabinets.find((c) => c.cabinetId === null)!;
      expect(none).toMatchObject({ siteName: expect.any(String) as string, cabinetName: null });
      expect(none.levels[0]!.active + none.levels[2]!.ended).toBe(2);
      expect(r.body.data.cabinets.filter((c) => c.cabinetId !== null).length).toBeGreaterThanOrEqual(2);
    });

    it('charts raised and ended alarms by level per hour, with types, top devices and the mean time to end', async () => {
      const r = await get<AlarmKanbanChart>('/alarm/kanban/chart', { start: now - 24 * HOUR, end: now + 1000 });
      const c = r.body.data;
      expect(c.bucket).toBe('hour');
      expect(c.points.length).toBeGreaterThanOrEqual(24);
      const sum = (k: 'raised' | 'ended') => c.points.reduce((a, p) => a.map((x, i) => x + p[k][i]!), [0, 0, 0, 0, 0]);
      expect(sum('raised')).toEqual([1, 1, 1, 0, 0]);
      expect(sum('ended')).toEqual([0, 0, 1, 0, 0]);
      const hourOf = (ms: number) => Math.floor(ms / HOUR) * HOUR;
      expect(c.points.find((p) => p.t === hourOf(now - 5 * HOUR))!.raised[2]).toBe(1);
      expect(c.byType).toContainEqual({ alarmType: 'deviceFault', count: 3 });
      expect(c.topDevices).toHaveLength(3);
      expect(c.endedCount).toBe(1);
      expect(c.meanTimeToEndMs).toBe(HOUR);
    });

    it('charts by day from midnight of the caller\'s zone over longer ranges', async () => {
      const r = await t.api.call<AlarmKanbanChart>('GET', '/alarm/kanban/chart', {
        token: t.adminToken, query: { start: now - 7 * 24 * HOUR, end: now + 1000 }, headers: { 'utc-zone': '480' },
      });
      const c = r.body.data;
      expect(c.bucket).toBe('day');
      for (const p of c.points) expect((p.t + 8 * HOUR) % (24 * HOUR)).toBe(0);
      expect(c.points.reduce((a, p) => a + p.raised.reduce((x, y) => x + y, 0), 0)).toBe(4);
    });
  });
});
});
