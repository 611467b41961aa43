import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { baseUrlOf, SMS_SECRET_REQUIRED, callProvider, failure, httpStatusFailure, isFailure, type SmsProvider } from './provider.ts';

/**
 * Tencent Cloud SMS, API 3.0 SendSms (version 2021-01-11) signed with TC3-HMAC-SHA256 ("签名方法
 * v3"): CanonicalRequest = POST \n / \n (empty query) \n canonical headers (content-type, host,
 * lower-case, sorted, each "k:v\n") \n signed header names \n hex(SHA-256(body));
 * StringToSign = "TC3-HMAC-SHA256" \n timestamp \n "date/sms/tc3_request" \n hex(SHA-256(CanonicalRequest));
 * the key is derived HMAC-SHA256("TC3" + SecretKey, date) → service → "tc3_request"; the
 * signature goes in the Authorization header with X-TC-Action/Version/Timestamp/Region. The
 * answer is always HTTP 200 with {Response: {SendStatusSet | Error, RequestId}}.
 */
/** Source text (translated by the language packs). */
export const TENCENT_APP_ID_FORMAT = '腾讯云 SdkAppId 应为数字，如 1400006666';

const credentials = z.object({
  secretId: z.string().trim().min(1).max(128),
  secretKey: z.string({ error: SMS_SECRET_REQUIRED }).min(1, SMS_SECRET_REQUIRED).max(256),
  /** The SMS application (SmsSdkAppId) the templates and sign names belong to. */
  sdkAppId: z.string({ error: TENCENT_APP_ID_FORMAT }).trim().regex(/^\d{6,20}$/, TENCENT_APP_ID_FORMAT),
  region: z.string().trim().max(64).optional(),
});
type TencentCredentials = z.infer<typeof credentials>;

const SERVICE = 'sms';
const VERSION = '2021-01-11';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

/** The Authorization header for one request (the host is the one the request really goes to). */
function authorization(cred: TencentCredentials, host: string, body: string, timestamp: number): string {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = ['POST', '/', '', `content-type:${CONTENT_TYPE}\nhost:${host.toLowerCase()}\n`, signedHeaders, sha256Hex(body)].join('\n');
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${cred.secretKey}`, date), SERVICE), 'tc3_request');
  const signature = createHmac('sha256', signing).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${cred.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** Tencent's template variables are positional ({1}, {2} …): numbered keys in their order, else the given order. */
function positional(params: Record<string, string>): string[] {
  const keys = Object.keys(params);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) keys.sort((a, b) => Number(a) - Number(b));
  return keys.map((k) => params[k]!);
}

/**
 * Documented codes worth a retry: the request rate, the platform's internal faults and timeouts,
 * and the per-number frequency limits (30 s / 1 h); the daily limits, signature, key, number,
 * template and balance are permanent.
 */
const TEMPORARY = new Set([
  'RequestLimitExceeded', 'RequestLimitExceeded.GlobalRegionUinLimitExceeded', 'RequestLimitExceeded.UinLimitExceeded',
  'InternalError', 'InternalError.Timeout', 'InternalError.RequestTimeException', 'InternalError.SendAndRecvFail', 'InternalError.OtherError',
  'ResourceUnavailable', 'ServiceUnavailable', 'LimitExceeded.PhoneNumberThirtySecondLimit', 'LimitExceeded.PhoneNumberOneHourLimit',
]);
const kindOf = (code: string) => (TEMPORARY.has(code) ? 'temporary' : 'permanent');

const answerShape = z.object({
  Response: z.object({
    RequestId: z.string().optional(),
    Error: z.object({ Code: z.string(), Message: z.string() }).optional(),
    SendStatusSet: z.array(z.object({ SerialNo: z.string().optional(), PhoneNumber: z.string().optional(), Code: z.string(), Message: z.string().optional() })).optional(),
  }),
});

export const tencentSms: SmsProvider<TencentCredentials> = {
  kind: 'tencent',
  credentials,
  secretFields: ['secretKey'],
  defaultBaseUrl: 'https://sms.tencentcloudapi.com',
  sends: 'template',
  async send(cred, message, options = {}) {
    const url = new URL(`${baseUrlOf(options, this.defaultBaseUrl)}/`);
    const timestamp = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
    const body = JSON.stringify({
      PhoneNumberSet: [message.phone],
      SmsSdkAppId: cred.sdkAppId,
      SignName: message.signName,
      TemplateId: message.templateCode,
      TemplateParamSet: positional(message.params),
    });
    const answer = await callProvider(url.toString(), {
      method: 'POST',
      headers: {
        authorization: authorization(cred, url.host, body, timestamp),
        'content-type': CONTENT_TYPE,
        'x-tc-action': 'SendSms',
        'x-tc-version': VERSION,
        'x-tc-timestamp': String(timestamp),
        'x-tc-region': cred.region || 'ap-guangzhou',
      },
      body,
    }, options);
    if (isFailure(answer)) return answer;
    const parsed = answerShape.safeParse(answer.json);
    if (!parsed.success || answer.status >= 300) return httpStatusFailure(answer);
    const { Error: error, SendStatusSet: set } = parsed.data.Response;
    if (error) return failure(kindOf(error.Code), error.Code, error.Message);
    const status = set?.[0];
    if (!status) return failure('permanent', 'EmptySendStatusSet', 'the answer has no send status for the number');
    if (status.Code === 'Ok') return { ok: true, providerMessageId: status.SerialNo ?? '' };
    return failure(kindOf(status.Code), status.Code, status.Message ?? status.Code);
  },
};
