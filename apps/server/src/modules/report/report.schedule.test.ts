import { createHmac } from 'node:crypto';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import type { ReportEmbedRecord, ReportEmbedUrl, ReportRunRecord, ReportScheduleRecord } from '@ess/contract/report';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { newRole, newSite, newUser, okData, seededCompanies, until, type FactoryUser } from '../../../test/factory.ts';
import { mailAccount } from '../../db/schema/messaging.ts';
import { reportEmbed } from '../../db/schema/report.ts';
import { userSite } from '../../db/schema/site.ts';
import { appUser } from '../../db/schema/system.ts';
import { attemptMail } from '../messaging/index.ts';
import { nextRunAfter, periodOf, runDueSchedules } from './report.schedule.ts';

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim();

/** The MIME part of this attachment type: its file name (RFC 2231 names decoded) and its base64 body decoded. */
function attachmentOf(folded: string, type: string): { fileName: string; body: Buffer } | null {
  const raw = folded.replace(/\r\n[ \t]+/g, ' ');
  const at = raw.indexOf(`Content-Type: ${type};`);
  if (at < 0) return null;
  const head = raw.slice(at, raw.indexOf('\r\n\r\n', at));
  const body = raw.slice(at + head.length + 4).split('\r\n--')[0]!;
  const disposition = /Content-Disposition: attachment;(.*)$/m.exec(head)?.[1] ?? '';
  const parts = [...disposition.matchAll(/filename(?:\*\d+)?(\*)?="?([^";]+)"?/g)];
  const encoded = parts.some((p) => p[1]);
  let fileName = parts.map((p) => p[2]!.trim()).join('');
  if (encoded) fileName = decodeURIComponent(fileName.replace(/^utf-8''/i, ''));
  return { fileName, body: Buffer.from(body.replace(/\s+/g, ''), 'base64') };
}

/** An HS256 JWT checked with the secret (signature, then expiry at `nowS`): its payload or the reason. */
function verifyJwt(token: string, secret: string, nowS: number): Record<string, unknown> | string {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return 'malformed';
  if ((JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string }).alg !== 'HS256') return 'alg';
  if (createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') !== s) return 'signature';
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  return typeof payload.exp === 'number' && payload.exp > nowS ? payload : 'expired';
}

/**
 * Report schedules and the external report tool: a scheduled report arrives at a real SMTP
 * server (smtp-server) with its export attached, in each recipient's language, once even when
 * two instances sweep at the same moment; recipients without the stations get nothing; the
 * embed URL is a short-lived HS256 JWT whose locked params are the viewer's stations.
 */
