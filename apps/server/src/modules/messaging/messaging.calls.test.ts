import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import { messagingEndpoints } from '@ess/contract/messaging';
import { mailLog, smsLog } from '../../db/schema/messaging.ts';
import { type ApiResponse, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import {
  ACCOUNT_COMPANY_FIXED, CHANNEL_COMPANY_FIXED, MAIL_TEMPLATE_COMPANY_FIXED, RULE_COMPANY_FIXED, SMS_TEMPLATE_COMPANY_FIXED,
} from './message.scope.ts';

/**
 * Every messaging call of the contract (packages/contract/src/messaging.ts), table-driven: a call
 * added to the contract without a row here fails the first test. For each call:
 * (a) bad input → 4xx with the envelope and a tip, and nothing written to any messaging table;
 * (b) a signed-in user whose roles lack the call's menu → 403 A0300;
 * (c) a user of another company (every messaging menu) → refused (403/404) for the other
 *     company's objects, and the other company's rows are not in their lists, pages and exports.
 */

type Name = keyof typeof messagingEndpoints;
const SID = `AC${'c0ffee12'.repeat(4)}`;
const MESSAGING_MENUS = ['/mail/mail-account', '/mail/mail-template', '/mail/mail-log', '/sms/sms-channel', '/sms/sms-template', '/sms/sms-log', '/message/message-config'];
const TABLES = ['mail_account', 'mail_template', 'mail_log', 'sms_channel', 'sms_template', 'sms_log', 'message_rule', 'message_delivery'];

/** The other company's objects (made by the administrator), which the cases name. */
interface Theirs {
  companyId: number;
  siteId: number;
  account: number;
  mailTemplate: number;
  mailLog: number;
  channel: number;
  smsTemplate: number;
  smsLog: number;
  rule: number;
}

/**
 * One call's case. `bad`: an input the call must refuse (default: a body whose id, companyId and
 * page are not numbers). `foreign`: an input naming the other company's objects — refused, or for
 * a listing (`hides`) answered without them.
 */
interface Case {
  bad?: Record<string, unknown>;
  foreign: (o: Theirs) => Record<string, unknown>;
  /** A listing: answered, without the other company's row `hides(o)` (by id) or named `hidesName`. */
  hides?: (o: Theirs) => number;
  export?: boolean;
}

const accountBody = (companyId: number) => ({ companyId, name: `acc-${companyId}`, host: '127.0.0.1', port: 2525, tlsMode: 'none', fromAddress: 'ops@example.com' });
const mailTemplateBody = (companyId: number) => ({ companyId, name: '模板', code: 'alarm', language: 'zh-CN', subject: 'S ${station}', html: '<p>${station}</p>' });
const channelBody = (companyId: number) => ({ companyId, name: `ch-${companyId}`, provider: 'twilio', accessKeyId: SID, secret: 'tok-en-secret', sender: '+15005550006' });
const smsTemplateBody = (companyId: number) => ({ companyId, name: '短信', code: 'alarm', language: 'zh-CN', content: '${station} 告警' });
const ruleBody = (companyId: number) => ({ companyId, name: `rule-${companyId}`, event: 'workOrderAssigned', channels: ['console'], recipients: { assignee: true } });

const CASES: Record<Name, Case> = {
  'mailAccount.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.account },
  'mailAccount.list': { foreign: () => ({}), hides: (o) => o.account },
  'mailAccount.one': { foreign: (o) => ({ id: o.account }) },
  'mailAccount.add': { bad: { ...accountBody(1), port: 70000 }, foreign: (o) => accountBody(o.companyId) },
  'mailAccount.edit': { bad: { id: 1, ...accountBody(1), fromAddress: 'not an address' }, foreign: (o) => ({ id: o.account, ...accountBody(o.companyId) }) },
  'mailAccount.delete': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.account }) },
  'mailAccount.testConnection': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.account }) },
  'mailAccount.testSend': { bad: { id: 1, to: 'not-an-address' }, foreign: (o) => ({ id: o.account, to: 'x@example.com' }) },
  'mailTemplate.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.mailTemplate },
  'mailTemplate.list': { foreign: () => ({}), hides: (o) => o.mailTemplate },
  'mailTemplate.one': { foreign: (o) => ({ id: o.mailTemplate }) },
  'mailTemplate.add': { bad: { ...mailTemplateBody(1), subject: '${nosuchvariable}' }, foreign: (o) => mailTemplateBody(o.companyId) },
  'mailTemplate.edit': { bad: { id: 1, ...mailTemplateBody(1), html: '' }, foreign: (o) => ({ id: o.mailTemplate, ...mailTemplateBody(o.companyId) }) },
  'mailTemplate.delete': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.mailTemplate }) },
  'mailTemplate.preview': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.mailTemplate }) },
  'mailLog.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.mailLog },
  'mailLog.one': { foreign: (o) => ({ id: o.mailLog }) },
  'mailLog.export': { bad: { state: 'nosuchstate', companyId: 'abc' }, foreign: () => ({}), export: true },
  'smsChannel.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.channel },
  'smsChannel.list': { foreign: () => ({}), hides: (o) => o.channel },
  'smsChannel.one': { foreign: (o) => ({ id: o.channel }) },
  'smsChannel.add': { bad: { ...channelBody(1), sender: 'not-a-number' }, foreign: (o) => channelBody(o.companyId) },
  'smsChannel.edit': { bad: { id: 1, ...channelBody(1), provider: 'nosuchprovider' }, foreign: (o) => ({ id: o.channel, ...channelBody(o.companyId) }) },
  'smsChannel.delete': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.channel }) },
  'smsChannel.testSend': { bad: { id: 1, templateId: 1, phone: '12' }, foreign: (o) => ({ id: o.channel, templateId: o.smsTemplate, phone: '+8613800138000' }) },
  'smsTemplate.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.smsTemplate },
  'smsTemplate.list': { foreign: () => ({}), hides: (o) => o.smsTemplate },
  'smsTemplate.one': { foreign: (o) => ({ id: o.smsTemplate }) },
  'smsTemplate.add': { bad: { ...smsTemplateBody(1), content: '${nosuchvariable}' }, foreign: (o) => smsTemplateBody(o.companyId) },
  'smsTemplate.edit': { bad: { id: 1, ...smsTemplateBody(1), language: 'xx-XX' }, foreign: (o) => ({ id: o.smsTemplate, ...smsTemplateBody(o.companyId) }) },
  'smsTemplate.delete': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.smsTemplate }) },
  'smsTemplate.preview': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.smsTemplate }) },
  'smsLog.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.smsLog },
  'smsLog.one': { foreign: (o) => ({ id: o.smsLog }) },
  'smsLog.export': { bad: { state: 'nosuchstate', companyId: 'abc' }, foreign: () => ({}), export: true },
  'messageRule.page': { foreign: () => ({ pageSize: 100 }), hides: (o) => o.rule },
  'messageRule.one': { foreign: (o) => ({ id: o.rule }) },
  'messageRule.add': { bad: { ...ruleBody(1), channels: [] }, foreign: (o) => ruleBody(o.companyId) },
  'messageRule.edit': { bad: { id: 1, ...ruleBody(1), event: 'nosuchevent' }, foreign: (o) => ({ id: o.rule, ...ruleBody(o.companyId) }) },
  'messageRule.delete': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.rule }) },
  'messageRule.enable': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.rule }) },
  'messageRule.disable': { bad: { id: 'abc' }, foreign: (o) => ({ id: o.rule }) },
};
/** Every cell of an xlsx export, one per line. */
async function cellsOf(raw: Buffer): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.worksheets[0]!.eachRow((row) => row.eachCell((c) => void cells.push(c.text)));
  return cells.join('\n');
}

