import { messageRuleEndpoints as api } from '@ess/contract/messaging';
import { route } from '../../platform/http/route.ts';
import * as rules from './message.rule.service.ts';

const area = 'Message';
const ruleProbe = { entity: 'messageRule' };
/** A rule that passes the contract (console to the station's contacts), for the scope probes. */
const probeRule = (extra: Record<string, unknown>) => ({
  companyId: 1, name: 'probe', event: 'alarmOpened', channels: ['console'], recipients: { siteContacts: true }, ...extra,
});

export const messageRuleRoutes = [
  route(api.page, {
    access: 'menu', name: '消息规则分页', area, kind: 'page', scope: { entity: 'company', input: (id) => ({ companyId: id }) },
    handler: ({ ctx, user, body }) => rules.rulePage(ctx, user, body),
  }),
  route(api.one, {
    access: 'menu', name: '消息规则详情', area, kind: 'one', scope: ruleProbe,
    handler: ({ ctx, user, body }) => rules.ruleOne(ctx, user, body.id),
  }),
  route(api.add, {
    access: 'menu', name: '新增消息规则', area, kind: 'add', scope: { entity: 'company', input: (id) => probeRule({ companyId: id }) },
    handler: async ({ ctx, user, body }) => ({ id: await rules.addRule(ctx, user, body) }),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑消息规则', area, kind: 'edit', scope: { entity: 'messageRule', input: (id) => probeRule({ id }) },
    handler: async ({ ctx, user, body }) => {
      await rules.editRule(ctx, user, body);
      return true;
    },
  }),
  route(api.delete, {
    access: 'menu', name: '删除消息规则', area, kind: 'delete', scope: ruleProbe,
    handler: async ({ ctx, user, query }) => {
      await rules.deleteRule(ctx, user, query.id);
      return true;
    },
  }),
  route(api.enable, {
    access: 'menu', name: '启用消息规则', area, kind: 'action', scope: ruleProbe,
    handler: async ({ ctx, user, body }) => {
      await rules.setRuleEnabled(ctx, user, body.id, true);
      return true;
    },
  }),
  route(api.disable, {
    access: 'menu', name: '停用消息规则', area, kind: 'action', scope: ruleProbe,
    handler: async ({ ctx, user, body }) => {
      await rules.setRuleEnabled(ctx, user, body.id, false);
      return true;
    },
  }),
];
