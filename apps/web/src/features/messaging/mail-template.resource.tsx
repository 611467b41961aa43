import { mailTemplateAdd, mailTemplateEdit, mailTemplateEndpoints, type MailTemplateRecord } from '@ess/contract/messaging';
import { defineResource, type FormMode } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { messagingKeys } from './messaging.keys.ts';
import { previewField, variablesField } from './template.parts.tsx';
import { templateColumns, templateFilters, templateHeadFields, templateValues } from './template.shared.tsx';

export interface MailTemplateForm {
  companyId: number;
  name: string;
  code: string;
  language: string;
  subject: string;
  html: string;
  text?: string | null;
  enabled: boolean;
  remark?: string | null;
  /** Display fields (not sent). */
  variables?: never;
  preview?: never;
}

export function mailTemplateBody(v: MailTemplateForm, mode: FormMode, id?: number): Record<string, unknown> {
  const body = {
    companyId: v.companyId, name: v.name, code: v.code, language: v.language, subject: v.subject ?? '', html: v.html ?? '', text: v.text || null,
    enabled: v.enabled, remark: v.remark || null,
  };
  return mode === 'edit' ? { id, ...body } : body;
}

/** /mail/mail-template: mail templates (subject, HTML and text bodies with ${variables}) per code and language. */
export const mailTemplateResource = defineResource<MailTemplateRecord, MailTemplateForm>({
  key: messagingKeys.mailTemplates,
  name: '邮件模板',
  endpoints: {
    page: mailTemplateEndpoints.page,
    one: mailTemplateEndpoints.one,
    add: mailTemplateEndpoints.add,
    edit: mailTemplateEndpoints.edit,
    delete: mailTemplateEndpoints.delete,
  },
  columns: templateColumns<MailTemplateRecord>({ key: 'subject', title: '邮件主题' }),
  filters: templateFilters,
  form: {
    container: 'drawer',
    width: 820,
    columns: 2,
    fields: [
      ...templateHeadFields<MailTemplateForm>(),
      { name: 'subject', label: '邮件主题', required: true, maxLength: 200, wide: true },
      { name: 'html', label: 'HTML正文', type: 'textarea', required: true, wide: true, help: '变量写作 ${变量名}，取值会做 HTML 转义' },
      { name: 'text', label: '纯文本正文', type: 'textarea', wide: true, help: '不填则由 HTML 正文生成' },
      variablesField<MailTemplateForm>(['subject', 'html', 'text']),
      previewField<MailTemplateForm, Awaited<ReturnType<typeof previewMail>>>((v, siteId) => previewMail(v, siteId)),
      { name: 'enabled', label: '启用', type: 'switch' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
    ],
    schemas: { add: mailTemplateAdd, edit: mailTemplateEdit },
    initialValues: { language: 'zh-CN', enabled: true },
    toValues: (r) => ({ ...templateValues(r), subject: r.subject, html: r.html, text: r.text }),
    toBody: mailTemplateBody,
  },
  actionsWidth: 280,
  pageSize: 20,
});

/** The server's rendering of the form's unsaved subject and bodies. */
const previewMail = (v: MailTemplateForm, siteId?: number) =>
  call(mailTemplateEndpoints.preview, { companyId: v.companyId, subject: v.subject ?? '', html: v.html ?? '', text: v.text || null, ...(siteId ? { siteId } : {}), language: v.language as never });
