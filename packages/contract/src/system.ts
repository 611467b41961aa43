import { z } from 'zod';
import { NOTIFICATION_CONTENT_MAX } from './constants.ts';
import {
  dateRange, id, idBody, idQuery, optionalEmail, optionalPhone, optionalText, optionalTimeZone, pageRequest, password, sortRequest, trimmed,
} from './common.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { profileInfo } from './auth.ts';

/**
 * System administration (api-catalogue "System administration"): companies, menus and
 * interfaces, roles, users, sign-in and access logs, notifications. Sign-in and the caller's own
 * profile are in auth.ts (the login page loads them).
 */

export const USER_STATUS = { enabled: 1, disabled: 0 } as const;
/** Source-text labels of the account statuses. */
export const USER_STATUS_LABELS: Record<0 | 1, string> = { 1: '启用', 0: '停用' };
export const userStatus = z.union([z.literal(0), z.literal(1)]);
export type UserStatus = z.infer<typeof userStatus>;

/** A role or user as a reference: id and name. */
const ref = z.object({ id: z.number(), name: z.string() });

// Company
const companyFields = {
  name: trimmed(64),
  code: optionalText(32),
  contact: optionalText(64),
  phone: optionalPhone,
  email: optionalEmail,
  regionCode: optionalText(12),
  address: optionalText(256),
  remark: optionalText(500),
};
export const companyAdd = z.object({ parentId: id, ...companyFields });
export const companyEdit = z.object({ id, parentId: id.optional(), ...companyFields });
/** Companies sort by these (the tree sorts the companies under each company by it). */
export const companySort = sortRequest(['name', 'code', 'contact', 'phone', 'regionCode', 'address', 'createdAt']);
export type CompanySortField = NonNullable<z.infer<typeof companySort>['sortField']>;
export const companyFilter = z.object({ name: z.string().trim().max(64).optional(), parentId: id.optional() }).extend(companySort.shape);
export const companyPage = pageRequest.extend(companyFilter.shape);
/** The tree and the menu calls take no filters but the sort; pickers may send any object. */
const noFilter = z.object({}).optional();
const companyTreeBody = companySort.optional();