describe.each(dbTargets(import.meta.url))('report schedules and embedding on %s', (target) => {
  let t: TestApp;
  let peer: SmtpPeer;
  let eastId: number;
  let southSite: number;
  let mine: number;
  let owner: FactoryUser;
  let english: FactoryUser;
  let german: FactoryUser;
  let outsider: FactoryUser;
  let noMail: FactoryUser;
  let roleId: number;
  let southUser: FactoryUser;

  beforeAll(async () => {
    t = await startTestApp(target);
    peer = await smtpPeer();
    const { east, south } = await seededCompanies(t);
    eastId = east.id;
    mine = (await newSite(t, east.id)).id;
    southSite = (await newSite(t, south.id)).id;
    owner = await newUser(t, east.id, { menus: ['/report/jimu'], siteIds: [mine] });
    english = await newUser(t, east.id, { siteIds: [mine] });
    roleId = await newRole(t, east.id, []);
    german = await newUser(t, east.id, { roleId, siteIds: [mine] });
    outsider = await newUser(t, east.id, { roleId, siteIds: [] });
    noMail = await newUser(t, east.id, { siteIds: [mine] });
    southUser = await newUser(t, south.id, { menus: ['/report/jimu'], siteIds: [southSite] });
    const set = (u: FactoryUser, email: string | null, language: string) => t.ctx.db.update(appUser).set({ email, language }).where(eq(appUser.id, u.id));
    await set(english, 'english@example.com', 'en-US');
    await set(german, 'german@example.com', 'de-DE');
    await set(outsider, 'outsider@example.com', 'zh-CN');
    await set(noMail, null, 'en-US');
    await t.ctx.db.insert(mailAccount).values({
      companyId: east.id, name: 'reports', host: '127.0.0.1', port: peer.port, tlsMode: 'none', fromAddress: 'reports@example.com', isDefault: true,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await peer?.close();
  });

  const schedule = (more: Record<string, unknown> = {}) => ({
    companyId: eastId, name: 'Daily revenue', template: 'revenue', siteIds: [mine], format: 'xlsx', frequency: 'daily', hour: 8, timeZone: 'Asia/Shanghai',
    userIds: [english.id, noMail.id], roleIds: [roleId], ...more,
  });

  it('computes due times and periods in the schedule zone', () => {
    const w = { frequency: 'daily' as const, hour: 8, weekday: 1, monthDay: 1, timeZone: 'Asia/Shanghai' };
    // 2026-03-04 07:00 in Shanghai (23:00 UTC the day before) → 08:00 that day.
    expect(nextRunAfter(w, new Date('2026-03-03T23:00:00Z')).toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(nextRunAfter(w, new Date('2026-03-04T00:00:00Z')).toISOString()).toBe('2026-03-05T00:00:00.000Z');
    // Weekly on Monday (2026-03-09 is a Monday); monthly on the 1st.
    expect(nextRunAfter({ ...w, frequency: 'weekly' }, new Date('2026-03-04T00:00:00Z')).toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(nextRunAfter({ ...w, frequency: 'monthly' }, new Date('2026-03-04T00:00:00Z')).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    const due = new Date('2026-04-01T00:00:00Z');
    expect(periodOf(w, due)).toEqual({ start: '2026-03-31', end: '2026-03-31' });
    expect(periodOf({ ...w, frequency: 'weekly' }, due)).toEqual({ start: '2026-03-25', end: '2026-03-31' });
    expect(periodOf({ ...w, frequency: 'monthly' }, due)).toEqual({ start: '2026-03-01', end: '2026-03-31' });
  });

  it('refuses bad schedules, foreign stations, recipients and schedules', async () => {
    const bad = async (body: unknown, tip: string) => {
      const r = await t.api.post('/report/schedule/add', owner.token, body);
      expect(r.status).toBe(400);
      expect(r.body.tipMsg).toContain(tip);
    };
    await bad(schedule({ userIds: [], roleIds: [] }), '请选择至少一个接收用户或角色');
    await bad(schedule({ hour: 24 }), '发送时刻应为0–23');
    await bad(schedule({ frequency: 'hourly' }), '频率应为 daily、weekly 或 monthly');
    await bad(schedule({ timeZone: 'Mars/Base' }), '时区不正确');
    await bad(schedule({ name: '' }), '请输入计划名称');
    expect((await t.api.post('/report/schedule/add', owner.token, schedule({ siteIds: [mine, southSite] }))).status).toBe(403);
    expect((await t.api.post('/report/schedule/add', owner.token, schedule({ userIds: [southUser.id] }))).status).toBe(403);
    const { south } = await seededCompanies(t);
    expect((await t.api.post('/report/schedule/add', owner.token, schedule({ companyId: south.id }))).status).toBe(403);
    const { id } = await okData(t.api.post<{ id: number }>('/report/schedule/add', southUser.token, schedule({ companyId: south.id, siteIds: [southSite], userIds: [southUser.id], roleIds: [], name: 'south' })));
    expect((await t.api.post('/report/schedule/query/one', owner.token, { id })).status).toBe(404);
    expect((await t.api.post('/report/schedule/edit', owner.token, { id, ...schedule() })).status).toBe(404);
    expect((await t.api.get('/report/schedule/delete', owner.token, { id })).status).toBe(404);
    const page = await okData(t.api.post<Page<ReportScheduleRecord>>('/report/schedule/query/page', owner.token, {}));
    expect(page.records.map((r) => r.id)).not.toContain(id);
    const noMenu = await newUser(t, eastId, { siteIds: [mine] });
    expect((await t.api.post('/report/schedule/query/page', noMenu.token, {})).status).toBe(403);
    expect((await t.api.get('/report/schedule/delete', southUser.token, { id })).status).toBe(200);
  });

  it('mails the report with its export to each recipient in their language, once with two instances', async () => {
    const { id } = await okData(t.api.post<{ id: number }>('/report/schedule/add', owner.token, schedule()));
    const rec = await okData(t.api.post<ReportScheduleRecord>('/report/schedule/query/one', owner.token, { id }));
    expect([rec.ownerId, rec.enabled, rec.userIds, rec.roleIds]).toEqual([owner.id, true, [english.id, noMail.id], [roleId]]);
    const due = new Date(rec.nextRunAt!);
    // 08:00 in Shanghai.
    expect(due.getUTCHours()).toBe(0);
    expect(due.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing runs.
    expect(await runDueSchedules(t.ctx, new Date(due.getTime() - 1000))).toEqual([]);

    // Two instances sweep at the same moment: one run.
    const at = new Date(due.getTime() + 5000);
    const [a, b] = await Promise.all([runDueSchedules(t.ctx, at), runDueSchedules(t.ctx, at)]);
    expect([...a, ...b]).toHaveLength(1);
    expect(await runDueSchedules(t.ctx, at)).toEqual([]);
    const after = await okData(t.api.post<ReportScheduleRecord>('/report/schedule/query/one', owner.token, { id }));
    expect(Date.parse(after.nextRunAt!) - due.getTime()).toBe(86_400_000);

    const runs = await okData(t.api.post<Page<ReportRunRecord>>('/report/schedule/run/query/page', owner.token, { scheduleId: id }));
    expect(runs.total).toBe(1);
    const run = runs.records[0]!;
    expect(run.state).toBe('sent');
    expect(run.dueAt).toBe(due.toISOString());
    const day = new Date(due.getTime() + 8 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    expect([run.start, run.end]).toEqual([day, day]);
    const by = new Map(run.recipients.map((r) => [r.userId, r]));
    expect(by.get(english.id)).toMatchObject({ language: 'en-US', skipped: null });
    expect(by.get(german.id)).toMatchObject({ language: 'de-DE', skipped: null });
    expect(by.get(outsider.id)).toMatchObject({ mailId: null, skipped: '接收人无权访问报表中的站点' });
    expect(by.get(noMail.id)).toMatchObject({ mailId: null, skipped: '接收人未设置邮箱' });

    for (const r of run.recipients) if (r.mailId !== null) await attemptMail(t.ctx, r.mailId);
    await until('two mails at the SMTP peer', () => peer.received.length >= 2);
    expect(peer.received).toHaveLength(2);
    const to = (address: string) => peer.received.find((m) => m.to.includes(address))!.raw;
    const en = to('english@example.com');
    expect(header(en, 'Subject')).toBe(`Report: Daily revenue (${day} to ${day})`);
    const file = attachmentOf(en, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file?.fileName).toBe(`Revenue report-${day}-${day}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file!.body as unknown as ArrayBuffer);
    expect(book.worksheets.length).toBeGreaterThan(1);
    const de = to('german@example.com');
    expect(header(de, 'Subject')).toContain('Daily revenue');
    expect(header(de, 'Subject')).not.toBe(header(en, 'Subject'));
    expect(attachmentOf(de, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')?.fileName).toBe(`Erlösbericht-${day}-${day}.xlsx`);
    expect(peer.received.some((m) => m.to.includes('outsider@example.com'))).toBe(false);

    const later = await okData(t.api.post<Page<ReportRunRecord>>('/report/schedule/run/query/page', owner.token, { scheduleId: id }));
    expect(later.records[0]!.recipients.filter((r) => r.mailState === 'sent')).toHaveLength(2);
    // Another company's user sees no run of it.
    expect((await okData(t.api.post<Page<ReportRunRecord>>('/report/schedule/run/query/page', southUser.token, {}))).total).toBe(0);
  });

  it('a run whose owner lost the stations fails with the reason, and sends nothing', async () => {
    const lost = await newUser(t, eastId, { menus: ['/report/jimu'], siteIds: [mine] });
    const { id } = await okData(t.api.post<{ id: number }>('/report/schedule/add', lost.token, schedule({ name: 'lost', roleIds: [], userIds: [english.id], format: 'pdf' })));
    await t.ctx.db.delete(userSite).where(eq(userSite.userId, lost.id));
    const rec = await okData(t.api.post<ReportScheduleRecord>('/report/schedule/query/one', owner.token, { id }));
    const sent = peer.received.length;
    await runDueSchedules(t.ctx, new Date(Date.parse(rec.nextRunAt!) + 1000));
    const runs = await okData(t.api.post<Page<ReportRunRecord>>('/report/schedule/run/query/page', owner.token, { scheduleId: id }));
    expect([runs.records[0]!.state, runs.records[0]!.error]).toEqual(['failed', '包含无权访问的站点']);
    expect(peer.received.length).toBe(sent);
  });

  it('the embed URL is an HS256 JWT of Metabase\'s payload, locked to the viewer\'s stations, and expires', async () => {
    const SECRET = 'a-metabase-embedding-secret-key-0123456789abcdef';
    const none = await okData(t.api.post<ReportEmbedRecord>('/report/embed/query/one', t.adminToken, {}));
    expect([none.enabled, none.hasSecret, none.editable]).toEqual([false, false, true]);
    expect((await t.api.post('/report/embed/url', owner.token, { dashboard: 7 })).status).toBe(406);
    const config = { enabled: true, tool: 'metabase', siteUrl: 'https://bi.example.com/', secret: SECRET, dashboards: [{ id: 7, name: 'Fleet' }] };
    // Only an administrator of the installation edits it.
    expect((await t.api.post('/report/embed/edit', owner.token, config)).status).toBe(403);
    const short = await t.api.post('/report/embed/edit', t.adminToken, { ...config, secret: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.tipMsg).toContain('请填写嵌入密钥（至少32个字符）');
    expect((await t.api.post('/report/embed/edit', t.adminToken, { ...config, siteUrl: 'ftp://x' })).status).toBe(400);
    await okData(t.api.post('/report/embed/edit', t.adminToken, config));
    const one = await t.api.post<ReportEmbedRecord>('/report/embed/query/one', owner.token, {});
    expect(JSON.stringify(one.body)).not.toContain(SECRET);
    expect(one.body.data).toMatchObject({ enabled: true, tool: 'metabase', siteUrl: 'https://bi.example.com', hasSecret: true, editable: false, siteParam: 'site_id' });
    const [row] = await t.ctx.db.select().from(reportEmbed);
    expect(row!.secretEnc).not.toContain(SECRET);

    const before = Math.floor(Date.now() / 1000);
    const signed = await okData(t.api.post<ReportEmbedUrl>('/report/embed/url', owner.token, { dashboard: 7 }));
    const m = /^https:\/\/bi\.example\.com\/embed\/dashboard\/([^#]+)#bordered=true&titled=true$/.exec(signed.url);
    expect(m).not.toBeNull();
    const payload = verifyJwt(m![1]!, SECRET, before);
    expect(payload).toMatchObject({ resource: { dashboard: 7 }, params: { site_id: [mine] } });
    const exp = (payload as { exp: number }).exp;
    expect(exp - before).toBeGreaterThanOrEqual(600);
    expect(exp - before).toBeLessThanOrEqual(602);
    expect(Date.parse(signed.expiresAt) / 1000).toBe(exp);
    expect(verifyJwt(m![1]!, 'another-secret-of-the-same-length-0123456789abc', before)).toBe('signature');
    expect(verifyJwt(m![1]!, SECRET, exp)).toBe('expired');
    // The south user's URL carries their stations only.
    const south = await okData(t.api.post<ReportEmbedUrl>('/report/embed/url', southUser.token, { dashboard: 7 }));
    expect(south.siteIds).toEqual([southSite]);
    // A dashboard not configured, no menu: refused.
    expect((await t.api.post('/report/embed/url', owner.token, { dashboard: 8 })).status).toBe(404);
    const noMenu = await newUser(t, eastId, { siteIds: [mine] });
    expect((await t.api.post('/report/embed/url', noMenu.token, { dashboard: 7 })).status).toBe(403);
    // An edit without a secret keeps the stored one.
    await okData(t.api.post('/report/embed/edit', t.adminToken, { ...config, secret: null, tool: 'jimureport' }));
    const jimu = await okData(t.api.post<ReportEmbedUrl>('/report/embed/url', owner.token, { dashboard: 7 }));
    const token = /\/jmreport\/view\/7\?token=(.+)$/.exec(jimu.url)![1]!;
    expect(verifyJwt(token, SECRET, before)).toMatchObject({ params: { site_id: [mine] } });
  });
});
