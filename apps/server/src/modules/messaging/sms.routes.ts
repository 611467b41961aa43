import { smsChannelEndpoints as channels, smsLogEndpoints as logs, smsTemplateEndpoints as templates } from '@ess/contract/messaging';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as ch from './sms.channel.service.ts';
import * as lg from './sms.log.service.ts';
import * as tp from './sms.template.service.ts';

const area = 'SMS';
/** Probes: another company's object, or a filter or form naming another company, is refused. */
const companyFilter = { entity: 'company', input: (id: number) => ({ companyId: id }) };
const channelProbe = { entity: 'smsChannel' };
const templateProbe = { entity: 'smsTemplate' };
const probeChannel = (extra: Record<string, unknown>) => ({
  name: '越权渠道', provider: 'aliyun', accessKeyId: 'LTAI-probe', secret: 'probe-secret', companyId: 1, ...extra,
});
const probeTemplate = (extra: Record<string, unknown>) => ({ name: '越权模板', code: 'probe', language: 'zh-CN', content: '告警 ${station}', companyId: 1, ...extra });

export const smsRoutes = [
  // Channels
  route(channels.page, {
    access: 'menu', name: '短信渠道分页', area, kind: 'page', scope: companyFilter,
    handler: ({ ctx, user, body }) => ch.channelPage(ctx, user, body),
  }),
  route(channels.list, {
    access: 'menu', name: '短信渠道列表', area, kind: 'list', scope: companyFilter,
    handler: ({ ctx, user, body }) => ch.channelList(ctx, user, body),
  }),
  route(channels.one, {
    access: 'menu', name: '短信渠道详情', area, kind: 'one', scope: channelProbe,
    handler: ({ ctx, user, body }) => ch.channelOne(ctx, user, body.id),
  }),
  route(channels.add, {
    access: 'menu', name: '新增短信渠道', area, kind: 'add', scope: { entity: 'company', input: (id) => probeChannel({ companyId: id }) },
    handler: ({ ctx, user, body }) => ch.addChannel(ctx, user, body),
  }),
  route(channels.edit, {
    access: 'menu', name: '编辑短信渠道', area, kind: 'edit', scope: { entity: 'smsChannel', input: (id) => probeChannel({ id }) },
    handler: async ({ ctx, user, body }) => {
      await ch.editChannel(ctx, user, body);
      return true;
    },
  }),
  route(channels.delete, {
    access: 'menu', name: '删除短信渠道', area, kind: 'delete', scope: channelProbe,
    handler: async ({ ctx, user, query }) => {
      await ch.deleteChannel(ctx, user, query.id);
      return true;
    },
  }),
  route(channels.testSend, {
    access: 'menu', name: '短信渠道测试发送', area, kind: 'test', scope: { entity: 'smsChannel', input: (id) => ({ id, templateId: 1, phone: '+8613800138000' }) },
    handler: ({ ctx, user, body }) => ch.testSend(ctx, user, body),
  }),

  // Templates
  route(templates.page, {
    access: 'menu', name: '短信模板分页', area, kind: 'page', scope: companyFilter,
    handler: ({ ctx, user, body }) => tp.templatePage(ctx, user, body),
  }),
  route(templates.list, {
    access: 'menu', name: '短信模板列表', area, kind: 'list', scope: companyFilter,
    handler: ({ ctx, user, body }) => tp.templateList(ctx, user, body),
  }),
  route(templates.one, {
    access: 'menu', name: '短信模板详情', area, kind: 'one', scope: templateProbe,
    handler: ({ ctx, user, body }) => tp.smsTemplateRow(ctx.db, user, body.id),
  }),
  route(templates.add, {
    access: 'menu', name: '新增短信模板', area, kind: 'add', scope: { entity: 'company', input: (id) => probeTemplate({ companyId: id }) },
    handler: ({ ctx, user, body }) => tp.addTemplate(ctx, user, body),
  }),
  route(templates.edit, {
    access: 'menu', name: '编辑短信模板', area, kind: 'edit', scope: { entity: 'smsTemplate', input: (id) => probeTemplate({ id }) },
    handler: async ({ ctx, user, body }) => {
      await tp.editTemplate(ctx, user, body);
      return true;
    },
  }),
  route(templates.delete, {
    access: 'menu', name: '删除短信模板', area, kind: 'delete', scope: templateProbe,
    handler: async ({ ctx, user, query }) => {
      await tp.deleteTemplate(ctx, user, query.id);
      return true;
    },
  }),
  route(templates.preview, {
    access: 'menu', name: '短信模板预览', area, kind: 'preview', scope: templateProbe,
    handler: ({ ctx, user, body }) => tp.previewTemplate(ctx, user, body),
  }),

  // Log
  route(logs.page, {
    access: 'menu', name: '短信日志分页', area, kind: 'page', scope: companyFilter,
    handler: ({ ctx, user, body }) => lg.logPage(ctx, user, body),
  }),
  route(logs.one, {
    access: 'menu', name: '短信日志详情', area, kind: 'one', scope: { entity: 'smsLog' },
    handler: ({ ctx, user, body }) => lg.logOne(ctx, user, body.id),
  }),
  route(logs.export, {
    access: 'menu', name: '导出短信日志', area, kind: 'export', scope: companyFilter,
    handler: async ({ ctx, user, body, req, reply }) => lg.exportLog(ctx, user, body, await exportLanguage(req), reply),
  }),
];
