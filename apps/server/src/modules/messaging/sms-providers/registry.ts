import type { z } from 'zod';
import { aliyunSms } from './aliyun.ts';
import { failure, type SmsMessage, type SmsProvider, type SmsProviderKind, type SmsSendOptions, type SmsSendResult } from './provider.ts';
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
  return provider.send(parsed.data, message, options);
}

/** Sends one message through the channel's provider; credentials that do not fit the provider fail permanently. */
export function sendSms(kind: SmsProviderKind, credentials: unknown, message: SmsMessage, options?: SmsSendOptions): Promise<SmsSendResult> {
  switch (kind) {
    case 'aliyun': return sendWith(aliyunSms, credentials, message, options);
    case 'tencent': return sendWith(tencentSms, credentials, message, options);
    case 'twilio': return sendWith(twilioSms, credentials, message, options);
  }
}
