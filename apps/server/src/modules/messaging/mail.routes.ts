import { mailAccountEndpoints as account, mailLogEndpoints as log, mailTemplateEndpoints as template } from '@ess/contract/messaging';
import { route } from '../../platform/http/route.ts';
import { localeOf } from '../i18n/index.ts';
import * as accounts from './mail.account.service.ts';
import * as logs from './mail.log.service.ts';
import * as templates from './mail.template.service.ts';

const area = 'Messaging';
const inScope = { global: "rows filtered to the caller's companies; names no object" };
/** A valid account / template body for another company's id (the route-table probes). */
const accountBody = (companyId: number) => ({ companyId, name: 'probe', host: 'smtp.example.com', port: 587, tlsMode: 'starttls', fromAddress: 'probe@example.com' });
const templateBody = (companyId: number) => ({ companyId, name: 'probe', code: 'probe', language: 'zh-CN', subject: '${station}', html: '<p>${description}</p>' });

export const mailRoutes = [
  route(account.page, {
    access: 'menu', name: '邮件账号分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => accounts.accountPage(ctx, user, body),
  }),
  route(account.list, {
    access: 'menu', name: '邮件账号列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => accounts.accountList(ctx, user, body),
  }),
  route(account.one, {
    access: 'menu', name: '邮件账号详情', area, kind: 'one', scope: { entity: 'mailAccount' },
    handler: ({ ctx, user, body }) => accounts.accountOne(ctx, user, body.id),
  }),
  route(account.add, {
    access: 'menu', name: '新增邮件账号', area, kind: 'add', scope: { entity: 'company', input: accountBody },
    handler: ({ ctx, user, body }) => accounts.accountAdd(ctx, user, body),
  }),
  route(account.edit, {
    access: 'menu', name: '编辑邮件账号', area, kind: 'edit', scope: { entity: 'mailAccount', input: (id) => ({ id, ...accountBody(1) }) },
    handler: async ({ ctx, user, body }) => {
      await accounts.accountEdit(ctx, user, body);
      return true;
    },
  }),
  route(account.delete, {
    access: 'menu', name: '删除邮件账号', area, kind: 'delete', scope: { entity: 'mailAccount' },
    handler: async ({ ctx, user, query }) => {
      await accounts.accountDelete(ctx, user, query.id);
      return true;
    },
  }),
  route(account.testConnection, {
    access: 'menu', name: '测试邮件账号连接', area, kind: 'action', scope: { entity: 'mailAccount' },
    handler: ({ ctx, user, body }) => accounts.accountTestConnection(ctx, user, body),
  }),
  route(account.testSend, {
    access: 'menu', name: '发送测试邮件', area, kind: 'action', scope: { entity: 'mailAccount', input: (id) => ({ id, to: 'probe@example.com' }) },
    handler: ({ ctx, user, body, req }) => accounts.accountTestSend(ctx, user, body, localeOf(req)),
  }),

  route(template.page, {
    access: 'menu', name: '邮件模板分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => templates.templatePage(ctx, user, body),
  }),
  route(template.list, {
    access: 'menu', name: '邮件模板列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => templates.templateList(ctx, user, body),
  }),
  route(template.one, {
    access: 'menu', name: '邮件模板详情', area, kind: 'one', scope: { entity: 'mailTemplate' },
    handler: ({ ctx, user, body }) => templates.templateOne(ctx, user, body.id),
  }),
  route(template.add, {
    access: 'menu', name: '新增邮件模板', area, kind: 'add', scope: { entity: 'company', input: templateBody },
    handler: ({ ctx, user, body }) => templates.templateAdd(ctx, user, body),
  }),
  route(template.edit, {
    access: 'menu', name: '编辑邮件模板', area, kind: 'edit', scope: { entity: 'mailTemplate', input: (id) => ({ id, ...templateBody(1) }) },
    handler: async ({ ctx, user, body }) => {
      await templates.templateEdit(ctx, user, body);
      return true;
    },
  }),
  route(template.delete, {
    access: 'menu', name: '删除邮件模板', area, kind: 'delete', scope: { entity: 'mailTemplate' },
    handler: async ({ ctx, user, query }) => {
      await templates.templateDelete(ctx, user, query.id);
      return true;
    },
  }),
  route(template.preview, {
    access: 'menu', name: '预览邮件模板', area, kind: 'action', scope: { entity: 'mailTemplate' },
    handler: ({ ctx, user, body }) => templates.templatePreview(ctx, user, body),
  }),

  route(log.page, {
    access: 'menu', name: '邮件日志分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => logs.mailLogPage(ctx, user, body),
  }),
  route(log.one, {
    access: 'menu', name: '邮件日志详情', area, kind: 'one', scope: { entity: 'mailLog' },
    handler: ({ ctx, user, body }) => logs.mailLogOne(ctx, user, body.id),
  }),
  route(log.export, {
    access: 'menu', name: '导出邮件日志', area, kind: 'export', scope: inScope,
    handler: ({ ctx, user, body, req, reply }) => logs.mailLogExport(ctx, user, body, req, reply),
  }),
];
