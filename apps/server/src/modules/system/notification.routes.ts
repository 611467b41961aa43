import { notificationEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as notifications from './notification.service.ts';

const area = 'System administration';

/** A valid setting for the route-table scope probes: only the id or the target is foreign. */
const probeSetting = { title: 'probe', content: 'probe', pushMode: 'immediate', targetType: 'role', targetIds: [1] };
/** The inbox calls answer only the caller's own notifications. */
const own = { global: "the caller's own notifications" };

export const notificationRoutes = [
  // The signed-in user's own inbox.
  route(api.page, {
    access: 'user', name: '我的通知分页', area, kind: 'page', scope: own,
    handler: ({ ctx, user, body }) => notifications.inboxPage(ctx, user, body),
  }),
  route(api.count, {
    access: 'user', name: '我的通知数量', area, kind: 'other', scope: own,
    handler: ({ ctx, user }) => notifications.inboxCount(ctx, user),
  }),
  route(api.one, {
    access: 'user', name: '我的通知详情', area, kind: 'one',
    scope: { entity: 'notification' },
    handler: ({ ctx, user, body }) => notifications.inboxOne(ctx, user, body.id),
  }),
  route(api.read, {
    access: 'user', name: '通知标记已读', area, kind: 'action',
    scope: { global: "marks the caller's own notifications read; others' ids change nothing" },
    handler: ({ ctx, user, body }) => notifications.markRead(ctx, user, body),
  }),

  // Push history.
  route(api.logPage, {
    access: 'menu', name: '推送记录分页', area, kind: 'page',
    scope: { global: "push records filtered to the caller's data scope; names no object" },
    handler: ({ ctx, user, body }) => notifications.logPage(ctx, user, body),
  }),
  route(api.logOne, {
    access: 'menu', name: '推送记录详情', area, kind: 'one',
    scope: { entity: 'notificationLog' },
    handler: ({ ctx, user, body }) => notifications.logOne(ctx, user, body.id),
  }),

  // Settings: what to push, to whom, when.
  route(api.settingPage, {
    access: 'menu', name: '消息配置分页', area, kind: 'page',
    scope: { global: "settings filtered to the caller's data scope; names no object" },
    handler: ({ ctx, user, body }) => notifications.settingPage(ctx, user, body),
  }),
  route(api.settingOne, {
    access: 'menu', name: '消息配置详情', area, kind: 'one',
    scope: { entity: 'notificationSetting' },
    handler: ({ ctx, user, body }) => notifications.settingOne(ctx, user, body.id),
  }),
  route(api.settingAdd, {
    access: 'menu', name: '新增消息', area, kind: 'add',
    scope: { entity: 'role', input: (id) => ({ ...probeSetting, targetIds: [id] }) },
    handler: ({ ctx, user, body }) => notifications.addSetting(ctx, user, body),
  }),
  route(api.settingEdit, {
    access: 'menu', name: '编辑消息', area, kind: 'edit',
    scope: { entity: 'notificationSetting', input: (id) => ({ id, ...probeSetting }) },
    handler: ({ ctx, user, body }) => notifications.editSetting(ctx, user, body),
  }),
];
