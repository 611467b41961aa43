import { hookEndpoints as api } from '@ess/contract/hooks';
import { route } from '../../platform/http/route.ts';
import * as hooks from './hook.service.ts';
import * as params from './param.service.ts';
import * as settings from './setting.service.ts';
import * as triggers from './trigger.service.ts';

/**
 * The hooks calls served by the catalogue, parameters, hooks and settings (decision 0041). The
 * execution records, test send and replay are served by the dispatcher's routes (records.*.ts).
 */
const area = 'Hooks';
const inScope = { global: "rows filtered to the caller's companies; names no object" };
const catalogue = { global: 'the trigger catalogue is the same for every company (domain events of the modules)' };
/** A valid hook body for another company's id (the route-table probes). */
const hookBody = (companyId: number) => ({ companyId, name: 'probe', eventType: 'alarm.opened', url: 'https://hooks.example.com/probe' });
const paramBody = (companyId: number) => ({ companyId, name: 'probe', kind: 'constant', value: 'x' });
const ok = async (work: Promise<unknown>) => {
  await work;
  return true;
};

export const hookRoutes = [
  route(api.paramList, {
    access: 'menu', name: '钩子可用参数', area, kind: 'list', scope: { entity: 'company', input: (companyId) => ({ companyId }) },
    handler: ({ ctx, user, body }) => params.hookParamOptions(ctx, user, body),
  }),

  route(api.triggerList, {
    access: 'menu', name: '触发器列表', area, kind: 'list', scope: catalogue,
    handler: ({ ctx, user, body }) => triggers.triggerList(ctx, user, body),
  }),
  route(api.triggerPage, {
    access: 'menu', name: '触发器分页', area, kind: 'page', scope: catalogue,
    handler: ({ ctx, user, body }) => triggers.triggerPage(ctx, user, body),
  }),
  route(api.triggerOne, {
    access: 'menu', name: '触发器详情', area, kind: 'one', scope: catalogue,
    handler: ({ ctx, user, body }) => triggers.triggerOne(ctx, user, body),
  }),
  route(api.triggerScan, {
    access: 'menu', name: '扫描触发器', area, kind: 'action', scope: catalogue,
    handler: ({ ctx, query }) => triggers.scanTriggers(ctx, query.dryRun),
  }),

  route(api.relateParamList, {
    access: 'menu', name: '钩子参数列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => params.paramList(ctx, user, body),
  }),
  route(api.relateParamOne, {
    access: 'menu', name: '钩子参数详情', area, kind: 'one', scope: { entity: 'hookParam' },
    handler: ({ ctx, user, body }) => params.paramOne(ctx, user, body.id),
  }),
  route(api.relateParamAdd, {
    access: 'menu', name: '新增钩子参数', area, kind: 'add', scope: { entity: 'company', input: paramBody },
    handler: ({ ctx, user, body }) => params.paramAdd(ctx, user, body),
  }),
  route(api.relateParamEdit, {
    access: 'menu', name: '编辑钩子参数', area, kind: 'edit', scope: { entity: 'hookParam', input: (id) => ({ id, ...paramBody(1) }) },
    handler: ({ ctx, user, body }) => ok(params.paramEdit(ctx, user, body)),
  }),
  route(api.relateParamDelete, {
    access: 'menu', name: '删除钩子参数', area, kind: 'delete', scope: { entity: 'hookParam' },
    handler: ({ ctx, user, query }) => ok(params.paramDelete(ctx, user, query.id)),
  }),

  route(api.relateTriggerPage, {
    access: 'menu', name: '钩子分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => hooks.hookPage(ctx, user, body),
  }),
  route(api.relateTriggerOne, {
    access: 'menu', name: '钩子详情', area, kind: 'one', scope: { entity: 'hook' },
    handler: ({ ctx, user, body }) => hooks.hookOne(ctx, user, body.id),
  }),
  route(api.relateTriggerAdd, {
    access: 'menu', name: '新增钩子', area, kind: 'add', scope: { entity: 'company', input: hookBody },
    handler: ({ ctx, user, body }) => hooks.hookAddOne(ctx, user, body),
  }),
  route(api.relateTriggerEdit, {
    access: 'menu', name: '编辑钩子', area, kind: 'edit', scope: { entity: 'hook', input: (id) => ({ id, ...hookBody(1) }) },
    handler: ({ ctx, user, body }) => ok(hooks.hookEditOne(ctx, user, body)),
  }),
  route(api.relateTriggerDelete, {
    access: 'menu', name: '删除钩子', area, kind: 'delete', scope: { entity: 'hook' },
    handler: ({ ctx, user, query }) => ok(hooks.hookDelete(ctx, user, query.id)),
  }),
  route(api.relateTriggerActive, {
    access: 'menu', name: '启用/停用钩子', area, kind: 'action', scope: { entity: 'hook' },
    handler: ({ ctx, user, query }) => hooks.hookActive(ctx, user, query.id, query.active),
  }),
  route(api.relateTriggerRotateSecret, {
    access: 'menu', name: '更换钩子签名密钥', area, kind: 'action', scope: { entity: 'hook' },
    handler: ({ ctx, user, body }) => hooks.hookRotateSecret(ctx, user, body.id),
  }),

  route(api.settingOne, {
    access: 'menu', name: '钩子设置', area, kind: 'one', scope: { global: 'installation-wide settings, the same for every company' },
    handler: ({ ctx }) => settings.settingOne(ctx),
  }),
  route(api.settingEdit, {
    access: 'menu', name: '修改钩子设置', area, kind: 'edit', scope: { global: 'installation-wide settings; only an administrator of the top company edits them' },
    handler: ({ ctx, user, body }) => ok(settings.settingEdit(ctx, user, body)),
  }),
];
