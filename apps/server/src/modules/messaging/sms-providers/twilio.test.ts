import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../../test/http-peer.ts';
import { twilioSms } from './twilio.ts';

/**
 * The Twilio adapter against a local api.twilio.com peer: the Message resource's create as
 * documented (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with the
 * Account SID and Auth Token, a form body with To, From and Body), answered with 201 and the
 * message, or the documented error object {code, message, more_info, status}.
 */
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'auth-token-for-tests';
const message = { phone: '+14155550100', templateCode: '', signName: '', params: {}, text: 'Alarm level 1 at Station A: over-temperature' };

describe('the Twilio adapter against a Messages API peer', () => {
  let peer: HttpPeer;
  let mode: 'ok' | 'invalid-to' | 'too-many' | 'internal' = 'ok';
  const problems: string[] = [];
  const error = (status: number, code: number, msg: string): PeerAnswer => ({ status, body: { code, message: msg, more_info: `https://www.twilio.com/docs/errors/${code}`, status } });

  function handle(req: PeerRequest): PeerAnswer {
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`) return error(404, 20404, 'The requested resource was not found');
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const [user, pass] = Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':');
    if (scheme !== 'Basic' || user !== SID || pass !== TOKEN) return error(401, 20003, 'Authenticate');
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') problems.push(`content-type ${req.headers['content-type']}`);
    const form = new URLSearchParams(req.body);
    if (!form.get('Body') || !(form.get('From') ?? form.get('MessagingServiceSid'))) return error(400, 21602, 'Message body is required.');
    switch (mode) {
      case 'ok': return {
        status: 201,
        body: { account_sid: SID, api_version: '2010-04-01', body: form.get('Body'), date_created: 'Thu, 24 Aug 2023 05:01:45 +0000', direction: 'outbound-api', error_code: null, error_message: null, from: form.get('From'), messaging_service_sid: null, num_segments: '1', price: null, sid: 'SM1234567890abcdef1234567890abcdef', status: 'queued', to: form.get('To'), uri: `/2010-04-01/Accounts/${SID}/Messages/SM1234567890abcdef1234567890abcdef.json` },
      };
      case 'invalid-to': return error(400, 21211, `The 'To' number ${form.get('To')} is not a valid phone number.`);
      case 'too-many': return error(429, 20429, 'Too Many Requests');
      case 'internal': return error(500, 20500, 'An internal server error has occurred');
    }
  }

  beforeAll(async () => { peer = await startHttpPeer(handle); });
  afterAll(async () => peer.close());
  const cred = { accountSid: SID, authToken: TOKEN, from: '+15005550006' };

  it('creates the message and returns its sid', async () => {
    mode = 'ok';
    expect(await twilioSms.send(cred, message, { baseUrl: peer.url })).toEqual({ ok: true, providerMessageId: 'SM1234567890abcdef1234567890abcdef' });
    expect(Object.fromEntries(new URLSearchParams(peer.requests.at(-1)!.body))).toEqual({ To: '+14155550100', From: '+15005550006', Body: message.text });
    expect(problems).toEqual([]);
  });

  it('a Messaging Service SID as sender goes as MessagingServiceSid', async () => {
    mode = 'ok';
    await twilioSms.send({ ...cred, from: 'MG9752274e9e519418a7406176694466fa' }, message, { baseUrl: peer.url });
    expect(new URLSearchParams(peer.requests.at(-1)!.body).get('MessagingServiceSid')).toBe('MG9752274e9e519418a7406176694466fa');
  });

  it('a wrong auth token: 401 / 20003, permanent', async () => {
    const result = await twilioSms.send({ ...cred, authToken: 'wrong' }, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind: 'permanent', providerCode: '20003', reason: 'Authenticate' });
  });

  it.each([
    ['invalid-to', 'permanent', '21211'],
    ['too-many', 'temporary', '20429'],
    ['internal', 'temporary', '20500'],
  ] as const)('%s → %s (%s)', async (m, kind, code) => {
    mode = m;
    const result = await twilioSms.send(cred, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind, providerCode: code });
    if (!result.ok) expect(result.reason).not.toContain(TOKEN);
  });
});