export const companyRow = z.object({
  id: z.number(),
  /** Null for the top company of the installation. */
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  /** Materialised id path ("/1/3/"). */
  path: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  regionCode: z.string().nullable(),
  address: z.string().nullable(),
  remark: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type CompanyRow = z.infer<typeof companyRow>;
/** The caller's company with every company under it, nested. */
export const companyNode = companyRow.extend({
  get children() {
    return z.array(companyNode);
  },
});
export type CompanyNode = z.infer<typeof companyNode>;

// Menu and interface
export const menuEdit = z.object({
  id,
  name: trimmed(64),
  icon: optionalText(64),
  sort: z.number().int().min(0).max(100_000).optional(),
  hidden: z.boolean().optional(),
  interfaceIds: z.array(id).max(1000).optional(),
});
/**
 * The menu tree sorts the entries under each entry by these. Not by name: names are source
 * texts shown through the language pack, so their stored order is not the order the reader sees.
 */
export const menuSort = sortRequest(['sort', 'path', 'hidden', 'edited', 'updatedAt']);
export type MenuSortField = NonNullable<z.infer<typeof menuSort>['sortField']>;
export const interfaceFilter = z.object({
  keyword: z.string().trim().max(128).optional(),
  area: z.string().trim().max(64).optional(),
});

/** A registered interface (catalogue call); only those with access "menu" can be granted to roles. */
export const interfaceRow = z.object({
  id: z.number(),
  method: z.string(),
  path: z.string(),
  /** Source text. */
  name: z.string(),
  area: z.string(),
  kind: z.string(),
  /** public, user or menu. */
  access: z.string(),
  selectable: z.boolean(),
});
export type InterfaceRow = z.infer<typeof interfaceRow>;

/** A menu entry as administrators see it (a user's profile carries a trimmed copy: menuProfile). */
export const menuRow = z.object({
  id: z.number(),
  path: z.string(),
  parentPath: z.string().nullable(),
  /** Source text (Simplified Chinese), shown through the language pack. */
  name: z.string(),
  icon: z.string().nullable(),
  sort: z.number(),
  hidden: z.boolean(),
  /** Edited by an administrator (a refresh keeps the edit). */
  edited: z.boolean(),
  updatedAt: isoTime,
  /** The interfaces the entry maps to. */
  interfaceIds: z.array(z.number()),
});
export type MenuRow = z.infer<typeof menuRow>;
/** Every menu entry nested by parentPath. */
export const menuNode = menuRow.extend({
  get children() {
    return z.array(menuNode);
  },
});
export type MenuNode = z.infer<typeof menuNode>;
export const menuOne = menuRow.extend({
  interfaces: z.array(interfaceRow.pick({ id: true, method: true, path: true, name: true, area: true, access: true })),
});
export type MenuOne = z.infer<typeof menuOne>;

// Role
const uniqueIds = (label: string, min = 0) =>
  z
    .array(id)
    .min(min, `${label}不能为空`)
    .max(2000)
    .refine((v) => new Set(v).size === v.length, `${label}不能重复`);
const roleFields = {
  name: trimmed(64),
  code: optionalText(64),
  remark: optionalText(500),
  menuIds: uniqueIds('菜单').default([]),
  interfaceIds: uniqueIds('接口').default([]),
};
const nonEmptyPermission = (v: { menuIds: number[]; interfaceIds: number[] }) =>
  v.menuIds.length + v.interfaceIds.length > 0;
export const roleAdd = z
  .object({ companyId: id.optional(), ...roleFields })
  .refine(nonEmptyPermission, { message: '权限配置不能为空', path: ['menuIds'] });
export const roleEdit = z
  .object({ id, ...roleFields })
  .refine(nonEmptyPermission, { message: '权限配置不能为空', path: ['menuIds'] });
export const roleFilter = z.object({ name: z.string().trim().max(64).optional(), companyId: id.optional() });
export const roleSort = sortRequest(['name', 'code', 'companyName', 'userCount', 'createdAt']);
export const rolePage = pageRequest.extend(roleFilter.shape).extend(roleSort.shape);
export type RoleSortField = NonNullable<z.infer<typeof roleSort>['sortField']>;

export const roleRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  remark: z.string().nullable(),
  buildIn: z.boolean(),
  userCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type RoleRow = z.infer<typeof roleRow>;
export const roleOne = roleRow.extend({ menuIds: z.array(z.number()), interfaceIds: z.array(z.number()) });
export type RoleOne = z.infer<typeof roleOne>;

// User
const username = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9_.@-]+$/, '用户名只能包含字母、数字和 _ . @ -');
const userFields = {
  name: trimmed(64),
  phone: optionalPhone,
  email: optionalEmail,
  companyId: id,
  roleIds: uniqueIds('角色', 1),
  status: userStatus.default(1),
  siteIds: uniqueIds('站点').default([]),
  /**
   * Every station of the user's company and the companies under it, including stations created
   * later (siteIds is then ignored and cleared); off by default: a new user sees no station.
   */
  allSites: z.boolean().default(false),
  /**
   * The user's own IANA time zone (quiet hours of messages to them), as the personal center sets it:
   * '' or null clears it (the station's zone then); left out: none on add, unchanged on edit.
   */
  timeZone: optionalTimeZone,
};
export const userAdd = z.object({ username, password, ...userFields });
export const userEdit = z.object({ id, password: password.optional(), ...userFields });
export const userFilter = z.object({
  username: z.string().trim().max(32).optional(),
  name: z.string().trim().max(64).optional(),
  companyId: id.optional(),
  roleId: id.optional(),
  status: userStatus.optional(),
});
/** The user list sorts by these fields (server-side, through the list query). */
export const userSort = sortRequest(['username', 'name', 'companyName', 'status', 'siteCount', 'lastLoginAt', 'createdAt']);
export const userPage = pageRequest.extend(userFilter.shape).extend(userSort.shape);
export type UserSortField = NonNullable<z.infer<typeof userSort>['sortField']>;
/** The user list's xlsx export: the list's filter and order. */
export const userExport = userFilter.extend(userSort.shape);

/** The picker list (work orders, notifications): the users of the caller's companies. */
export const userRef = profileInfo
  .pick({ id: true, username: true, name: true, phone: true, email: true, companyId: true, companyName: true })
  .extend({ status: userStatus });
