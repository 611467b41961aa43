import {
  idBody, notificationLogPage, notificationPage, notificationRead, notificationSetAdd, notificationSetEdit, notificationSetPage,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as notifications from './notification.service.ts';

const area = 'System administration';

/** A valid edit request for the route-table scope probe: only the id is foreign. */
const probeEdit = (id: number) => ({ id, title: 'probe', content: 'probe', pushMode: 'immediate', targetType: 'role', targetIds: [1] });

export const notificationRoutes = [
  // The signed-in user's own inbox.
  route({
    method: 'POST', path: '/system/notification/query/page', access: 'user', name: '我的通知分页', area, kind: 'page', body: notificationPage,
    handler: ({ ctx, user, body }) => notifications.inboxPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/notification/query/count', access: 'user', name: '我的通知数量', area, kind: 'other',
    handler: ({ ctx, user }) => notifications.inboxCount(ctx, user),
  }),
  route({
    method: 'POST', path: '/system/notification/query/one', access: 'user', name: '我的通知详情', area, kind: 'one', body: idBody,
    scope: { entity: 'notification' },
    handler: ({ ctx, user, body }) => notifications.inboxOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/notification/read', access: 'user', name: '通知标记已读', area, kind: 'action', body: notificationRead,
    handler: ({ ctx, user, body }) => notifications.markRead(ctx, user, body),
  }),

  // Push history.
  route({
    method: 'POST', path: '/system/notification/log/query/page', access: 'menu', name: '推送记录分页', area, kind: 'page', body: notificationLogPage,
    handler: ({ ctx, user, body }) => notifications.logPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/notification/log/query/one', access: 'menu', name: '推送记录详情', area, kind: 'one', body: idBody,
    scope: { entity: 'notificationLog' },
    handler: ({ ctx, user, body }) => notifications.logOne(ctx, user, body.id),
  }),

  // Settings: what to push, to whom, when.
  route({
    method: 'POST', path: '/system/notification/set/query/page', access: 'menu', name: '消息配置分页', area, kind: 'page', body: notificationSetPage,
    handler: ({ ctx, user, body }) => notifications.settingPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/notification/set/query/one', access: 'menu', name: '消息配置详情', area, kind: 'one', body: idBody,
    scope: { entity: 'notificationSetting' },
    handler: ({ ctx, user, body }) => notifications.settingOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/notification/set/add', access: 'menu', name: '新增消息', area, kind: 'add', body: notificationSetAdd,
    handler: ({ ctx, user, body }) => notifications.addSetting(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/notification/set/edit', access: 'menu', name: '编辑消息', area, kind: 'edit', body: notificationSetEdit,
    scope: { entity: 'notificationSetting', input: probeEdit },
    handler: ({ ctx, user, body }) => notifications.editSetting(ctx, user, body),
  }),
];
