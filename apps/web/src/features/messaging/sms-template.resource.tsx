import { smsTemplateAdd, smsTemplateEdit, smsTemplateEndpoints, type SmsTemplateRecord } from '@ess/contract/messaging';
import { defineResource, type FormMode } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { messagingKeys } from './messaging.keys.ts';
import { previewField, variablesField } from './template.parts.tsx';
import { templateColumns, templateFilters, templateHeadFields, templateValues } from './template.shared.tsx';

export interface SmsTemplateForm {
  companyId: number;
  name: string;
  code: string;
  language: string;
  content: string;
  providerTemplateCode?: string | null;
  signName?: string | null;
  enabled: boolean;
  remark?: string | null;
  variables?: never;
  preview?: never;
}

export function smsTemplateBody(v: SmsTemplateForm, mode: FormMode, id?: number): Record<string, unknown> {
  const body = {
    companyId: v.companyId, name: v.name, code: v.code, language: v.language, content: v.content ?? '',
    providerTemplateCode: v.providerTemplateCode || null, signName: v.signName || null, enabled: v.enabled, remark: v.remark || null,
  };
  return mode === 'edit' ? { id, ...body } : body;
}

const previewSms = (v: SmsTemplateForm, siteId?: number) =>
  call(smsTemplateEndpoints.preview, { companyId: v.companyId, content: v.content ?? '', ...(siteId ? { siteId } : {}), language: v.language as never });

/** /sms/sms-template: SMS texts with ${variables}, tied to the provider's registered template and sign name. */
export const smsTemplateResource = defineResource<SmsTemplateRecord, SmsTemplateForm>({
  key: messagingKeys.smsTemplates,
  name: '短信模板',
  endpoints: {
    page: smsTemplateEndpoints.page,
    one: smsTemplateEndpoints.one,
    add: smsTemplateEndpoints.add,
    edit: smsTemplateEndpoints.edit,
    delete: smsTemplateEndpoints.delete,
  },
  columns: [
    ...templateColumns<SmsTemplateRecord>({ key: 'content', title: '短信内容' }),
    { key: 'providerTemplateCode', title: '服务商模板编号', type: 'code', width: 150 },
    { key: 'signName', title: '签名', width: 110 },
  ],
  filters: templateFilters,
  form: {
    container: 'drawer',
    width: 760,
    columns: 2,
    fields: [
      ...templateHeadFields<SmsTemplateForm>(),
      { name: 'providerTemplateCode', label: '服务商模板编号', maxLength: 64, placeholder: 'SMS_123456789', help: '阿里云、腾讯云发送时必填：服务商审核通过的模板' },
      { name: 'signName', label: '签名', maxLength: 64, help: '不填则使用渠道的默认签名' },
      { name: 'content', label: '短信内容', type: 'textarea', required: true, maxLength: 1000, wide: true, help: '变量写作 ${变量名}；阿里云、腾讯云按变量向服务商模板传参' },
      variablesField<SmsTemplateForm>(['content']),
      previewField<SmsTemplateForm, Awaited<ReturnType<typeof previewSms>>>((v, siteId) => previewSms(v, siteId)),
      { name: 'enabled', label: '启用', type: 'switch' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
    ],
    schemas: { add: smsTemplateAdd, edit: smsTemplateEdit },
    initialValues: { language: 'zh-CN', enabled: true },
    toValues: (r) => ({ ...templateValues(r), content: r.content, providerTemplateCode: r.providerTemplateCode, signName: r.signName }),
    toBody: smsTemplateBody,
  },
  actionsWidth: 280,
  pageSize: 20,
});
