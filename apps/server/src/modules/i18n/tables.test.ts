import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, type DeviceRecord, type Page, type SiteRecord, type UserRow } from '@ess/contract';
import { appUser } from '../../db/schema/system.ts';
import { product } from '../../db/schema/device.ts';
import { type ApiResponse, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newDevice, newSite, newUser, okData, seededCompanies, until } from '../../../test/factory.ts';
import { ingestOf } from '../telemetry/index.ts';

/**
 * Issue 16, tables and exports: lists sort server-side by their declared fields only, and the
 * exports of the lists a user takes into a spreadsheet (stations, users, devices, data
 * retrieval, alarm analysis) are real xlsx files in the caller's language (Client-Language) and
 * time zone (UTC-Zone), with the list's permission and data scope.
 */

const tag = () => randomBytes(3).toString('hex');
const HOUR = 3_600_000;
/** A German caller one hour east of UTC. */
const GERMAN = { 'client-language': 'de-DE', 'utc-zone': '60' };

interface Sheet {
  headers: string[];
  rows: ExcelJS.CellValue[][];
  fileName: string;
}

async function sheetOf(res: ApiResponse): Promise<Sheet> {
  expect(res.status, res.raw.toString('utf8').slice(0, 200)).toBe(200);
  expect(res.headers.get('content-type')).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const values = (n: number) => (ws.getRow(n).values as ExcelJS.CellValue[]).slice(1);
  const rows: ExcelJS.CellValue[][] = [];
  for (let i = 2; i <= ws.rowCount; i++) rows.push(values(i));
  const disposition = res.headers.get('content-disposition') ?? '';
  const fileName = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '');
  return { headers: values(1).map(String), rows, fileName };
}

/** Excel holds wall-clock times: the cell's UTC fields are the caller's local time. */
const wallClock = (iso: string | Date, zoneMinutes: number) => new Date(new Date(iso).getTime() + zoneMinutes * 60_000).toISOString();