export type UserRef = z.infer<typeof userRef>;
/** Never the password hash. */
export const userRow = userRef.extend({
  buildIn: z.boolean(),
  /** Stations the user may see: those granted, or every station of their companies (built-in user, or allSites). */
  siteCount: z.number(),
  allSites: z.boolean(),
  /** The user's own IANA time zone, or null (messages to them follow the station's). */
  timeZone: z.string().nullable(),
  lastLoginAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
  roles: z.array(ref),
});
export type UserRow = z.infer<typeof userRow>;
/** How a user was deleted: removed, or anonymised because journals name them (decision 0033). */
export const userDeleted = z.object({ anonymised: z.boolean() });
export type UserDeleted = z.infer<typeof userDeleted>;
export const userOne = userRow.extend({ roleIds: z.array(z.number()), siteIds: z.array(z.number()) });
export type UserOne = z.infer<typeof userOne>;

// Logs
export const loginLogFilter = dateRange.extend({
  username: z.string().trim().max(64).optional(),
  success: z.boolean().optional(),
  ip: z.string().trim().max(64).optional(),
});
export const loginLogSort = sortRequest(['username', 'ip', 'success', 'reason', 'createdAt']);
export const loginLogPage = pageRequest.extend(loginLogFilter.shape).extend(loginLogSort.shape);
export type LoginLogSortField = NonNullable<z.infer<typeof loginLogSort>['sortField']>;
export const accessLogFilter = dateRange.extend({
  username: z.string().trim().max(64).optional(),
  path: z.string().trim().max(256).optional(),
  method: z.string().trim().max(8).optional(),
  status: z.number().int().min(100).max(599).optional(),
});
export const accessLogSort = sortRequest(['username', 'method', 'path', 'status', 'durationMs', 'ip', 'createdAt']);
export const accessLogPage = pageRequest.extend(accessLogFilter.shape).extend(accessLogSort.shape);
export type AccessLogSortField = NonNullable<z.infer<typeof accessLogSort>['sortField']>;

