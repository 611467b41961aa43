import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../../test/http-peer.ts';
import { aliyunSms } from './aliyun.ts';

/**
 * The Aliyun adapter against a local Dysmsapi peer. The peer's signer is written here from the
 * documentation's recipe (java.net.URLEncoder-style form encoding, then "+" → %20, "*" → %2A,
 * %7E → "~"; StringToSign = METHOD&%2F&encode(query); HMAC-SHA1 with secret + "&"; Base64), not
 * the adapter's, and is first checked against the documentation's worked example.
 */
function docEncode(s: string): string {
  // URLSearchParams serialises as application/x-www-form-urlencoded, as URLEncoder does.
  return new URLSearchParams({ v: s }).toString().slice(2).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~');
}
function docSignature(method: string, params: Record<string, string>, secret: string): string {
  const sorted = Object.keys(params).filter((k) => k !== 'Signature').sort();
  const query = sorted.map((k) => `${docEncode(k)}=${docEncode(params[k]!)}`).join('&');
  const stringToSign = `${method}&${docEncode('/')}&${docEncode(query)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

const ACCESS_KEY_ID = 'LTAI5tTestKeyId';
const SECRET = 'test-Secret*with~odd+chars';
const message = { phone: '+8613800000001', templateCode: 'SMS_71390007', signName: '储能云', params: { station: '一号站 (A)', level: '1' }, text: '' };

describe('Aliyun SendSms signature', () => {
  it('the test signer reproduces the documentation\'s worked example', () => {
    const example = {
      AccessKeyId: 'testId', Action: 'SendSms', Format: 'XML', OutId: '123', PhoneNumbers: '15300000001', RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用', SignatureMethod: 'HMAC-SHA1', SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466', SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007', TemplateParam: '{"customer":"test"}', Timestamp: '2017-07-12T02:42:19Z', Version: '2017-05-25',
    };
    expect(docSignature('GET', example, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });
});

describe('the Aliyun adapter against a Dysmsapi peer', () => {
  let peer: HttpPeer;
  let mode: 'ok' | 'illegal-number' | 'throttled' | 'server-error' | 'bad-gateway' | 'slow' = 'ok';
  const problems: string[] = [];

  function handle(req: PeerRequest): PeerAnswer {
    const p = Object.fromEntries(new URLSearchParams(req.body));
    const requestId = 'F655A8D5-B967-440B-8683-DAD6FF8DE990';
    const expectEq = (name: string, want: string) => { if (p[name] !== want) problems.push(`${name}=${p[name]}`); };
    if (req.method !== 'POST' || req.url !== '/') problems.push(`${req.method} ${req.url}`);
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) problems.push(`content-type ${req.headers['content-type']}`);
    expectEq('Action', 'SendSms'); expectEq('Version', '2017-05-25'); expectEq('Format', 'JSON'); expectEq('RegionId', 'cn-hangzhou');
    expectEq('SignatureMethod', 'HMAC-SHA1'); expectEq('SignatureVersion', '1.0'); expectEq('AccessKeyId', ACCESS_KEY_ID);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(p.Timestamp ?? '')) problems.push(`Timestamp=${p.Timestamp}`);
    if (!/^[0-9a-f-]{36}$/.test(p.SignatureNonce ?? '')) problems.push(`SignatureNonce=${p.SignatureNonce}`);
    if (p.Signature !== docSignature('POST', p, SECRET)) {
      return { status: 400, body: { RequestId: requestId, HostId: 'dysmsapi.aliyuncs.com', Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.', Recommend: 'https://api.aliyun.com/troubleshoot' } };
    }
    switch (mode) {
      case 'ok': return { status: 200, body: { Message: 'OK', RequestId: requestId, Code: 'OK', BizId: '9006197469364984^0' } };
      case 'illegal-number': return { status: 200, body: { Message: 'invalid mobile number', RequestId: requestId, Code: 'isv.MOBILE_NUMBER_ILLEGAL' } };
      case 'throttled': return { status: 200, body: { Message: '触发分钟级流控Permits:1', RequestId: requestId, Code: 'isv.BUSINESS_LIMIT_CONTROL' } };
      case 'server-error': return { status: 500, body: { RequestId: requestId, HostId: 'dysmsapi.aliyuncs.com', Code: 'InternalError', Message: 'The request processing has failed due to some unknown error.' } };
      case 'bad-gateway': return { status: 502, body: '<html><body>502 Bad Gateway</body></html>' };
      case 'slow': return { status: 200, body: { Code: 'OK', BizId: 'late' }, delayMs: 1000 };
    }
  }

  beforeAll(async () => { peer = await startHttpPeer(handle); });
  afterAll(async () => peer.close());
  const cred = { accessKeyId: ACCESS_KEY_ID, accessKeySecret: SECRET };

  it('sends a documented, correctly signed request and returns the BizId', async () => {
    mode = 'ok';
    const result = await aliyunSms.send(cred, message, { baseUrl: peer.url });
    expect(result).toEqual({ ok: true, providerMessageId: '9006197469364984^0' });
    const p = Object.fromEntries(new URLSearchParams(peer.requests.at(-1)!.body));
    // A mainland number goes without +86; the variables as a JSON object; the sign name as given.
    expect(p).toMatchObject({ PhoneNumbers: '13800000001', SignName: '储能云', TemplateCode: 'SMS_71390007' });
    expect(JSON.parse(p.TemplateParam!)).toEqual({ station: '一号站 (A)', level: '1' });
    expect(problems).toEqual([]);
  });

  it('sends a number outside the mainland with its country code and no plus', async () => {
    mode = 'ok';
    await aliyunSms.send(cred, { ...message, phone: '+85291234567' }, { baseUrl: peer.url });
    expect(new URLSearchParams(peer.requests.at(-1)!.body).get('PhoneNumbers')).toBe('85291234567');
  });

  it('a wrong secret: the peer refuses the signature, a permanent failure', async () => {
    mode = 'ok';
    const result = await aliyunSms.send({ ...cred, accessKeySecret: 'not-the-secret' }, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind: 'permanent', providerCode: 'SignatureDoesNotMatch' });
  });

  it.each([
    ['illegal-number', 'permanent', 'isv.MOBILE_NUMBER_ILLEGAL'],
    ['throttled', 'temporary', 'isv.BUSINESS_LIMIT_CONTROL'],
    ['server-error', 'temporary', 'InternalError'],
    ['bad-gateway', 'temporary', 'HTTP 502'],
  ] as const)('%s → %s (%s)', async (m, kind, code) => {
    mode = m;
    const result = await aliyunSms.send(cred, message, { baseUrl: peer.url });
    expect(result).toMatchObject({ ok: false, kind, providerCode: code });
    if (!result.ok) expect(result.reason).not.toContain(SECRET);
  });

  it('no answer in time and a refused connection are temporary', async () => {
    mode = 'slow';
    expect(await aliyunSms.send(cred, message, { baseUrl: peer.url, timeoutMs: 100 })).toMatchObject({ ok: false, kind: 'temporary', providerCode: 'ETIMEDOUT' });
    const port = await closedPort();
    expect(await aliyunSms.send(cred, message, { baseUrl: `http://127.0.0.1:${port}` })).toMatchObject({ ok: false, kind: 'temporary', providerCode: 'ECONNREFUSED' });
  });
});
