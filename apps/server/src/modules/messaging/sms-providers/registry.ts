import type { z } from 'zod';
import { aliyunSms } from './aliyun.ts';
import { failure, type SmsFailure, type SmsMessage, type SmsProvider, type SmsProviderKind, type SmsSendOptions, type SmsSendResult } from './provider.ts';
import { tencentSms } from './tencent.ts';
import { twilioSms } from './twilio.ts';

/** What the channels need to know of a provider without sending: its credentials' form and which fields are secret. */
export interface SmsProviderInfo {
  kind: SmsProviderKind;
  credentials: z.ZodType<Record<string, string | undefined>>;
  secretFields: readonly string[];
  defaultBaseUrl: string;
  sends: 'template' | 'text';
}

/** Every SMS provider by kind; a new provider is one module, one line here and one in `sendSms`. */
export const smsProviders: Record<SmsProviderKind, SmsProviderInfo> = { aliyun: aliyunSms, tencent: tencentSms, twilio: twilioSms };

function sendWith<C extends Record<string, string | undefined>>(provider: SmsProvider<C>, credentials: unknown, message: SmsMessage, options?: SmsSendOptions): Promise<SmsSendResult> {
  const parsed = provider.credentials.safeParse(credentials);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Promise.resolve(failure('permanent', 'InvalidCredentials', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`));
  }
  return provider.send(parsed.data, message, options).then((r) => (r.ok ? r : scrubbed(r, parsed.data, provider.secretFields)));
}

/**
 * A provider's reason with the channel's secrets taken out: a provider (or a proxy in front of it)
 * that echoes the request would otherwise put the secret into the log row, its answers and export.
 * The secret as sent: plain, URL-encoded, base64, and inside HTTP Basic auth (Twilio: sid:token).
 */
function scrubbed<C extends Record<string, string | undefined>>(f: SmsFailure, credentials: C, secretFields: readonly (keyof C & string)[]): SmsFailure {
  const plain = Object.values(credentials).filter((v): v is string => !!v);
  const forms = secretFields.flatMap((k) => {
    const secret = credentials[k];
    if (!secret) return [];
    const b64 = (x: string) => Buffer.from(x).toString('base64');
    return [secret, encodeURIComponent(secret), b64(secret), ...plain.map((id) => b64(`${id}:${secret}`))];
  });
  let reason = f.reason;
  let providerCode = f.providerCode;
  for (const x of forms.sort((a, b) => b.length - a.length)) {
    reason = reason.split(x).join('***');
    providerCode = providerCode.split(x).join('***');
  }
  return { ...f, reason, providerCode };
}

/** What a channel row holds (the contract's fields), the secret opened. */
export interface SmsChannelCredentials {
  provider: SmsProviderKind;
  accessKeyId: string;
  secret: string | null;
  region: string | null;
  appId: string | null;
  sender: string | null;
}

/** The channel's fields in the shape of its provider's credentials (undefined where unset). */
export function credentialsOf(c: SmsChannelCredentials): Record<string, string | undefined> {
  const v = (x: string | null) => x ?? undefined;
  switch (c.provider) {
    case 'aliyun': return { accessKeyId: c.accessKeyId, accessKeySecret: v(c.secret), regionId: v(c.region) };
    case 'tencent': return { secretId: c.accessKeyId, secretKey: v(c.secret), sdkAppId: v(c.appId), region: v(c.region) };
    case 'twilio': return { accountSid: c.accessKeyId, authToken: v(c.secret), from: v(c.sender) };
  }
}

/** Sends one message through the channel's provider; credentials that do not fit the provider fail permanently. */
export function sendSms(kind: SmsProviderKind, credentials: unknown, message: SmsMessage, options?: SmsSendOptions): Promise<SmsSendResult> {
  switch (kind) {
    case 'aliyun': return sendWith(aliyunSms, credentials, message, options);
    case 'tencent': return sendWith(tencentSms, credentials, message, options);
    case 'twilio': return sendWith(twilioSms, credentials, message, options);
  }
}
