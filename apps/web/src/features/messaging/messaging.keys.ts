/**
 * Query keys of the messaging screens (/mail/*, /sms/*, /message/message-config): a change under
 * ['messaging', area] reads that area's lists and pickers again.
 */
export const messagingKeys = {
  mailAccounts: ['messaging', 'mail-account'] as const,
  mailTemplates: ['messaging', 'mail-template'] as const,
  mailLogs: ['messaging', 'mail-log'] as const,
  smsChannels: ['messaging', 'sms-channel'] as const,
  smsTemplates: ['messaging', 'sms-template'] as const,
  smsLogs: ['messaging', 'sms-log'] as const,
  rules: ['messaging', 'message-config'] as const,
  /** A picker's options under its area's root (refreshed with the area). */
  options: (area: readonly string[], what: string) => [...area, 'options', what] as const,
  preview: (kind: 'mail' | 'sms', q: object) => ['messaging', 'preview', kind, q] as const,
};
