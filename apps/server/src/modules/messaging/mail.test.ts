import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import {
  CONNECTION_FAILED, CONNECTION_SUCCEEDED, PORT_RANGE, SEND_FAILED, SEND_SUCCEEDED, STORED_SECRET_MOVED, TEMPLATE_UNKNOWN_VARIABLE, TEST_TARGET_REQUIRED, type ConnectionTestResult, type MailAccountRecord,
  type MailLogDetail, type MailLogRecord, type MailPreview, type MailTemplateRecord, type SendTestResult,
} from '@ess/contract/messaging';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { newAlarm, newCompany, newDevice, newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { mailAccount, mailLog, mailTemplate } from '../../db/schema/messaging.ts';
import { accessLog } from '../../db/schema/system.ts';
import { attemptMail, DAILY_LIMIT_REACHED, insertMail, MAIL_MAX_ATTEMPTS, pruneMailLog } from './mail.send.ts';
import { TEST_MAIL_SUBJECT } from './mail.account.service.ts';
import { serverPack } from '../../../test/packs.ts';

/**
 * Mail against real SMTP peers (smtp-server from npm, started here on free ports): a plain server,
 * one offering STARTTLS with a self-signed certificate made in the test, one speaking TLS from the
 * first byte, one without STARTTLS, one requiring AUTH, and one refusing recipients (temporary,
 * then permanent). Messages arrive with their headers and both parts; the account's TLS mode is
 * honoured; the password appears in no answer, export or log line.
 */

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim();
const PASSWORD = 'S3cret-smtp-Pa55';

describe.each(dbTargets(import.meta.url))('mail on %s', (target) => {
  let t: TestApp;
  let lines = '';
  let companyId: number;
  let foreignCompanyId: number;
  let mailUser: FactoryUser;
  let plain: SmtpPeer;
  let starttls: SmtpPeer;
  let implicit: SmtpPeer;
  let noStarttls: SmtpPeer;
  let auth: SmtpPeer;
  let pem: { private: string; cert: string };
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const account = (port: number, extra: Record<string, unknown> = {}) => ({
    companyId, name: `acc-${port}-${Math.random().toString(36).slice(2, 7)}`, host: '127.0.0.1', port, tlsMode: 'none',
    fromName: 'Ops Desk', fromAddress: 'ops@example.com', ...extra,
  });
  const addAccount = async (port: number, extra: Record<string, unknown> = {}) =>
    (await okData(post<{ id: number }>('/mail/account/add', account(port, extra)))).id;
  const count = async (table: typeof mailAccount | typeof mailTemplate | typeof mailLog) =>
    Number((await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${table}`)).rows[0]!.n);

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines += chunk.toString('utf8');
        cb();
      },
    });
    t = await startTestApp(target, { MAIL_TIMEOUT_MS: '4000' }, undefined, undefined, pino({ level: 'trace' }, sink));
    const { group } = await seededCompanies(t);
    companyId = (await newCompany(t, group.id)).id;
    foreignCompanyId = (await newCompany(t, group.id)).id;
    // A user of the company with the mail pages (scope: their company and below).
    mailUser = await newUser(t, companyId, { menus: ['/mail/mail-account', '/mail/mail-template', '/mail/mail-log'] });
    const cert = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
    pem = { private: cert.private, cert: cert.cert };
    plain = await smtpPeer({});
    starttls = await smtpPeer({ key: pem.private, cert: pem.cert });
    implicit = await smtpPeer({ secure: true, key: pem.private, cert: pem.cert });
    noStarttls = await smtpPeer({ hideSTARTTLS: true, disabledCommands: ['STARTTLS'] });
    auth = await smtpPeer({
      authOptional: false,
      onAuth(a, _session, cb) {
        if (a.username === 'mailer' && a.password === PASSWORD) cb(null, { user: 'mailer' });
        else cb(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
      },
    });
  }, 60_000);

  afterAll(async () => {
    for (const p of [plain, starttls, implicit, noStarttls, auth]) await p?.close();
    await t?.stop();
  });

  it('sends a test mail through a real SMTP conversation: From, To, Subject, HTML and text parts, the server’s message id in the log', async () => {
    const accountId = await addAccount(plain.port);
    const site = await newSite(t, companyId, { name: 'R&D <Lab>' });
    const dev = await newDevice(t, site.id, { type: 'bms', name: 'BMS-7' });
    await newAlarm(t, dev.id, { level: 1, description: 'Cell over-temperature' });
    const { id: templateId } = await okData(
      post<{ id: number }>('/mail/template/add', {
        companyId, name: 'Alarm', code: 'alarm.opened', language: 'en-US',
        subject: 'Level ${level} at ${station}', html: '<h1>${station}</h1><p>${device}: ${description}</p>',
      }),
    );
    const r = await okData(post<SendTestResult>('/mail/account/test/send', { id: accountId, to: 'oncall@example.com', templateId, siteId: site.id }));
    expect(r).toMatchObject({ ok: true, message: SEND_SUCCEEDED, reason: null });
    const m = plain.received.at(-1)!;
    expect(m.from).toBe('ops@example.com');
    expect(m.to).toEqual(['oncall@example.com']);
    expect(header(m.raw, 'From')).toBe('Ops Desk <ops@example.com>');
    expect(header(m.raw, 'To')).toBe('oncall@example.com');
    // The subject is plain text: the station's name as it is.
    expect(header(m.raw, 'Subject')).toBe('Level 1 at R&D <Lab>');
    expect(m.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(m.raw).toMatch(/Content-Type: text\/plain/);
    expect(m.raw).toMatch(/Content-Type: text\/html/);
    // HTML escapes the value; the text part keeps it plain.
    expect(m.raw).toContain('<h1>R&amp;D &lt;Lab&gt;</h1>');
    expect(m.raw).toContain('BMS-7: Cell over-temperature');
    expect(r.providerMessageId).toBe(header(m.raw, 'Message-ID'));
    const log = await okData(post<MailLogDetail>('/mail/log/query/one', { id: r.logId }));
    expect(log).toMatchObject({ state: 'sent', attempts: 1, recipient: 'oncall@example.com', subject: 'Level 1 at R&D <Lab>', origin: 'test', templateName: 'Alarm', error: null });
    expect(log.providerMessageId).toBe(r.providerMessageId);
    expect(log.html).toContain('R&amp;D');
  });

  it('honours STARTTLS: upgraded with a self-signed certificate when told not to verify, refused when verifying, refused by a server without STARTTLS', async () => {
    const lax = await addAccount(starttls.port, { tlsMode: 'starttls', verifyCertificate: false });
    expect(await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id: lax }))).toMatchObject({ ok: true, message: CONNECTION_SUCCEEDED });
    await okData(post<SendTestResult>('/mail/account/test/send', { id: lax, to: 'a@example.com' }));
    expect(starttls.received.at(-1)!.secure).toBe(true);

    const strict = await addAccount(starttls.port, { tlsMode: 'starttls', verifyCertificate: true });
    const refused = await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id: strict }));
    expect(refused).toMatchObject({ ok: false, message: CONNECTION_FAILED });
    expect(refused.reason).toMatch(/self[- ]signed/i);

    const required = await addAccount(noStarttls.port, { tlsMode: 'starttls', verifyCertificate: false });
    const noTls = await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id: required }));
    expect(noTls).toMatchObject({ ok: false, message: CONNECTION_FAILED });
    expect(noTls.reason).toMatch(/^STARTTLS: 500/);
    // The same server is fine for an account that asks for no TLS; and "none" never upgrades.
    const none = await addAccount(starttls.port, { tlsMode: 'none' });
    await okData(post<SendTestResult>('/mail/account/test/send', { id: none, to: 'b@example.com' }));
    expect(starttls.received.at(-1)!.secure).toBe(false);
    // The outcome of a saved account's test is kept on it.
    const rec = await okData(post<MailAccountRecord>('/mail/account/query/one', { id: strict }));
    expect(rec).toMatchObject({ lastTestOk: false });
    expect(rec.lastTestReason).toMatch(/self[- ]signed/i);
  });

  it('speaks TLS from the first byte in tls mode', async () => {
    const id = await addAccount(implicit.port, { tlsMode: 'tls', verifyCertificate: false });
    const r = await okData(post<SendTestResult>('/mail/account/test/send', { id, to: 'tls@example.com' }));
    expect(r.ok).toBe(true);
    expect(implicit.received.at(-1)).toMatchObject({ secure: true, to: ['tls@example.com'] });
    // A plain account against the TLS port fails with the server's reason.
    const wrong = await okData(post<ConnectionTestResult>('/mail/account/test/connection', { ...account(implicit.port), tlsMode: 'none' }));
    expect(wrong.ok).toBe(false);
    expect(wrong.reason).toBeTruthy();
  });

  it('answers "Connection failed" with the reason for a closed port, and tests unsaved form values', async () => {
    const port = await closedPort();
    const r = await okData(post<ConnectionTestResult>('/mail/account/test/connection', account(port)));
    expect(r).toMatchObject({ ok: false, message: CONNECTION_FAILED });
    expect(r.reason).toMatch(/ECONNREFUSED/);
    expect(await count(mailAccount)).toBe((await t.ctx.db.select().from(mailAccount)).length);
  });

  it('authenticates with the sealed password; the password is in no answer, export, log line or access log', async () => {
    const id = await addAccount(auth.port, { username: 'mailer', password: PASSWORD });
    const [row] = await t.ctx.db.select({ enc: mailAccount.passwordEnc }).from(mailAccount).where(eq(mailAccount.id, id));
    expect(row!.enc).toMatch(/^v1\./);
    expect(row!.enc).not.toContain(PASSWORD);
    const rec = await post<MailAccountRecord>('/mail/account/query/one', { id });
    expect(rec.body.data.passwordSet).toBe(true);
    expect(rec.raw.toString()).not.toContain(PASSWORD);
    expect(await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id }))).toMatchObject({ ok: true });
    const sent = await okData(post<SendTestResult>('/mail/account/test/send', { id, to: 'auth@example.com' }));
    expect(sent.ok).toBe(true);
    expect(auth.received.at(-1)!.user).toBe('mailer');
    // A wrong password in the form (not saved): refused by the server, 535 in the reason, the wrong password nowhere.
    const wrong = await post<ConnectionTestResult>('/mail/account/test/connection', { id, ...account(auth.port, { username: 'mailer', password: 'wrong-Passw0rd' }) });
    expect(wrong.body.data).toMatchObject({ ok: false, message: CONNECTION_FAILED });
    expect(wrong.body.data.reason).toMatch(/535/);
    expect(wrong.raw.toString()).not.toContain('wrong-Passw0rd');
    // Edit without a password keeps it; the page and list never carry it.
    await okData(post('/mail/account/edit', { id, ...account(auth.port, { name: 'auth-kept', username: 'mailer' }) }));
    expect(await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id }))).toMatchObject({ ok: true });
    const page = await post<Page<MailAccountRecord>>('/mail/account/query/page', { pageSize: 100 });
    expect(page.raw.toString()).not.toContain(PASSWORD);
    expect(page.body.data.records.find((a) => a.id === id)).toMatchObject({ passwordSet: true, name: 'auth-kept' });
    expect((await post('/mail/account/query/list', {})).raw.toString()).not.toContain(PASSWORD);
    // The export of the log.
    const file = await t.api.call('POST', '/mail/log/export', { token: t.adminToken, body: {} });
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.worksheets[0]!.eachRow((r) => r.eachCell((c) => void cells.push(c.text)));
    expect(cells).toContain('auth@example.com');
    expect(cells.join('\n')).not.toContain(PASSWORD);
    // Every log line of the server so far, and the access log.
    await new Promise((r) => setTimeout(r, 300));
    expect(lines.length).toBeGreaterThan(100);
    expect(lines).not.toContain(PASSWORD);
    expect(lines).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    const access = await t.ctx.db.select().from(accessLog);
    expect(JSON.stringify(access)).not.toContain(PASSWORD);
    // Clearing it: null.
    await okData(post('/mail/account/edit', { id, ...account(auth.port, { name: 'auth-kept', username: 'mailer', password: null }) }));
    expect((await okData(post<MailAccountRecord>('/mail/account/query/one', { id }))).passwordSet).toBe(false);
  });

  it('tests and sends through the form’s unsaved values: the password typed, or the stored one (left empty) only towards the same server and user', async () => {
    const before = await count(mailAccount);
    // A new account, not saved: its typed password authenticates; the mail goes out, logged without an account.
    const fresh = account(auth.port, { username: 'mailer', password: PASSWORD, fromAddress: 'new@example.com' });
    expect(await okData(post<ConnectionTestResult>('/mail/account/test/connection', fresh))).toMatchObject({ ok: true });
    const sent = await post<SendTestResult>('/mail/account/test/send', { account: fresh, to: 'unsaved@example.com' });
    expect(sent.body.data).toMatchObject({ ok: true, message: SEND_SUCCEEDED });
    expect(sent.raw.toString()).not.toContain(PASSWORD);
    expect(auth.received.at(-1)).toMatchObject({ user: 'mailer', from: 'new@example.com' });
    expect(await count(mailAccount)).toBe(before);
    const log = await okData(post<MailLogDetail>('/mail/log/query/one', { id: sent.body.data.logId }));
    expect(log).toMatchObject({ accountId: null, accountName: fresh.name, state: 'sent', origin: 'test' });
    // The fixed test mail in the caller's language.
    const english = await t.api.call('POST', '/mail/account/test/send', { token: t.adminToken, body: { account: fresh, to: 'en@example.com' }, headers: { 'client-language': 'en-US' } });
    expect(english.status).toBe(200);
    expect(header(auth.received.at(-1)!.raw, 'Subject')).toBe(serverPack('en-US')[TEST_MAIL_SUBJECT]);
    expect(serverPack('en-US')[TEST_MAIL_SUBJECT]).not.toBe(TEST_MAIL_SUBJECT);
    // Neither a saved account nor settings: refused.
    const neither = await post('/mail/account/test/send', { to: 'x@example.com' });
    expect([neither.status, neither.body.tipMsg]).toEqual([400, expect.stringContaining(TEST_TARGET_REQUIRED)]);

    // A saved account edited in the form: the password left empty is the stored one; what was edited is used, nothing stored changes.
    const id = await addAccount(auth.port, { username: 'mailer', password: PASSWORD });
    const [stored] = await t.ctx.db.select().from(mailAccount).where(eq(mailAccount.id, id));
    const edited = account(auth.port, { username: 'mailer', fromAddress: 'edited@example.com' });
    expect(await okData(post<SendTestResult>('/mail/account/test/send', { id, account: edited, to: 'edited@example.com' }))).toMatchObject({ ok: true });
    expect(auth.received.at(-1)!.from).toBe('edited@example.com');
    expect(await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id, ...edited }))).toMatchObject({ ok: true });
    expect((await t.ctx.db.select().from(mailAccount).where(eq(mailAccount.id, id)))[0]).toEqual(stored);
    // The password cleared in the form (null): none is sent, the server refuses.
    const cleared = await okData(post<ConnectionTestResult>('/mail/account/test/connection', { id, ...edited, password: null }));
    expect(cleared).toMatchObject({ ok: false, message: CONNECTION_FAILED });
    // Another host or user with the password left empty: the stored password goes nowhere else; typed again it may.
    const received = auth.received.length;
    for (const moved of [{ host: 'localhost' }, { username: 'someone-else' }]) {
      const r = await post('/mail/account/test/connection', { id, ...edited, ...moved });
      expect([r.status, r.body.tipMsg]).toEqual([400, expect.stringContaining(STORED_SECRET_MOVED)]);
      const s = await post('/mail/account/test/send', { id, account: { ...edited, ...moved }, to: 'x@example.com' });
      expect([s.status, s.body.tipMsg]).toEqual([400, expect.stringContaining(STORED_SECRET_MOVED)]);
    }
    expect(auth.received.length).toBe(received);
    expect((await post('/mail/account/test/connection', { id, ...edited, username: 'someone-else', password: 'typed' })).status).toBe(200);

    // Scope: another company's settings or account.
    const foreign = await okData(post<{ id: number }>('/mail/account/add', { ...account(plain.port), companyId: foreignCompanyId }));
    expect((await post('/mail/account/test/send', { account: { ...account(plain.port), companyId: foreignCompanyId }, to: 'x@example.com' }, mailUser.token)).status).toBe(403);
    expect((await post('/mail/account/test/connection', { ...account(plain.port), companyId: foreignCompanyId }, mailUser.token)).status).toBe(403);
    expect((await post('/mail/account/test/send', { id: foreign.id, account: account(plain.port), to: 'x@example.com' }, mailUser.token)).status).toBe(404);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const before = [await count(mailAccount), await count(mailTemplate)];
    const port = await post('/mail/account/add', account(25, { port: 70000 }));
    expect(port.status).toBe(400);
    expect(port.body.tipMsg).toContain(PORT_RANGE);
    const addr = await post('/mail/account/add', account(25, { fromAddress: 'not an address' }));
    expect(addr.status).toBe(400);
    const test = await post('/mail/account/test/send', { id: 1, to: 'nobody@' });
    expect(test.status).toBe(400);
    const tpl = await post('/mail/template/add', { companyId, name: 'Bad', code: 'bad', language: 'en-US', subject: 'x', html: '<p>${stationn}</p>' });
    expect(tpl.status).toBe(400);
    expect(tpl.body.tipMsg).toContain(`${TEMPLATE_UNKNOWN_VARIABLE}：stationn`);
    const unclosed = await post('/mail/template/add', { companyId, name: 'Bad', code: 'bad', language: 'en-US', subject: 'x ${station', html: '<p/>' });
    expect(unclosed.status).toBe(400);
    const lang = await post('/mail/template/add', { companyId, name: 'Bad', code: 'bad', language: 'xx-XX', subject: 'x', html: '<p/>' });
    expect(lang.status).toBe(400);
    expect([await count(mailAccount), await count(mailTemplate)]).toEqual(before);
    // A duplicate name in the company: 406, nothing written.
    await addAccount(plain.port, { name: 'dup' });
    const dup = await post('/mail/account/add', account(plain.port, { name: 'dup' }));
    expect(dup.body.errorCode).toBe('A0409');
  });

  it('refuses the signed-out, a role without the mail pages, and another company’s records', async () => {
    const foreign = await okData(post<{ id: number }>('/mail/account/add', { ...account(plain.port), companyId: foreignCompanyId }));
    expect((await t.api.post('/mail/account/query/page', null, {})).status).toBe(401);
    const other = await newUser(t, companyId, { menus: ['/system/user'] });
    expect((await t.api.post('/mail/account/query/page', other.token, {})).status).toBe(403);
    expect((await t.api.post('/mail/log/query/page', other.token, {})).status).toBe(403);
    // The mail user sees their company's accounts only.
    const mine = await okData(post<Page<MailAccountRecord>>('/mail/account/query/page', { pageSize: 100 }, mailUser.token));
    expect(mine.records.every((a) => a.companyId === companyId)).toBe(true);
    expect(mine.records.length).toBeGreaterThan(0);
    expect((await post('/mail/account/query/one', { id: foreign.id }, mailUser.token)).status).toBe(404);
    expect((await post('/mail/account/test/connection', { id: foreign.id }, mailUser.token)).status).toBe(404);
    expect((await t.api.get('/mail/account/delete', mailUser.token, { id: foreign.id })).status).toBe(404);
    expect((await post('/mail/account/add', { ...account(plain.port), companyId: foreignCompanyId }, mailUser.token)).status).toBe(403);
    expect(await t.ctx.db.select().from(mailAccount).where(eq(mailAccount.id, foreign.id))).toHaveLength(1);
  });

  it('previews with a real station’s data and picks the language variant (else the default language’s)', async () => {
    const site = await newSite(t, companyId, { name: 'Preview Station' });
    const dev = await newDevice(t, site.id, { type: 'pcs', name: 'PCS-1' });
    await newAlarm(t, dev.id, { level: 2, description: 'Grid fault' });
    const base = { companyId, name: 'Offline', code: 'preview.lang', subject: '${station}/${device}', html: '<p>${level} ${description}</p>' };
    const zh = (await okData(post<{ id: number }>('/mail/template/add', { ...base, language: 'zh-CN', subject: '中文 ${station}' }))).id;
    await okData(post('/mail/template/add', { ...base, language: 'en-US', subject: 'EN ${station}' }));
    const en = await okData(post<MailPreview>('/mail/template/preview', { id: zh, siteId: site.id, language: 'en-US' }));
    expect(en).toMatchObject({ subject: 'EN Preview Station', html: '<p>2 Grid fault</p>', text: '2 Grid fault', siteId: site.id, siteName: 'Preview Station' });
    expect(en.values).toMatchObject({ station: 'Preview Station', device: 'PCS-1', level: '2', description: 'Grid fault' });
    const de = await okData(post<MailPreview>('/mail/template/preview', { id: zh, siteId: site.id, language: 'de-DE' }));
    expect(de.subject).toBe('中文 Preview Station');
    // Unsaved text from the form, validated the same way.
    const form = await okData(post<MailPreview>('/mail/template/preview', { companyId, subject: '${device}', html: '<b>${station}</b>', siteId: site.id }));
    expect(form).toMatchObject({ subject: 'PCS-1', html: '<b>Preview Station</b>', variables: ['device', 'station'] });
    const rec = await okData(post<MailTemplateRecord>('/mail/template/query/one', { id: zh }));
    expect(rec.variables).toEqual(['station', 'level', 'description']);
  });

  it('retries a temporary refusal with backoff and fails a permanent one with the server’s reason; nothing is lost', async () => {
    let refuse: 'temporary' | 'permanent' | null = 'temporary';
    const flaky = await smtpPeer({
      onRcptTo(_a, _s, cb) {
        if (refuse === 'temporary') cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        else if (refuse === 'permanent') cb(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        else cb();
      },
    });
    try {
      const accountId = await addAccount(flaky.port);
      const mail = { companyId, accountId, recipient: 'retry@example.com', subject: 's', html: '<p>h</p>', text: 'h', origin: 'rule' as const };
      const id = await insertMail(t.ctx, mail);
      const t0 = new Date();
      const first = await attemptMail(t.ctx, id, { now: t0 });
      expect(first).toMatchObject({ ok: false, state: 'retrying' });
      expect(first.reason).toMatch(/451.*Mailbox busy/);
      const [r1] = await t.ctx.db.select().from(mailLog).where(eq(mailLog.id, id));
      expect(r1).toMatchObject({ state: 'retrying', attempts: 1 });
      expect(r1!.nextAttemptAt!.getTime() - t0.getTime()).toBe(60_000);
      // Not due yet: left alone.
      expect((await attemptMail(t.ctx, id, { now: new Date(t0.getTime() + 30_000) })).state).toBe('skipped');
      // Due: the server takes it now.
      refuse = null;
      const second = await attemptMail(t.ctx, id, { now: new Date(t0.getTime() + 61_000) });
      expect(second).toMatchObject({ ok: true, state: 'sent' });
      expect(flaky.received.at(-1)!.to).toEqual(['retry@example.com']);

      refuse = 'permanent';
      const id2 = await insertMail(t.ctx, { ...mail, recipient: 'gone@example.com' });
      const perm = await attemptMail(t.ctx, id2, { now: t0 });
      expect(perm).toMatchObject({ ok: false, state: 'failed' });
      const log = await okData(post<MailLogDetail>('/mail/log/query/one', { id: id2 }));
      expect(log).toMatchObject({ state: 'failed', attempts: 1 });
      expect(log.error).toMatch(/550.*No such user/);

      // A server that keeps answering 451: retried MAIL_MAX_ATTEMPTS times in all, then failed with the reason.
      refuse = 'temporary';
      const id3 = await insertMail(t.ctx, { ...mail, recipient: 'busy@example.com' });
      let at = t0.getTime();
      for (let i = 0; i < MAIL_MAX_ATTEMPTS; i++) {
        const r = await attemptMail(t.ctx, id3, { now: new Date(at) });
        expect(r.state).toBe(i < MAIL_MAX_ATTEMPTS - 1 ? 'retrying' : 'failed');
        at += 3_600_000;
      }
      const [r3] = await t.ctx.db.select().from(mailLog).where(eq(mailLog.id, id3));
      expect(r3).toMatchObject({ state: 'failed', attempts: MAIL_MAX_ATTEMPTS });
      expect(r3!.error).toMatch(/451/);
      const failed = await okData(post<Page<MailLogRecord>>('/mail/log/query/page', { state: 'failed', recipient: 'example.com', pageSize: 100 }));
      expect(failed.records.map((r) => r.recipient)).toEqual(expect.arrayContaining(['gone@example.com', 'busy@example.com']));
    } finally {
      await flaky.close();
    }
  });

  it('keeps to the account’s daily limit', async () => {
    const id = await addAccount(plain.port, { dailyLimit: 1 });
    expect((await okData(post<SendTestResult>('/mail/account/test/send', { id, to: 'one@example.com' }))).ok).toBe(true);
    const second = await okData(post<SendTestResult>('/mail/account/test/send', { id, to: 'two@example.com' }));
    expect(second).toMatchObject({ ok: false, message: SEND_FAILED, reason: DAILY_LIMIT_REACHED });
    expect((await okData(post<MailAccountRecord>('/mail/account/query/one', { id }))).sentToday).toBe(1);
  });

  it('prunes log rows past the retention age', async () => {
    const [old] = await t.ctx.db
      .insert(mailLog)
      .values({ companyId, recipient: 'old@example.com', origin: 'test', subject: 'old', html: '', text: '', state: 'sent', createdAt: new Date(Date.now() - 181 * 86_400_000) })
      .returning({ id: mailLog.id });
    const kept = await count(mailLog);
    expect(await pruneMailLog(t.ctx)).toBe(1);
    expect(await t.ctx.db.select().from(mailLog).where(eq(mailLog.id, old!.id))).toHaveLength(0);
    expect(await count(mailLog)).toBe(kept - 1);
  });
});
