import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, eventually, FACTORY_PASSWORD, newUser, type FactoryUser } from '../../../test/factory.ts';

interface PageOf<T> { records: T[]; total: number; current: number; pageSize: number }
interface LoginRow { id: number; username: string; companyId: number | null; ip: string | null; success: boolean; reason: string | null; createdAt: string }
interface AccessRow {
  id: number; userId: number | null; companyId: number | null; username: string | null; method: string; path: string; query: string | null;
  status: number; durationMs: number; errorCode: string | null; requestId: string | null; createdAt: string;
}

async function sheetOf(res: ApiResponse): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((row) => {
    const cells: string[] = [];
    // Times are date cells holding the caller's wall-clock time: read as "YYYY-MM-DD HH:mm:ss".
    row.eachCell({ includeEmpty: true }, (cell) => cells.push(cell.value instanceof Date ? cell.value.toISOString().slice(0, 19).replace('T', ' ') : cell.text));
    rows.push(cells);
  });
  return rows;
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe.each(dbTargets(import.meta.url))('login and access logs on %s', (target) => {
  let t: TestApp;
  let viewer: FactoryUser; // EAST, with both log menus
  let eastUser: FactoryUser; // EAST, no menus
  let ghost: string;
  let southName: string;
  const t0 = new Date(Date.now() - 1000);

  const attempt = (username: string, password: string, ip: string) =>
    t.api.call('POST', '/basic/user/login', { body: { username, password }, headers: { 'x-forwarded-for': ip } });
  const loginPage = (token: string, body: Record<string, unknown>) => t.api.post<PageOf<LoginRow>>('/system/loginLog/query/page', token, body);
  const accessPage = (token: string, body: Record<string, unknown>) => t.api.post<PageOf<AccessRow>>('/system/access/log/query/page', token, body);

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south } = await seededCompanies(t);
    viewer = await newUser(t, east.id, { menus: ['/log/login', '/log/api'] });
    eastUser = await newUser(t, east.id);
    const southUser = await newUser(t, south.id);
    southName = southUser.username;
    ghost = `ghost${Date.now()}`;
    expect((await attempt(ghost, 'whatever1', '10.0.0.7')).status).toBe(406);
    expect((await attempt(eastUser.username, 'Wrong1234', '10.0.0.8')).status).toBe(406);
    expect((await attempt(eastUser.username, FACTORY_PASSWORD, '10.0.0.9')).status).toBe(200);
    expect((await attempt(southUser.username, 'Wrong1234', '10.0.0.8')).status).toBe(406);
  });
  afterAll(async () => t?.stop());

  describe('login log', () => {
    it('lists newest first, with every filter', async () => {
      const r = await loginPage(t.adminToken, { username: eastUser.username });
      expect(r.status).toBe(200);
      // newUser signed in once, then a failure and a success.
      expect(r.body.data.total).toBe(3);
      const times = r.body.data.records.map((x) => Date.parse(x.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(r.body.data.records[0]).toMatchObject({ success: true, ip: '10.0.0.9' });
      expect(r.body.data.records[1]).toMatchObject({ success: false, ip: '10.0.0.8', reason: 'wrong password' });

      const failed = await loginPage(t.adminToken, { username: eastUser.username, success: false });
      expect(failed.body.data.records.map((x) => x.ip)).toEqual(['10.0.0.8']);
      const byIp = await loginPage(t.adminToken, { ip: '10.0.0.8' });
      expect(byIp.body.data.records.map((x) => x.username).sort()).toEqual([eastUser.username, southName].sort());

      const future = await loginPage(t.adminToken, { username: eastUser.username, start: new Date(Date.now() + 3_600_000).toISOString() });
      expect(future.body.data.total).toBe(0);
      const past = await loginPage(t.adminToken, { username: eastUser.username, end: t0.getTime() });
      expect(past.body.data.total).toBe(0);
      const window = await loginPage(t.adminToken, { username: eastUser.username, start: t0.toISOString(), end: new Date(Date.now() + 1000).toISOString() });
      expect(window.body.data.total).toBe(3);

      const paged = await loginPage(t.adminToken, { username: eastUser.username, current: 2, pageSize: 2 });
      expect(paged.body.data).toMatchObject({ total: 3, current: 2, pageSize: 2 });
      expect(paged.body.data.records).toHaveLength(1);
    });

    it('refuses bad filters with 400 naming the field', async () => {
      const bad = await loginPage(t.adminToken, { success: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.tipMsg).toContain('success');
      const range = await loginPage(t.adminToken, { start: '2025-01-02T00:00:00Z', end: '2025-01-01T00:00:00Z' });
      expect(range.status).toBe(400);
      expect(range.body.tipMsg).toBe('开始时间不能晚于结束时间');
    });

    it("limits rows to the caller's companies; rows without a company only to built-in users", async () => {
      const adminGhost = await loginPage(t.adminToken, { username: ghost });
      expect(adminGhost.body.data.total).toBe(1);
      expect(adminGhost.body.data.records[0]).toMatchObject({ companyId: null, success: false, reason: 'unknown user' });
      expect((await loginPage(viewer.token, { username: ghost })).body.data.total).toBe(0);

      const seen = await loginPage(viewer.token, { pageSize: 500 });
      const names = new Set(seen.body.data.records.map((x) => x.username));
      expect(names.has(eastUser.username)).toBe(true);
      expect(names.has(viewer.username)).toBe(true);
      expect(names.has(southName)).toBe(false);
      expect(names.has('admin')).toBe(false);
      expect(names.has(ghost)).toBe(false);
    });

    it('exports the filtered rows as a real workbook', async () => {
      const res = await t.api.post('/system/loginLog/export', t.adminToken, { username: eastUser.username });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(XLSX_MIME);
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('登录日志')}.xlsx`);
      const rows = await sheetOf(res);
      expect(rows[0]).toEqual(['用户名', 'IP', '结果', '原因', '客户端', '时间 (UTC)']);
      expect(rows).toHaveLength(4);
      expect(rows[1]!.slice(0, 3)).toEqual([eastUser.username, '10.0.0.9', '成功']);
      expect(rows[2]!.slice(0, 4)).toEqual([eastUser.username, '10.0.0.8', '失败', 'wrong password']);
      expect(rows[1]![5]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      // Times follow the caller's UTC-Zone offset.
      const utc = await sheetOf(await t.api.call('POST', '/system/loginLog/export', { token: t.adminToken, body: { username: ghost }, headers: { 'utc-zone': '0' } }));
      const cst = await sheetOf(await t.api.call('POST', '/system/loginLog/export', { token: t.adminToken, body: { username: ghost }, headers: { 'utc-zone': '480' } }));
      const diff = Date.parse(`${cst[1]![5]!.replace(' ', 'T')}Z`) - Date.parse(`${utc[1]![5]!.replace(' ', 'T')}Z`);
      expect(diff).toBe(8 * 3_600_000);

      const scoped = await sheetOf(await t.api.post('/system/loginLog/export', viewer.token, { username: ghost }));
      expect(scoped).toHaveLength(1);
    });
  });

  describe('access log', () => {
    const findCall = (token: string, filter: Record<string, unknown>) =>
      eventually(async () => {
        const r = await accessPage(token, filter);
        return r.body.data.total > 0 ? r.body.data.records : undefined;
      });

    it('records a call with user, path, status and duration, flushed in batches', async () => {
      const me = await newUser(t, (await seededCompanies(t)).east.id);
      const call = await t.api.call('POST', '/system/notification/query/count', { token: me.token, query: { probe: 'yes' }, headers: { 'x-request-id': `req-${me.username}` } });
      expect(call.status).toBe(200);
      const rows = await findCall(t.adminToken, { username: me.username, path: '/system/notification/query/count' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        userId: me.id, username: me.username, method: 'POST', path: '/system/notification/query/count', query: 'probe=yes', status: 200,
        errorCode: '00000', requestId: `req-${me.username}`,
      });
      expect(rows[0]!.durationMs).toBeGreaterThanOrEqual(0);

      const one = await t.api.post<AccessRow>('/system/access/log/query/one', t.adminToken, { id: rows[0]!.id });
      expect(one.body.data).toMatchObject({ id: rows[0]!.id, path: '/system/notification/query/count', status: 200 });
      expect((await t.api.post('/system/access/log/query/one', t.adminToken, { id: 2_000_000_000 })).status).toBe(404);
    });

    it('records refusals with their status and code, and filters by method, status and time', async () => {
      const bad = await accessPage(viewer.token, { status: 'abc' });
      expect(bad.status).toBe(400);
      const rows = await findCall(viewer.token, { username: viewer.username, status: 400 });
      expect(rows[0]).toMatchObject({ path: '/system/access/log/query/page', status: 400, errorCode: 'A0400', method: 'POST' });
      expect((await accessPage(viewer.token, { username: viewer.username, status: 400, method: 'get' })).body.data.total).toBe(0);
      expect((await accessPage(viewer.token, { username: viewer.username, status: 400, method: 'post' })).body.data.total).toBe(1);
      expect((await accessPage(viewer.token, { username: viewer.username, start: Date.now() + 3_600_000 })).body.data.total).toBe(0);
    });

    it("limits rows to the caller's companies; anonymous calls only to built-in users", async () => {
      const anon = await t.api.post('/system/access/log/query/page', null, {});
      expect(anon.status).toBe(401);
      const anonRows = await findCall(t.adminToken, { path: '/system/access/log/query/page', status: 401 });
      expect(anonRows[0]).toMatchObject({ userId: null, companyId: null, errorCode: 'A0100' });
      expect((await accessPage(viewer.token, { status: 401 })).body.data.total).toBe(0);

      const adminRows = await findCall(t.adminToken, { username: 'admin' });
      expect((await accessPage(viewer.token, { username: 'admin' })).body.data.total).toBe(0);
      expect((await t.api.post('/system/access/log/query/one', viewer.token, { id: adminRows[0]!.id })).status).toBe(404);
      const visible = await accessPage(viewer.token, { pageSize: 500 });
      const { east } = await seededCompanies(t);
      expect(visible.body.data.total).toBeGreaterThan(0);
      expect(visible.body.data.records.every((x) => x.companyId === east.id)).toBe(true);
    });

    it('exports the filtered rows as a real workbook', async () => {
      await findCall(t.adminToken, { username: viewer.username, status: 400 });
      const res = await t.api.post('/system/access/log/export', viewer.token, { username: viewer.username, status: 400 });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(XLSX_MIME);
      const rows = await sheetOf(res);
      expect(rows[0]).toEqual(['用户名', '请求方式', '接口路径', '查询参数', '状态码', '错误码', '耗时 (ms)', 'IP', '请求编号', '时间 (UTC)']);
      expect(rows).toHaveLength(2);
      expect(rows[1]!.slice(0, 6)).toEqual([viewer.username, 'POST', '/system/access/log/query/page', '', '400', 'A0400']);
    });
  });
});
