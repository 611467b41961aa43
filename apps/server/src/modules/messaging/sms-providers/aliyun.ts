import { createHmac, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { baseUrlOf, SMS_SECRET_REQUIRED, callProvider, failure, httpStatusFailure, isFailure, type SmsProvider } from './provider.ts';

/**
 * Aliyun (Alibaba Cloud) Short Message Service, Dysmsapi SendSms, version 2017-05-25, RPC style
 * with the V1 signature (help.aliyun.com "签名机制" / alibabacloud.com "Signature method"):
 * every parameter but Signature sorted by name, names and values percent-encoded per RFC 3986
 * (space %20, "*" %2A, "~" kept), joined with "=" and "&"; StringToSign = METHOD & %2F &
 * percentEncode(that string); Signature = Base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)).
 * The request is a POST with the parameters and the signature as a form body; the answer is JSON
 * with Code "OK" and a BizId, or an error Code and Message.
 */
const credentials = z.object({
  accessKeyId: z.string().trim().min(1).max(128),
  accessKeySecret: z.string({ error: SMS_SECRET_REQUIRED }).min(1, SMS_SECRET_REQUIRED).max(256),
  regionId: z.string().trim().max(64).optional(),
});
type AliyunCredentials = z.infer<typeof credentials>;

/** RFC 3986 unreserved characters kept, everything else %XX in UTF-8 (encodeURIComponent leaves !'()* alone). */
function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sign(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** Mainland numbers go without the country code (the documented form); others as digits with it, no "+". */
function aliyunPhone(e164: string): string {
  return e164.startsWith('+86') ? e164.slice(3) : e164.replace(/^\+/, '');
}

/**
 * Codes that say "later" (documented: flow control, the platform's own faults); every other
 * error code is permanent (signature, key, number, template, sign name, balance, daily limit).
 */
const TEMPORARY = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'isp.SYSTEM_ERROR', 'isp.GATEWAY_ERROR', 'Throttling', 'Throttling.User', 'Throttling.Api', 'ServiceUnavailable', 'InternalError']);

const answerShape = z.object({ Code: z.string(), Message: z.string().optional(), BizId: z.string().optional(), RequestId: z.string().optional() });

export const aliyunSms: SmsProvider<AliyunCredentials> = {
  kind: 'aliyun',
  credentials,
  secretFields: ['accessKeySecret'],
  defaultBaseUrl: 'https://dysmsapi.aliyuncs.com',
  sends: 'template',
  async send(cred, message, options = {}) {
    const now = options.now?.() ?? new Date();
    const params: Record<string, string> = {
      AccessKeyId: cred.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      RegionId: cred.regionId || 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
      PhoneNumbers: aliyunPhone(message.phone),
      SignName: message.signName,
      TemplateCode: message.templateCode,
    };
    if (Object.keys(message.params).length > 0) params.TemplateParam = JSON.stringify(message.params);
    params.Signature = sign('POST', params, cred.accessKeySecret);
    const body = Object.entries(params).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
    const answer = await callProvider(`${baseUrlOf(options, this.defaultBaseUrl)}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/json' },
      body,
    }, options);
    if (isFailure(answer)) return answer;
    const parsed = answerShape.safeParse(answer.json);
    if (!parsed.success) return httpStatusFailure(answer);
    const { Code, Message, BizId } = parsed.data;
    if (Code === 'OK' && answer.status < 300) return { ok: true, providerMessageId: BizId ?? '' };
    const temporary = TEMPORARY.has(Code) || answer.status >= 500;
    return failure(temporary ? 'temporary' : 'permanent', Code, Message ?? Code);
  },
};