/** The edits of company-owned records, with the tip they refuse another company with (a record stays in its company). */
const COMPANY_FIXED: [Name, string][] = [
  ['mailAccount.edit', ACCOUNT_COMPANY_FIXED], ['mailTemplate.edit', MAIL_TEMPLATE_COMPANY_FIXED], ['smsChannel.edit', CHANNEL_COMPANY_FIXED],
  ['smsTemplate.edit', SMS_TEMPLATE_COMPANY_FIXED], ['messageRule.edit', RULE_COMPANY_FIXED],
];

const DEFAULT_BAD = { id: 'abc', companyId: 'abc', current: 0, pageSize: 'many' };
const NAMES = Object.keys(messagingEndpoints) as Name[];

describe.each(dbTargets(import.meta.url))('every messaging call refuses bad input, a role without the menu and another company on %s', (target) => {
  let t: TestApp;
  let theirs: Theirs;
  let noMenu: FactoryUser;
  let outsider: FactoryUser;
  let eastId = 0;

  /** Calls an endpoint as the contract says: GET with a query, POST with a body. */
  const call = (name: Name, input: Record<string, unknown>, token: string): Promise<ApiResponse<unknown>> => {
    const e = messagingEndpoints[name];
    return e.method === 'GET'
      ? t.api.get(e.path, token, Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])))
      : t.api.post(e.path, token, input);
  };
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) out[table] = Number((await t.ctx.database.sql.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
    return out;
  };
  /** The other company's rows as stored (a refused call changes none). */
  const snapshot = async () =>
    JSON.stringify(await Promise.all(TABLES.map((table) => t.ctx.database.sql.query(`select * from ${table} where company_id = $1 order by id`, [theirs.companyId]).then((r) => r.rows))));

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south } = await seededCompanies(t);
    eastId = east.id;
    const admin = <T>(path: string, body: unknown) => okData(t.api.post<T>(path, t.adminToken, body));
    const siteId = (await newSite(t, south.id)).id;
    const account = (await admin<{ id: number }>('/mail/account/add', accountBody(south.id))).id;
    const mailTemplate = (await admin<{ id: number }>('/mail/template/add', mailTemplateBody(south.id))).id;
    const channel = (await admin<{ id: number }>('/sms/channel/add', channelBody(south.id))).id;
    const smsTemplate = (await admin<{ id: number }>('/sms/template/add', smsTemplateBody(south.id))).id;
    const rule = (await admin<{ id: number }>('/message/config/add', ruleBody(south.id))).id;
    const [m] = await t.ctx.db.insert(mailLog).values({ companyId: south.id, recipient: 'south@example.com', origin: 'test', subject: 'South subject', html: '<p>x</p>', text: 'x' }).returning({ id: mailLog.id });
    const [s] = await t.ctx.db.insert(smsLog).values({ companyId: south.id, recipient: '+8613800138001', origin: 'test', content: 'South content' }).returning({ id: smsLog.id });
    theirs = { companyId: south.id, siteId, account, mailTemplate, mailLog: m!.id, channel, smsTemplate, smsLog: s!.id, rule };
    noMenu = await newUser(t, east.id, { menus: ['/home/index'] });
    outsider = await newUser(t, east.id, { menus: MESSAGING_MENUS });
  });
  afterAll(async () => t?.stop());

  it('has a case for every call of the contract (a new call without one fails here)', () => {
    expect(NAMES.length).toBe(42);
    expect(Object.keys(CASES).sort()).toEqual([...NAMES].sort());
  });

  it.each(NAMES)('%s: bad input → 4xx with the envelope and a tip, nothing written', async (name) => {
    const before = await counts();
    const r = await call(name, CASES[name].bad ?? DEFAULT_BAD, t.adminToken);
    expect([name, r.status >= 400 && r.status < 500]).toEqual([name, true]);
    expect(r.body.errorCode).toMatch(/^A\d{4}$/);
    expect(r.body.tipMsg.length).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });

  it.each(NAMES)('%s: a role without the menu → 403', async (name) => {
    const r = await call(name, CASES[name].foreign(theirs), noMenu.token);
    expect([name, r.status, r.body.errorCode]).toEqual([name, 403, 'A0300']);
  });

  it.each(NAMES)('%s: a user of another company is refused, or does not see the other company\'s rows', async (name) => {
    const c = CASES[name];
    const before = await snapshot();
    const counted = await counts();
    const r = await call(name, c.foreign(theirs), outsider.token);
    if (c.hides) {
      expect(r.status).toBe(200);
      const data = r.body.data as Page<{ id: number }> | { id: number }[];
      const rows = Array.isArray(data) ? data : data.records;
      expect(rows.map((x) => x.id)).not.toContain(c.hides(theirs));
    } else if (c.export) {
      expect(r.status).toBe(200);
      const text = await cellsOf(r.raw);
      expect(text).not.toMatch(/South|south@example\.com|13800138001/);
    } else {
      expect([name, [403, 404].includes(r.status)]).toEqual([name, true]);
      expect(r.body.errorCode).toMatch(/^A0(301|404|300|400)|^A\d{4}$/);
    }
    expect(await snapshot()).toBe(before);
    expect(await counts()).toEqual(counted);
  });

  it('the cases can fail: the administrator (who sees every company) gets the other company\'s rows', async () => {
    const page = await okData(t.api.post<Page<{ id: number }>>('/mail/account/query/page', t.adminToken, { pageSize: 100 }));
    expect(page.records.map((x) => x.id)).toContain(theirs.account);
    expect((await t.api.post('/mail/account/query/one', t.adminToken, { id: theirs.account })).status).toBe(200);
    const mails = await t.api.call('POST', '/mail/log/export', { token: t.adminToken, body: {} });
    expect(await cellsOf(mails.raw)).toContain('south@example.com');
    const sms = await t.api.call('POST', '/sms/log/export', { token: t.adminToken, body: {} });
    expect(await cellsOf(sms.raw)).toMatch(/13800138001/);
  });

  it.each(COMPANY_FIXED)('%s: another company than the record’s → 406 with a clear tip, nothing changed; its own company saves', async (name, tip) => {
    const body = CASES[name].foreign(theirs);
    const before = await snapshot();
    // Even the administrator, who may write to both companies: the console shows the company read-only.
    const moved = await call(name, { ...body, companyId: eastId }, t.adminToken);
    expect([name, moved.status, moved.body.errorCode, moved.body.tipMsg]).toEqual([name, 406, 'A0406', tip]);
    expect(await snapshot()).toBe(before);
    const kept = await call(name, body, t.adminToken);
    expect([name, kept.status, kept.body.errorCode]).toEqual([name, 200, '00000']);
  });
});
