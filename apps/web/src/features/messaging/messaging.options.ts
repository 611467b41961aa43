import { LOCALES } from '@ess/contract/constants';
import {
  MAIL_TLS_MODE_LABELS, MAIL_TLS_MODES, mailAccountEndpoints, mailTemplateEndpoints, MESSAGE_CHANNEL_LABELS, MESSAGE_CHANNELS,
  MESSAGE_EVENT_LABELS, MESSAGE_EVENTS, MESSAGE_ORIGIN_LABELS, MESSAGE_ORIGINS, MESSAGE_STATE_LABELS, MESSAGE_STATES, MESSAGE_VARIABLE_LABELS,
  SMS_PROVIDER_LABELS, SMS_PROVIDERS, smsChannelEndpoints, smsTemplateEndpoints, type MessageState, type TemplateRef,
} from '@ess/contract/messaging';
import type { DataOption, EnumOption, FilterDef, OptionSource } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import type { Tone } from '../../components/ToneTag.tsx';
import { LOCALE_NAMES } from '../../platform/i18n/locales.ts';
import { call } from '../../platform/request.ts';
import { messagingKeys } from './messaging.keys.ts';

/** Enumerations and pickers of the messaging screens; labels are the contract's (zh-CN source text). */

const labelled = <K extends string>(values: readonly K[], labels: Record<K, string>): EnumOption[] => values.map((v) => ({ value: v, label: labels[v] }));

export const TLS_MODE_OPTIONS: EnumOption[] = MAIL_TLS_MODES.map((v) => ({ value: v, label: MAIL_TLS_MODE_LABELS[v], literal: v !== 'none' }));
export const PROVIDER_OPTIONS: EnumOption[] = labelled(SMS_PROVIDERS, SMS_PROVIDER_LABELS);
export const EVENT_OPTIONS: EnumOption[] = labelled(MESSAGE_EVENTS, MESSAGE_EVENT_LABELS);
export const CHANNEL_OPTIONS: EnumOption[] = labelled(MESSAGE_CHANNELS, MESSAGE_CHANNEL_LABELS);
export const ORIGIN_OPTIONS: EnumOption[] = labelled(MESSAGE_ORIGINS, MESSAGE_ORIGIN_LABELS);
/** Languages by their own names (not translated, as the language menu shows them). */
export const LANGUAGE_OPTIONS: EnumOption[] = LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l], literal: true }));
export const LEVEL_OPTIONS: EnumOption[] = [1, 2, 3, 4, 5].map((l) => ({ value: l, label: `${l}`, literal: true }));
export const YES_NO: EnumOption[] = [
  { value: true, label: '是', color: 'success' },
  { value: false, label: '否', color: 'default' },
];
export const ENABLED_OPTIONS: EnumOption[] = [
  { value: true, label: '启用', color: 'success' },
  { value: false, label: '停用', color: 'default' },
];

/** A message's state as a coloured tag: queued grey-blue, sent green, retrying orange, failed red, cancelled grey. */
export const STATE_TONES: Record<MessageState, Tone> = { queued: 'processing', sent: 'success', retrying: 'warning', failed: 'error', cancelled: 'default' };
export const STATE_OPTIONS: EnumOption[] = MESSAGE_STATES.map((v) => ({ value: v, label: MESSAGE_STATE_LABELS[v] }));

/** "站点名称 ${station}": a variable's label (source text) with its placeholder. */
export const variableLabel = (name: string): string | undefined => (MESSAGE_VARIABLE_LABELS as Record<string, string>)[name];

const templateOption = (t: TemplateRef): DataOption => ({ value: t.id, label: `${t.name} · ${t.code} · ${LOCALE_NAMES[t.language as keyof typeof LOCALE_NAMES] ?? t.language}` });
/** A template code once (its language variants share it), for the rules. */
const codeOptions = (list: TemplateRef[]): DataOption[] =>
  [...new Map(list.map((t) => [t.code, { value: t.code, label: `${t.code} · ${t.name}` }])).values()];

export const mailAccountSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.mailAccounts, 'list'),
  load: async () => (await call(mailAccountEndpoints.list, {}, { loading: false })).map((a) => ({ value: a.id, label: `${a.name} <${a.fromAddress}>` })),
};
export const smsChannelSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.smsChannels, 'list'),
  load: async () => (await call(smsChannelEndpoints.list, {}, { loading: false })).map((c) => ({ value: c.id, label: `${c.name} · ${SMS_PROVIDER_LABELS[c.provider]}` })),
};
export const mailTemplateSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.mailTemplates, 'list'),
  load: async () => (await call(mailTemplateEndpoints.list, {}, { loading: false })).map(templateOption),
};
export const smsTemplateSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.smsTemplates, 'list'),
  load: async () => (await call(smsTemplateEndpoints.list, {}, { loading: false })).map(templateOption),
};
export const mailTemplateCodeSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.mailTemplates, 'codes'),
  load: async () => codeOptions(await call(mailTemplateEndpoints.list, {}, { loading: false })),
};
export const smsTemplateCodeSource: OptionSource = {
  queryKey: messagingKeys.options(messagingKeys.smsTemplates, 'codes'),
  load: async () => codeOptions(await call(smsTemplateEndpoints.list, {}, { loading: false })),
};

/** The search fields of a company-scoped list: its name, the company, enabled or not. */
export const companyListFilters = (nameTitle: string): FilterDef[] => [
  { key: 'name', title: nameTitle },
  { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
];