export const loginLogRow = z.object({
  id: z.number(),
  userId: z.number().nullable(),
  companyId: z.number().nullable(),
  username: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  success: z.boolean(),
  /** Why it failed, as a short code (captcha, unknown user, locked, wrong password, …). */
  reason: z.string().nullable(),
  createdAt: isoTime,
});
export type LoginLogRow = z.infer<typeof loginLogRow>;
export const accessLogRow = z.object({
  id: z.number(),
  requestId: z.string().nullable(),
  userId: z.number().nullable(),
  companyId: z.number().nullable(),
  username: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  query: z.string().nullable(),
  status: z.number(),
  durationMs: z.number(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  errorCode: z.string().nullable(),
  createdAt: isoTime,
});
export type AccessLogRow = z.infer<typeof accessLogRow>;

// Notifications
export const PUSH_MODES = ['immediate', 'scheduled'] as const;
export type PushMode = (typeof PUSH_MODES)[number];
export const TARGET_TYPES = ['role', 'user'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
/** A setting is pending until pushed (sending while a scheduled push runs), then sent or failed. */
export const SETTING_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type SettingStatus = (typeof SETTING_STATUSES)[number];
/** The result of one push. */
export const PUSH_RESULTS = ['success', 'failed'] as const;
export type PushResult = (typeof PUSH_RESULTS)[number];
const notificationSetFields = {
  title: trimmed(100),
  content: trimmed(NOTIFICATION_CONTENT_MAX),
  pushMode: z.enum(PUSH_MODES),
  pushAt: z.union([z.iso.datetime({ offset: true }), z.number().int()]).transform((v) => new Date(v)).optional().nullable(),
  targetType: z.enum(TARGET_TYPES),
  targetIds: uniqueIds('推送对象', 1),
};
const scheduleRule = (v: { pushMode: string; pushAt?: Date | null }) => v.pushMode !== 'scheduled' || !!v.pushAt;
export const notificationSetAdd = z
  .object(notificationSetFields)
  .refine(scheduleRule, { message: '定时推送必须设置推送时间', path: ['pushAt'] });
export const notificationSetEdit = z
  .object({ id, ...notificationSetFields })
  .refine(scheduleRule, { message: '定时推送必须设置推送时间', path: ['pushAt'] });
export const notificationSetSort = sortRequest(['title', 'targetType', 'pushMode', 'pushAt', 'status', 'sentAt', 'createdByName', 'createdAt']);
export type NotificationSetSortField = NonNullable<z.infer<typeof notificationSetSort>['sortField']>;
export const notificationSetPage = pageRequest.extend({
  title: z.string().trim().max(100).optional(),
  pushMode: z.enum(PUSH_MODES).optional(),
}).extend(notificationSetSort.shape);
export const notificationSort = sortRequest(['read', 'title', 'content', 'createdAt', 'readAt']);
export type NotificationSortField = NonNullable<z.infer<typeof notificationSort>['sortField']>;
export const notificationPage = pageRequest.extend({
  title: z.string().trim().max(100).optional(),
  read: z.boolean().optional(),
}).extend(notificationSort.shape);
export const notificationRead = z.object({ ids: z.array(id).min(1).max(1000).optional(), all: z.boolean().optional() })
  .refine((v) => (v.ids?.length ?? 0) > 0 || v.all === true, { message: '请选择要标记已读的通知', path: ['ids'] });
/** Not by failure reason: reasons are source texts shown through the language pack. */
export const notificationLogSort = sortRequest(['title', 'recipientCount', 'status', 'createdAt']);
export type NotificationLogSortField = NonNullable<z.infer<typeof notificationLogSort>['sortField']>;
export const notificationLogPage = pageRequest.extend({ settingId: id.optional() }).extend(notificationLogSort.shape);


/** A notification of the signed-in user's inbox. */
export const inboxRow = z.object({
  id: z.number(),
  /** Null once the setting that pushed it is gone. */
  settingId: z.number().nullable(),
  title: z.string(),
  content: z.string(),
  read: z.boolean(),
  readAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type InboxRow = z.infer<typeof inboxRow>;
export const inboxCount = z.object({ unread: z.number(), total: z.number() });
export type InboxCount = z.infer<typeof inboxCount>;
/** How many were marked read, and how many remain unread. */
export const readResult = z.object({ updated: z.number(), unread: z.number() });
export type ReadResult = z.infer<typeof readResult>;

export const settingRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  title: z.string(),
  content: z.string(),
  pushMode: z.enum(PUSH_MODES),
  pushAt: isoTime.nullable(),
  targetType: z.enum(TARGET_TYPES),
  targetIds: z.array(z.number()),
  status: z.enum(SETTING_STATUSES),
  createdBy: z.number(),
  /** Null once the creating user is gone. */
  createdByName: z.string().nullable(),
  sentAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SettingRow = z.infer<typeof settingRow>;
export const settingOne = settingRow.extend({ targets: z.array(ref) });
export type SettingOne = z.infer<typeof settingOne>;
/** An add or edit: pushed at once (sent, to that many recipients) or scheduled (pending). */
export const settingSaved = z.object({ id: z.number(), status: z.enum(['sent', 'pending']), recipientCount: z.number() });
export type SettingSaved = z.infer<typeof settingSaved>;

export const pushLogRow = z.object({
  id: z.number(),
  settingId: z.number(),
  companyId: z.number(),
  title: z.string(),
  recipientCount: z.number(),
  status: z.enum(PUSH_RESULTS),
  /** Why a push failed (source text). */
  error: z.string().nullable(),
  createdAt: isoTime,
});
export type PushLogRow = z.infer<typeof pushLogRow>;
export const pushRecipient = z.object({ userId: z.number(), username: z.string(), name: z.string(), read: z.boolean(), readAt: isoTime.nullable() });
export type PushRecipient = z.infer<typeof pushRecipient>;
export const pushLogOne = pushLogRow.extend({
  pushMode: z.enum(PUSH_MODES),
  targetType: z.enum(TARGET_TYPES),
  /** Who received it (successful pushes). */
  recipients: z.array(pushRecipient),
});
export type PushLogOne = z.infer<typeof pushLogOne>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const companyEndpoints = {
  tree: endpoint({ method: 'POST', path: '/system/company/query/tree', body: companyTreeBody, response: z.array(companyNode) }),
  list: endpoint({ method: 'POST', path: '/system/company/query/list', body: companyFilter, response: z.array(companyRow) }),
  page: endpoint({ method: 'POST', path: '/system/company/query/page', body: companyPage, response: pageOf(companyRow) }),
  one: endpoint({ method: 'POST', path: '/system/company/query/one', body: idBody, response: companyRow }),
  add: endpoint({ method: 'POST', path: '/system/company/add', body: companyAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/system/company/edit', body: companyEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/system/company/delete', query: idQuery, response: done }),
};

export const menuEndpoints = {
  interfaces: endpoint({ method: 'POST', path: '/system/interface/query/list', body: interfaceFilter, response: z.array(interfaceRow) }),
  refresh: endpoint({ method: 'POST', path: '/system/menu/refresh', body: noFilter, response: done }),
  tree: endpoint({ method: 'POST', path: '/system/menu/query/tree', body: menuSort.optional(), response: z.array(menuNode) }),
  one: endpoint({ method: 'POST', path: '/system/menu/query/one', body: idBody, response: menuOne }),
  edit: endpoint({ method: 'POST', path: '/system/menu/edit', body: menuEdit, response: done }),
};

export const roleEndpoints = {
  list: endpoint({ method: 'POST', path: '/system/role/query/list', body: roleFilter, response: z.array(roleRow) }),
  page: endpoint({ method: 'POST', path: '/system/role/query/page', body: rolePage, response: pageOf(roleRow) }),
  one: endpoint({ method: 'POST', path: '/system/role/query/one', body: idBody, response: roleOne }),
  add: endpoint({ method: 'POST', path: '/system/role/add', body: roleAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/system/role/edit', body: roleEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/system/role/delete', query: idQuery, response: done }),
};

export const userEndpoints = {
  page: endpoint({ method: 'POST', path: '/system/user/query/page', body: userPage, response: pageOf(userRow) }),
  list: endpoint({ method: 'POST', path: '/system/user/query/list', body: userFilter, response: z.array(userRef) }),
  one: endpoint({ method: 'POST', path: '/system/user/query/one', body: idBody, response: userOne }),
  add: endpoint({ method: 'POST', path: '/system/user/add', body: userAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/system/user/edit', body: userEdit, response: done }),
  /** Not in the catalogue (issue 16): the user list as xlsx, in the caller's language. */
  export: endpoint({ method: 'POST', path: '/system/user/export', body: userExport, response: FILE }),
  /**
   * Not in the catalogue (users could only be disabled); GET with the id as the catalogue's other
   * deletes. A user without history is removed; one with history is anonymised (decision 0033).
   */
  delete: endpoint({ method: 'GET', path: '/system/user/delete', query: idQuery, response: userDeleted }),
};

export const logEndpoints = {
  loginPage: endpoint({ method: 'POST', path: '/system/loginLog/query/page', body: loginLogPage, response: pageOf(loginLogRow) }),
  loginExport: endpoint({ method: 'POST', path: '/system/loginLog/export', body: loginLogFilter, response: FILE }),
  accessPage: endpoint({ method: 'POST', path: '/system/access/log/query/page', body: accessLogPage, response: pageOf(accessLogRow) }),
  accessOne: endpoint({ method: 'POST', path: '/system/access/log/query/one', body: idBody, response: accessLogRow }),
  accessExport: endpoint({ method: 'POST', path: '/system/access/log/export', body: accessLogFilter, response: FILE }),
};

export const notificationEndpoints = {
  // The signed-in user's own inbox.
  page: endpoint({ method: 'POST', path: '/system/notification/query/page', body: notificationPage, response: pageOf(inboxRow) }),
  count: endpoint({ method: 'POST', path: '/system/notification/query/count', response: inboxCount }),
  one: endpoint({ method: 'POST', path: '/system/notification/query/one', body: idBody, response: inboxRow }),
  read: endpoint({ method: 'POST', path: '/system/notification/read', body: notificationRead, response: readResult }),
  // Push history.
  logPage: endpoint({ method: 'POST', path: '/system/notification/log/query/page', body: notificationLogPage, response: pageOf(pushLogRow) }),
  logOne: endpoint({ method: 'POST', path: '/system/notification/log/query/one', body: idBody, response: pushLogOne }),
  // Settings: what to push, to whom, when.
  settingPage: endpoint({ method: 'POST', path: '/system/notification/set/query/page', body: notificationSetPage, response: pageOf(settingRow) }),
  settingOne: endpoint({ method: 'POST', path: '/system/notification/set/query/one', body: idBody, response: settingOne }),
  settingAdd: endpoint({ method: 'POST', path: '/system/notification/set/add', body: notificationSetAdd, response: settingSaved }),
  settingEdit: endpoint({ method: 'POST', path: '/system/notification/set/edit', body: notificationSetEdit, response: settingSaved }),
};
