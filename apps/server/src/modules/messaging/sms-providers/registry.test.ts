import { describe, expect, it } from 'vitest';
import { sendSms, smsProviders } from './registry.ts';

describe('the SMS provider registry', () => {
  it('refuses credentials that do not fit the provider before any request, permanently', async () => {
    const result = await sendSms('twilio', { accountSid: 'not-a-sid', authToken: 'x', from: '+15005550006' }, { phone: '+14155550100', templateCode: '', signName: '', params: {}, text: 'hi' }, { baseUrl: 'http://127.0.0.1:9' });
    expect(result).toMatchObject({ ok: false, kind: 'permanent', providerCode: 'InvalidCredentials' });
    if (!result.ok) expect(result.reason).toMatch(/^accountSid: Twilio Account SID/);
  });

  it('names each provider\'s secret fields and documented endpoint', () => {
    expect(Object.fromEntries(Object.values(smsProviders).map((p) => [p.kind, [p.secretFields, p.defaultBaseUrl, p.sends]]))).toEqual({
      aliyun: [['accessKeySecret'], 'https://dysmsapi.aliyuncs.com', 'template'],
      tencent: [['secretKey'], 'https://sms.tencentcloudapi.com', 'template'],
      twilio: [['authToken'], 'https://api.twilio.com', 'text'],
    });
  });
});
