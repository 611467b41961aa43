import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSms } from './twilio.ts';

/** The demo's SMS catcher (`npm run sms-catcher`) takes what the Twilio adapter sends and lists it. */
describe('the SMS catcher script', () => {
  let child: ChildProcess;
  let url = '';
  beforeAll(async () => {
    child = spawn(process.execPath, [resolve(import.meta.dirname, '../../../../../../scripts/sms-catcher.mjs')], { env: { ...process.env, SMS_CATCHER_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+);/.exec(out);
        if (m) done(m[1]!);
      });
      child.on('exit', (code) => fail(new Error(`catcher exited ${code}`)));
    });
  });
  afterAll(() => { child.kill('SIGTERM'); });

  it('answers the Twilio adapter as Twilio does and lists the message', async () => {
    const cred = { accountSid: `AC${'a'.repeat(32)}`, authToken: 'demo', from: '+15005550006' };
    const sent = await twilioSms.send(cred, { phone: '+8613800138000', templateCode: '', signName: '', params: {}, text: '一号站 告警 1 级' }, { baseUrl: url });
    expect(sent.ok).toBe(true);
    const bad = await twilioSms.send(cred, { phone: '12345', templateCode: '', signName: '', params: {}, text: 'x' }, { baseUrl: url });
    expect(bad).toMatchObject({ ok: false, kind: 'permanent', providerCode: '21211' });
    const listed = (await (await fetch(`${url}/`)).json()) as { count: number; messages: { sid: string; to: string; body: string }[] };
    expect(listed.count).toBe(1);
    expect(listed.messages[0]).toMatchObject({ to: '+8613800138000', body: '一号站 告警 1 级', sid: sent.ok ? sent.providerMessageId : '' });
  });
});