describe.each(dbTargets(import.meta.url))('tables and exports on %s', (target) => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof seededCompanies>>;
  let eastSites: { id: number; code: string; name: string }[];
  let southSite: { id: number; code: string; name: string };
  let eastAdmin: Awaited<ReturnType<typeof newUser>>;
  let noExportUser: Awaited<ReturnType<typeof newUser>>;

  const post = <T>(path: string, body: unknown, token: string | null = t.adminToken, headers: Record<string, string> = {}) =>
    t.api.call<T>('POST', path, { token, body, headers });

  beforeAll(async () => {
    t = await startTestApp(target, { INGEST_BATCH_MS: '20', LATEST_FLUSH_MS: '50', ROLLUP_FLUSH_MS: '100' });
    c = await seededCompanies(t);
    const x = tag();
    eastSites = [
      await newSite(t, c.east.id, { code: `B${x}`, name: `Beta ${x}` }),
      await newSite(t, c.east.id, { code: `A${x}`, name: `Alpha ${x}` }),
      await newSite(t, c.east.id, { code: `C${x}`, name: `Gamma ${x}` }),
    ];
    southSite = await newSite(t, c.south.id, { code: `S${x}`, name: `South ${x}` });
    for (const [i, s] of eastSites.entries()) {
      await newDevice(t, s.id, { type: 'pcs', code: `DEV-${x}-${i}`, name: `${3 - i}#储能变流器` });
    }
    await newDevice(t, southSite.id, { type: 'pcs', code: `DEV-${x}-S` });
    // Every menu of the console, the EAST stations granted.
    eastAdmin = await newUser(t, c.east.id, { menus: 'all', siteIds: eastSites.map((s) => s.id), name: `Zoe ${x}` });
    // The lists, but not the user administration.
    noExportUser = await newUser(t, c.east.id, { menus: ['/config/site', '/alarm/monitor'], siteIds: [eastSites[0]!.id] });
    for (const n of ['anna', 'bert', 'carl']) await newUser(t, c.east.id, { username: `${n}${x}`, name: `${n.toUpperCase()} ${x}`, signIn: false });
  });
  afterAll(async () => t?.stop());

  describe('sorting through the list query', () => {
    it('sorts the user list by a declared field, ascending and descending', async () => {
      const page = (sortOrder: 'asc' | 'desc') =>
        okData(post<Page<UserRow>>('/system/user/query/page', { companyId: c.east.id, sortField: 'username', sortOrder, pageSize: 100 }));
      const asc = (await page('asc')).records.map((r) => r.username);
      const desc = (await page('desc')).records.map((r) => r.username);
      expect(asc.length).toBeGreaterThanOrEqual(5);
      expect(asc).toEqual([...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(desc).toEqual([...asc].reverse());
    });

    it('sorts stations by name and by device count, and pages in that order', async () => {
      const byName = await okData(post<Page<SiteRecord>>('/configure/site/query/page', { companyId: c.east.id, sortField: 'name', pageSize: 100 }, eastAdmin.token));
      expect(byName.records.map((s) => s.name)).toEqual(eastSites.map((s) => s.name).sort());
      const desc = await okData(post<Page<SiteRecord>>('/configure/site/query/page', { sortField: 'name', sortOrder: 'desc', pageSize: 2, current: 1 }, eastAdmin.token));
      const second = await okData(post<Page<SiteRecord>>('/configure/site/query/page', { sortField: 'name', sortOrder: 'desc', pageSize: 2, current: 2 }, eastAdmin.token));
      expect([...desc.records, ...second.records].map((s) => s.name)).toEqual(eastSites.map((s) => s.name).sort().reverse());
    });

    it('sorts devices by station name and by name on the registry and the live list', async () => {
      const bySite = await okData(post<Page<DeviceRecord>>('/configure/device/query/page', { sortField: 'siteName', sortOrder: 'desc', pageSize: 50 }, eastAdmin.token));
      expect(bySite.records.map((d) => d.siteName)).toEqual(eastSites.map((s) => s.name).sort().reverse());
      const live = await okData(post<Page<DeviceRecord>>('/configure/device/data/latest/page', { sortField: 'name', pageSize: 50 }, eastAdmin.token));
      expect(live.records.map((d) => d.name)).toEqual(['1#储能变流器', '2#储能变流器', '3#储能变流器']);
    });

    it('refuses a field the list does not declare with 400 and a tipMsg naming it, never a 500', async () => {
      const bad = await post('/system/user/query/page', { sortField: 'passwordHash' });
      expect(bad.status).toBe(400);
      expect(bad.body.errorCode).toBe('A0400');
      expect(bad.body.tipMsg).toContain('passwordHash');
      expect(bad.body.tipMsg).toContain('排序');
      const injected = await post('/configure/site/query/page', { sortField: 'name; drop table site' });
      expect([injected.status, injected.body.errorCode]).toEqual([400, 'A0400']);
      const order = await post('/configure/device/query/page', { sortField: 'name', sortOrder: 'sideways' });
      expect(order.status).toBe(400);
      expect(order.body.tipMsg).toContain('sortOrder');
    });
  });

  describe('exports in the caller’s language and zone', () => {
    it('users: German headers, translated statuses and built-in role names, times in the zone named, the file name translated', async () => {
      const res = await post('/system/user/export', { sortField: 'username' }, t.adminToken, GERMAN);
      const s = await sheetOf(res);
      expect(s.fileName).toBe('Benutzer.xlsx');
      expect(s.headers.slice(0, 2)).toEqual(['Benutzername', 'Name']);
      expect(s.headers).toContain('Kontostatus');
      expect(s.headers).toContain('Letzte Anmeldung (UTC+01:00)');
      const names = s.rows.map((r) => r[0] as string);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const admin = s.rows.find((r) => r[0] === 'admin')!;
      const col = (h: string) => s.headers.indexOf(h);
      expect(admin[col('Kontostatus')]).toBe('Aktiviert');
      expect(admin[col('Rollen')]).toBe('Systemadministrator');
      expect(admin[col('Integriert')]).toBe('Ja');
      const [row] = await t.ctx.db.select({ at: appUser.lastLoginAt }).from(appUser).where(eq(appUser.username, 'admin'));
      const cell = admin[col('Letzte Anmeldung (UTC+01:00)')];
      expect(cell).toBeInstanceOf(Date);
      expect((cell as Date).toISOString()).toBe(wallClock(row!.at!, 60));
    });

    it('users: the same call in Chinese keeps the source text; without the user menu it is refused', async () => {
      const s = await sheetOf(await post('/system/user/export', {}, t.adminToken, { 'utc-zone': '480' }));
      expect(s.fileName).toBe('用户列表.xlsx');
      expect(s.headers).toContain('最后登录 (UTC+08:00)');
      const refused = await post('/system/user/export', {}, noExportUser.token, GERMAN);
      expect(refused.status).toBe(403);
      // The EAST administrator exports EAST's users only.
      const east = await sheetOf(await post('/system/user/export', {}, eastAdmin.token, GERMAN));
      expect(east.rows.map((r) => r[0])).not.toContain('admin');
    });

    it('stations: German headers and station types, the list order, the caller’s stations only; another company is refused', async () => {
      const s = await sheetOf(await post('/configure/site/export', { sortField: 'name', sortOrder: 'desc' }, eastAdmin.token, GERMAN));
      expect(s.fileName).toBe('Standorte.xlsx');
      expect(s.headers.slice(0, 4)).toEqual(['Standortname', 'Standortcode', 'Unternehmen', 'Standorttyp']);
      expect(s.headers).toContain('Erstellt am (UTC+01:00)');
      expect(s.rows.map((r) => r[0])).toEqual(eastSites.map((x) => x.name).sort().reverse());
      expect(s.rows[0]![3]).toBe('Speicher');
      const foreign = await post('/configure/site/export', { companyId: c.south.id }, eastAdmin.token, GERMAN);
      expect([foreign.status, foreign.body.errorCode]).toEqual([403, 'A0301']);
      expect((await post('/configure/site/export', {}, null, GERMAN)).status).toBe(401);
    });

    it('devices: German sheet whose import reads it back; other stations refused', async () => {
      const res = await post('/configure/device/export', { siteIds: eastSites.map((x) => x.id), sortField: 'name' }, eastAdmin.token, GERMAN);
      const s = await sheetOf(res);
      expect(s.fileName).toBe('Geräte.xlsx');
      expect(s.headers.slice(0, 3)).toEqual(['Standortcode', 'Gerätecode', 'Gerätename']);
      expect(s.rows.map((r) => r[2])).toEqual(['1#储能变流器', '2#储能变流器', '3#储能变流器']);
      expect(s.rows[0]![s.headers.indexOf('Deaktiviert')]).toBe('Nein');
      // The German file goes back in unchanged: headers and Ja/Nein read as the sheet's own.
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(res.raw)]), 'geraete.xlsx');
      const back = await t.api.call('POST', '/configure/device/import', { token: eastAdmin.token, rawBody: form, headers: GERMAN });
      expect([back.status, back.body.errorCode], back.body.tipMsg).toEqual([200, '00000']);
      const foreign = await post('/configure/device/export', { siteId: southSite.id }, eastAdmin.token, GERMAN);
      expect(foreign.status).toBe(403);
    });

    it('alarm analysis: German levels, statuses and durations, times in the zone named; another company’s station refused', async () => {
      const [d] = await okData(post<DeviceRecord[]>('/configure/device/query/list', { siteId: eastSites[1]!.id }));
      const startedAt = new Date(Date.now() - 5 * HOUR);
      await newAlarm(t, d!.id, { level: 3, startedAt, endedAt: new Date(startedAt.getTime() + HOUR) });
      const range = { start: Date.now() - 24 * HOUR, end: Date.now() };
      const s = await sheetOf(await post('/alarm/monitor/export', { siteId: eastSites[1]!.id, ...range }, eastAdmin.token, GERMAN));
      expect(s.fileName).toBe('Alarmprotokoll.xlsx');
      expect(s.headers).toContain('Alarmstufe');
      expect(s.headers).toContain('Seit (UTC+01:00)');
      const col = (h: string) => s.headers.indexOf(h);
      const row = s.rows[0]!;
      expect(row[col('Alarmstufe')]).toBe('Alarm Stufe 3');
      expect(row[col('Status')]).toBe('Beendet');
      expect(row[col('Dauer')]).toBe('1 Std. 0 Min.');
      expect(row[col('Gerätename')]).toBe('Batteriewechselrichter Nr. 2');
      expect((row[col('Seit (UTC+01:00)')] as Date).toISOString()).toBe(wallClock(startedAt, 60));
      const foreign = await post('/alarm/monitor/export', { siteId: southSite.id, ...range }, eastAdmin.token, GERMAN);
      expect(foreign.status).toBe(403);
    });

    it('data retrieval: German property headers with units, time in the zone named, the interval in the file name; other devices refused', async () => {
      const mqtt: MqttClient = await connectAsync(t.ctx.mqtt.url, { clientId: `tables-test-${target}-${tag()}` });
      try {
        const [pcs] = await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.code, 'ESS-PCS'));
        const site = eastSites[2]!;
        const dev = await newDevice(t, site.id, { productId: pcs!.id, type: 'pcs' });
        const ingest = ingestOf(t.ctx)!;
        await ingest.registry.refresh();
        const t0 = Date.now() - 60_000;
        const before = ingest.counters.storedReports;
        await mqtt.publishAsync(deviceTopic(site.code, dev.code, 'telemetry'), JSON.stringify({ ts: t0, seq: 1, values: { activePower: 19679.54 } }), { qos: 1 });
        await until('the report to be stored', () => ingest.counters.storedReports > before);
        await ingest.flush();
        const body = { deviceIds: [dev.id], identifiers: ['activePower'], start: new Date(t0 - 1000).toISOString(), end: new Date(t0 + 1000).toISOString(), interval: 'raw' };
        const s = await sheetOf(await post('/template/product/data/export/history', body, eastAdmin.token, GERMAN));
        expect(s.fileName).toBe('Verlauf-Rohdaten.xlsx');
        expect(s.headers[0]).toBe('Zeit (UTC+01:00)');
        expect(s.headers[3]).toMatch(/^Wirkleistung.* \(kW\)$/);
        expect((s.rows[0]![0] as Date).toISOString()).toBe(wallClock(new Date(t0), 60));
        expect(s.rows[0]![3]).toBe(19679.54);
        const [south] = await okData(post<DeviceRecord[]>('/configure/device/query/list', { siteId: southSite.id }));
        const foreign = await post('/template/product/data/export/history', { ...body, deviceIds: [south!.id] }, eastAdmin.token, GERMAN);
        expect(foreign.status).toBe(404);
      } finally {
        await mqtt.endAsync();
      }
    });
  });
});
