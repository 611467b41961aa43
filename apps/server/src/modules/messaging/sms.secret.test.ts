import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendTestResult } from '@ess/contract/messaging';
import { accessLog } from '../../db/schema/system.ts';
import { smsLog } from '../../db/schema/messaging.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, okData, seededCompanies } from '../../../test/factory.ts';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../test/http-peer.ts';

/**
 * SMS channel secrets (Aliyun AccessKey secret, Tencent SecretKey, Twilio auth token) never leave
 * the server: not in any answer (channel page/one/list, test send, log page/one), not in the
 * log's export, not in any line the server logs (captured at trace level), not in the access
 * log — also when the provider fails, and when its error answer echoes the request it got
 * (credentials included, as a misbehaving proxy in front of a provider would).
 */

const SECRETS = { aliyun: 'aliyun-Secret-7Fq2xZ', tencent: 'tencent-SecretKey-9Hw4pL', twilio: 'twilio-AuthToken-3Kd8vR' } as const;
const IDS = { aliyun: 'LTAI5tTestAccessKeyId', tencent: 'AKIDtestSecretIdForTencent', twilio: `AC${'5a5b'.repeat(8)}` } as const;

/** Every form a secret could leak in: plain, URL-encoded, base64, inside Basic auth. */
const leaks = (provider: keyof typeof SECRETS) => {
  const s = SECRETS[provider];
  const b64 = (x: string) => Buffer.from(x).toString('base64');
  return [s, encodeURIComponent(s), b64(s), b64(`${IDS[provider]}:${s}`)];
};
const allLeaks = (Object.keys(SECRETS) as (keyof typeof SECRETS)[]).flatMap(leaks);

/**
 * A peer that fails every request in the provider's documented error shape, its message the
 * request as received: headers (Twilio's Basic auth), body, and the Basic credentials decoded.
 */
function echoingFailure(req: PeerRequest): PeerAnswer {
  const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
  const echo = `rejected ${req.method} ${req.url} auth=${req.headers.authorization ?? ''} decoded=${Buffer.from(basic, 'base64').toString()} body=${req.body}`;
  if (req.url.includes('/2010-04-01/')) return { status: 401, body: { code: 20003, message: echo, status: 401 } };
  if (req.headers['x-tc-action']) return { status: 200, body: { Response: { Error: { Code: 'AuthFailure.SecretIdNotFound', Message: echo }, RequestId: 'r-1' } } };
  return { status: 400, body: { Code: 'SignatureDoesNotMatch', Message: echo, RequestId: 'r-2' } };
}

describe.each(dbTargets(import.meta.url))('SMS secrets on %s', (target) => {
  let t: TestApp;
  let peer: HttpPeer;
  let lines = '';
  const answers: string[] = [];
  const channels: Record<string, number> = {};
  let templateId = 0;
  let siteId = 0;
  let companyId = 0;
  const post = async <T>(path: string, body: unknown) => {
    const r = await t.api.post<T>(path, t.adminToken, body);
    answers.push(r.raw.toString('utf8'));
    return r;
  };

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines += chunk.toString('utf8');
        cb();
      },
    });
    peer = await startHttpPeer(echoingFailure);
    t = await startTestApp(target, {}, undefined, undefined, pino({ level: 'trace' }, sink));
    const { east } = await seededCompanies(t);
    companyId = east.id;
    siteId = (await newSite(t, companyId)).id;
    templateId = (await okData(post<{ id: number }>('/sms/template/add', {
      companyId, name: '告警', code: 'alarm', language: 'zh-CN', content: '${station} 告警', providerTemplateCode: '1234567', signName: '储能云',
    }))).id;
    for (const provider of ['aliyun', 'tencent', 'twilio'] as const) {
      channels[provider] = (await okData(post<{ id: number }>('/sms/channel/add', {
        companyId, name: `ch-${provider}`, provider, accessKeyId: IDS[provider], secret: SECRETS[provider], endpoint: peer.url,
        ...(provider === 'tencent' ? { appId: '1400000000', region: 'ap-guangzhou' } : {}), ...(provider === 'twilio' ? { sender: '+15005550006' } : {}),
      }))).id;
    }
  });
  afterAll(async () => {
    await t?.stop();
    await peer?.close();
  });

  it('a provider error that echoes the request: failed with the provider\'s reason, the secret in no answer', async () => {
    for (const provider of ['aliyun', 'tencent', 'twilio'] as const) {
      const r = await okData(post<SendTestResult>('/sms/channel/test/send', { id: channels[provider], templateId, phone: '+8613800138000', siteId }));
      expect(r.ok, provider).toBe(false);
      // The provider's words are kept (its code and the request line), only the secret is gone.
      expect(r.reason).toMatch(/rejected POST/);
      for (const leak of leaks(provider)) expect(r.reason, `${provider} reason`).not.toContain(leak);
    }
    // The peer did get the credentials (Twilio's in Basic auth): the scrubbing is what kept them out.
    expect(peer.requests.some((q) => (q.headers.authorization ?? '').includes(Buffer.from(`${IDS.twilio}:${SECRETS.twilio}`).toString('base64')))).toBe(true);
    const logs = await t.ctx.db.select().from(smsLog);
    expect(logs).toHaveLength(3);
    expect(logs.every((l) => l.state === 'failed' && /rejected/.test(l.error ?? ''))).toBe(true);
  });

  it('no answer of the channel and log calls, no export, no log line, no access-log row carries a secret', async () => {
    await post('/sms/channel/query/page', { pageSize: 100 });
    await post('/sms/channel/query/list', {});
    for (const id of Object.values(channels)) await post('/sms/channel/query/one', { id });
    const page = await post<{ records: { id: number }[] }>('/sms/log/query/page', { pageSize: 100 });
    for (const r of page.body.data.records) await post('/sms/log/query/one', { id: r.id });
    const file = await t.api.call('POST', '/sms/log/export', { token: t.adminToken, body: {} });
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.worksheets[0]!.eachRow((row) => row.eachCell((c) => void cells.push(c.text)));
    expect(cells.join('\n')).toMatch(/rejected POST/);
    await new Promise((r) => setTimeout(r, 300));
    const access = JSON.stringify(await t.ctx.db.select().from(accessLog));
    expect(answers.length).toBeGreaterThan(10);
    expect(lines.length).toBeGreaterThan(100);
    for (const leak of allLeaks) {
      for (const a of answers) expect(a).not.toContain(leak);
      expect(cells.join('\n')).not.toContain(leak);
      expect(lines).not.toContain(leak);
      expect(access).not.toContain(leak);
    }
  });

  it('the server\'s logger censors secret fields logged by any module', async () => {
    t.ctx.log.error({ channel: { id: 1, accessKeySecret: SECRETS.aliyun, secretKey: SECRETS.tencent }, job: { data: { authToken: SECRETS.twilio } } }, 'a careless line');
    await new Promise((r) => setTimeout(r, 100));
    expect(lines).toContain('a careless line');
    for (const leak of allLeaks) expect(lines).not.toContain(leak);
  });
});
