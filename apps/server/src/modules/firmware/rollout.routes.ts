import { firmwareLogEndpoints as logApi, firmwareRolloutEndpoints as api, firmwareTaskEndpoints as taskApi } from '@ess/contract/firmware';
import { route } from '../../platform/http/route.ts';
import * as logs from './log-capture.service.ts';
import * as rollouts from './rollout.service.ts';
import { taskOne, taskPage } from './task.service.ts';

/**
 * The rollout side's calls (decision 0047): rollouts with their actions, device tasks, log
 * captures. The device's log PUT is served by firmware.http.ts (a PUT is outside the table).
 */
const area = 'Firmware';
const inScope = { global: "rows filtered to the caller's companies and stations; names no object" };
const rollout = { entity: 'firmwareRollout' };
const target = (packageId: number) => ({ packageId, siteIds: [], productIds: [], versions: [], deviceIds: [] });
const grouping = { canarySize: 1, groupSize: 10, groupPercent: null };
/** A valid rollout body naming another company's package (the route-table probes). */
const rolloutBody = (packageId: number) => ({ name: 'probe', target: target(packageId), grouping });

export const rolloutRoutes = [
  route(api.page, { access: 'menu', name: '升级任务分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => rollouts.rolloutPage(ctx, user, body) }),
  route(api.one, { access: 'menu', name: '升级任务详情', area, kind: 'one', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutOne(ctx, user, body.id) }),
  route(api.preview, {
    access: 'menu', name: '升级目标预览', area, kind: 'list', scope: { entity: 'firmwarePackage', input: (id) => ({ target: target(id) }) },
    handler: ({ ctx, user, body }) => rollouts.rolloutPreview(ctx, user, body),
  }),
  route(api.add, {
    access: 'menu', name: '新增升级任务', area, kind: 'add', scope: { entity: 'firmwarePackage', input: rolloutBody },
    handler: ({ ctx, user, body }) => rollouts.rolloutAdd(ctx, user, body),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑升级任务', area, kind: 'edit', scope: { entity: 'firmwareRollout', input: (id) => ({ id, ...rolloutBody(1) }) },
    handler: ({ ctx, user, body }) => rollouts.rolloutEdit(ctx, user, body),
  }),
  route(api.delete, { access: 'menu', name: '删除升级任务', area, kind: 'delete', scope: rollout, handler: ({ ctx, user, query }) => rollouts.rolloutDelete(ctx, user, query.id) }),
  route(api.approve, { access: 'menu', name: '审批通过升级任务', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutApprove(ctx, user, body, true) }),
  route(api.reject, { access: 'menu', name: '驳回升级任务', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutApprove(ctx, user, body, false) }),
  route(api.start, { access: 'menu', name: '开始升级', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutStart(ctx, user, body.id) }),
  route(api.pause, { access: 'menu', name: '暂停升级', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutPause(ctx, user, body) }),
  route(api.resume, { access: 'menu', name: '继续升级', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutResume(ctx, user, body.id) }),
  route(api.stop, { access: 'menu', name: '停止升级', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutStop(ctx, user, body.id) }),
  route(api.retry, { access: 'menu', name: '重试失败设备', area, kind: 'action', scope: rollout, handler: ({ ctx, user, body }) => rollouts.rolloutRetry(ctx, user, body) }),

  route(taskApi.page, { access: 'menu', name: '设备升级任务分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => taskPage(ctx, user, body) }),
  route(taskApi.one, { access: 'menu', name: '设备升级任务详情', area, kind: 'one', scope: { entity: 'firmwareTask' }, handler: ({ ctx, user, body }) => taskOne(ctx, user, body.id) }),

  route(logApi.page, { access: 'menu', name: '日志抓取分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => logs.logPage(ctx, user, body) }),
  route(logApi.one, { access: 'menu', name: '日志抓取详情', area, kind: 'one', scope: { entity: 'firmwareLog' }, handler: ({ ctx, user, body }) => logs.logOne(ctx, user, body.id) }),
  route(logApi.add, {
    access: 'menu', name: '新增日志抓取', area, kind: 'add',
    scope: { entity: 'company', input: (companyId) => ({ companyId, name: 'probe', deviceIds: [1], from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }) },
    handler: ({ ctx, user, body }) => logs.logAdd(ctx, user, body),
  }),
  route(logApi.delete, { access: 'menu', name: '删除日志抓取', area, kind: 'delete', scope: { entity: 'firmwareLog' }, handler: ({ ctx, user, query }) => logs.logDelete(ctx, user, query.id) }),
  route(logApi.download, {
    access: 'menu', name: '下载设备日志', area, kind: 'export', scope: { entity: 'firmwareLogDevice' },
    handler: ({ ctx, user, query, reply }) => logs.logDownload(ctx, user, query.id, reply),
  }),
];
