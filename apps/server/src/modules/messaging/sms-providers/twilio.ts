import { z } from 'zod';
import { SMS_SENDER_REQUIRED } from '@ess/contract/messaging';
import { baseUrlOf, SMS_SECRET_REQUIRED, callProvider, failure, httpStatusFailure, isFailure, type SmsProvider } from './provider.ts';

/**
 * Twilio Programmable Messaging, the Message resource: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP Basic auth (Account SID : Auth Token)
 * and a form body (To, From or MessagingServiceSid, Body). Created → 201 with the message's
 * "sid" (SM…); an error → 4xx/5xx with {code, message, more_info, status}. Twilio sends the
 * rendered text, not a provider template.
 */
/** Source text (translated by the language packs). */
export const TWILIO_ACCOUNT_SID_FORMAT = 'Twilio Account SID 应为 AC 加 32 位十六进制字符';

const credentials = z.object({
  accountSid: z.string().trim().regex(/^AC[0-9a-fA-F]{32}$/, TWILIO_ACCOUNT_SID_FORMAT),
  authToken: z.string({ error: SMS_SECRET_REQUIRED }).min(1, SMS_SECRET_REQUIRED).max(256),
  /** The sender: a Twilio number in E.164, an alphanumeric sender ID, or a Messaging Service SID (MG…). */
  from: z.string({ error: SMS_SENDER_REQUIRED }).trim().min(1, SMS_SENDER_REQUIRED).max(64),
});
type TwilioCredentials = z.infer<typeof credentials>;

/**
 * Documented error codes worth a retry: 20429 too many requests, 20500 internal error, 20503
 * service unavailable, 30001 queue overflow. Others (20003 authentication, 21211 invalid "To",
 * 21606 invalid "From", 21408 region not enabled, 21610 unsubscribed …) are permanent.
 */
const TEMPORARY = new Set([20429, 20500, 20503, 30001]);

const errorShape = z.object({ code: z.number().nullable().optional(), message: z.string(), status: z.number().optional() });
const createdShape = z.object({ sid: z.string() });

export const twilioSms: SmsProvider<TwilioCredentials> = {
  kind: 'twilio',
  credentials,
  secretFields: ['authToken'],
  defaultBaseUrl: 'https://api.twilio.com',
  sends: 'text',
  async send(cred, message, options = {}) {
    const form = new URLSearchParams({ To: message.phone, Body: message.text });
    form.set(cred.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', cred.from);
    const url = `${baseUrlOf(options, this.defaultBaseUrl)}/2010-04-01/Accounts/${encodeURIComponent(cred.accountSid)}/Messages.json`;
    const answer = await callProvider(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${cred.accountSid}:${cred.authToken}`, 'utf8').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
    }, options);
    if (isFailure(answer)) return answer;
    if (answer.status >= 200 && answer.status < 300) {
      const created = createdShape.safeParse(answer.json);
      return created.success ? { ok: true, providerMessageId: created.data.sid } : failure('permanent', `HTTP ${answer.status}`, 'the answer has no message sid');
    }
    const err = errorShape.safeParse(answer.json);
    if (!err.success || err.data.code == null) return httpStatusFailure(answer, undefined, err.success ? err.data.message : undefined);
    const temporary = TEMPORARY.has(err.data.code) || answer.status >= 500 || answer.status === 429;
    return failure(temporary ? 'temporary' : 'permanent', String(err.data.code), err.data.message);
  },
};
