import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../../test/http-peer.ts';
import { tencentSms } from './tencent.ts';

/**
 * The Tencent Cloud adapter against a local sms.tencentcloudapi.com peer. The peer verifies the
 * TC3-HMAC-SHA256 signature with a signer written here from the documentation ("Signature v3":
 * the four steps, over the headers the Authorization header names, with their values as
 * received), checked first against the documentation's worked example.
 */
const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const mac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

function docSignature(a: { secretKey: string; service: string; timestamp: number; headers: Record<string, string>; signedHeaders: string[]; payload: string; query?: string }): string {
  const canonicalHeaders = a.signedHeaders.map((h) => `${h}:${a.headers[h]!.trim().toLowerCase()}\n`).join('');
  const canonicalRequest = `POST\n/\n${a.query ?? ''}\n${canonicalHeaders}\n${a.signedHeaders.join(';')}\n${hex(a.payload)}`;
  const date = new Date(a.timestamp * 1000).toISOString().slice(0, 10);
  const stringToSign = `TC3-HMAC-SHA256\n${a.timestamp}\n${date}/${a.service}/tc3_request\n${hex(canonicalRequest)}`;
  const secretDate = mac(`TC3${a.secretKey}`, date);
  const secretService = mac(secretDate, a.service);
  const secretSigning = mac(secretService, 'tc3_request');
  return createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
}

const SECRET_ID = 'AKIDtestSecretId0001';
const SECRET_KEY = 'test-secret-key-0001';
const message = { phone: '+8613711112222', templateCode: '1110', signName: '储能云', params: { 2: 'B 站', 1: '一级', 10: 'x' }, text: '' };

describe('TC3-HMAC-SHA256', () => {
  it('the test signer reproduces the documentation\'s worked example', () => {
    expect(docSignature({
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE', service: 'cvm', timestamp: 1551113065,
      headers: { 'content-type': 'application/json; charset=utf-8', host: 'cvm.tencentcloudapi.com' }, signedHeaders: ['content-type', 'host'],
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    })).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
  });
});

describe('the Tencent Cloud adapter against an SMS API 3.0 peer', () => {
  let peer: HttpPeer;
  let mode: 'ok' | 'incorrect-number' | 'throttled' | 'internal' | 'http-500' = 'ok';
  const problems: string[] = [];
  const now = new Date('2026-11-29T23:59:30Z');

  function handle(req: PeerRequest): PeerAnswer {
    const h = req.headers as Record<string, string>;
    const RequestId = 'ed93f3cb-f35c-47c5-8f3c-9f4a4b8a1e2e';
    const expectEq = (name: string, want: string) => { if (h[name] !== want) problems.push(`${name}: ${h[name]}`); };
    if (req.method !== 'POST' || req.url !== '/') problems.push(`${req.method} ${req.url}`);
    expectEq('x-tc-action', 'SendSms'); expectEq('x-tc-version', '2021-01-11'); expectEq('x-tc-region', 'ap-guangzhou');
    expectEq('content-type', 'application/json; charset=utf-8');
    const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/sms\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(h.authorization ?? '');
    const timestamp = Number(h['x-tc-timestamp']);
    const signatureFailure = { status: 200, body: { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated. Please check your signature is correct.' }, RequestId } } };
    if (!auth || auth[1] !== SECRET_ID) return signatureFailure;
    // The credential's date is the UTC day of X-TC-Timestamp.
    if (auth[2] !== new Date(timestamp * 1000).toISOString().slice(0, 10)) problems.push(`credential date ${auth[2]}`);
    const signedHeaders = auth[3]!.split(';');
    if (!signedHeaders.includes('content-type') || !signedHeaders.includes('host')) problems.push(`signed headers ${auth[3]}`);
    if (auth[4] !== docSignature({ secretKey: SECRET_KEY, service: 'sms', timestamp, headers: h, signedHeaders, payload: req.body })) return signatureFailure;
    const body = JSON.parse(req.body) as Record<string, unknown>;
    if (JSON.stringify(Object.keys(body).sort()) !== JSON.stringify(['PhoneNumberSet', 'SignName', 'SmsSdkAppId', 'TemplateId', 'TemplateParamSet'])) problems.push(`body ${req.body}`);
    switch (mode) {
      case 'ok': return { status: 200, body: { Response: { SendStatusSet: [{ SerialNo: '5000:1045710669157053657849499619', PhoneNumber: '+8613711112222', Fee: 1, SessionContext: '', Code: 'Ok', Message: 'send success', IsoCode: 'CN' }], RequestId } } };
      case 'incorrect-number': return { status: 200, body: { Response: { SendStatusSet: [{ SerialNo: '', PhoneNumber: '+8613711112222', Fee: 0, SessionContext: '', Code: 'InvalidParameterValue.IncorrectPhoneNumber', Message: 'incorrect number format', IsoCode: 'CN' }], RequestId } } };
      case 'throttled': return { status: 200, body: { Response: { Error: { Code: 'RequestLimitExceeded', Message: 'Your current request frequency has exceeded the limit.' }, RequestId } } };
      case 'internal': return { status: 200, body: { Response: { Error: { Code: 'InternalError.Timeout', Message: 'Request timed out.' }, RequestId } } };
      case 'http-500': return { status: 500, body: 'Internal Server Error' };
    }
  }

  beforeAll(async () => { peer = await startHttpPeer(handle); });
  afterAll(async () => peer.close());
  const cred = { secretId: SECRET_ID, secretKey: SECRET_KEY, sdkAppId: '1400006666' };

  it('sends a documented, correctly signed request and returns the SerialNo', async () => {
    mode = 'ok';
    const result = await tencentSms.send(cred, message, { baseUrl: peer.url, now: () => now });
    expect(result).toEqual({ ok: true, providerMessageId: '5000:1045710669157053657849499619' });
    const req = peer.requests.at(-1)!;
    expect(req.headers['x-tc-timestamp']).toBe(String(now.getTime() / 1000));
    // Positional variables in their numbers' order, the number in E.164.
    expect(JSON.parse(req.body)).toEqual({ PhoneNumberSet: ['+8613711112222'], SmsSdkAppId: '1400006666', SignName: '储能云', TemplateId: '1110', TemplateParamSet: ['一级', 'B 站', 'x'] });
    expect(problems).toEqual([]);
  });

  it('a wrong secret key: AuthFailure.SignatureFailure, permanent', async () => {
    mode = 'ok';
    const result = await tencentSms.send({ ...cred, secretKey: 'wrong' }, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind: 'permanent', providerCode: 'AuthFailure.SignatureFailure' });
  });

  it.each([
    ['incorrect-number', 'permanent', 'InvalidParameterValue.IncorrectPhoneNumber'],
    ['throttled', 'temporary', 'RequestLimitExceeded'],
    ['internal', 'temporary', 'InternalError.Timeout'],
    ['http-500', 'temporary', 'HTTP 500'],
  ] as const)('%s → %s (%s)', async (m, kind, code) => {
    mode = m;
    const result = await tencentSms.send(cred, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind, providerCode: code });
    if (!result.ok) expect(result.reason).not.toContain(SECRET_KEY);
  });
});
