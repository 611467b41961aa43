import { z } from 'zod';
import { NOTIFICATION_CONTENT_MAX } from './constants.ts';
import {
  dateRange, id, optionalEmail, optionalPhone, optionalText, pageRequest, password, trimmed,
} from './common.ts';

export const USER_STATUS = { enabled: 1, disabled: 0 } as const;
export const userStatus = z.union([z.literal(0), z.literal(1)]);

// Sign-in and profile
export const loginBody = z.object({
  username: trimmed(64),
  password: z.string().min(1).max(128),
});
export const changePasswordBody = z
  .object({ oldPassword: z.string().min(1).max(128), newPassword: password, confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.newPassword, { message: '两次输入的密码不一致', path: ['confirmPassword'] });
export const changeInfoBody = z.object({
  name: trimmed(64),
  phone: optionalPhone,
  email: optionalEmail,
});

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
export const companyFilter = z.object({ name: z.string().trim().max(64).optional(), parentId: id.optional() });
export const companyPage = pageRequest.extend(companyFilter.shape);

// Menu and interface
export const menuEdit = z.object({
  id,
  name: trimmed(64),
  icon: optionalText(64),
  sort: z.number().int().min(0).max(100_000).optional(),
  hidden: z.boolean().optional(),
  interfaceIds: z.array(id).max(1000).optional(),
});
export const interfaceFilter = z.object({
  keyword: z.string().trim().max(128).optional(),
  area: z.string().trim().max(64).optional(),
});

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
export const rolePage = pageRequest.extend(roleFilter.shape);

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
export const userPage = pageRequest.extend(userFilter.shape);

// Logs
export const loginLogFilter = dateRange.extend({
  username: z.string().trim().max(64).optional(),
  success: z.boolean().optional(),
  ip: z.string().trim().max(64).optional(),
});
export const loginLogPage = pageRequest.extend(loginLogFilter.shape);
export const accessLogFilter = dateRange.extend({
  username: z.string().trim().max(64).optional(),
  path: z.string().trim().max(256).optional(),
  method: z.string().trim().max(8).optional(),
  status: z.number().int().min(100).max(599).optional(),
});
export const accessLogPage = pageRequest.extend(accessLogFilter.shape);

// Notifications
export const PUSH_MODES = ['immediate', 'scheduled'] as const;
export const TARGET_TYPES = ['role', 'user'] as const;
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
export const notificationSetPage = pageRequest.extend({
  title: z.string().trim().max(100).optional(),
  pushMode: z.enum(PUSH_MODES).optional(),
});
export const notificationPage = pageRequest.extend({
  title: z.string().trim().max(100).optional(),
  read: z.boolean().optional(),
});
export const notificationRead = z.object({ ids: z.array(id).min(1).max(1000).optional(), all: z.boolean().optional() })
  .refine((v) => (v.ids?.length ?? 0) > 0 || v.all === true, { message: '请选择要标记已读的通知', path: ['ids'] });
export const notificationLogPage = pageRequest.extend({ settingId: id.optional() });

// Basics
export const validateScriptBody = z.object({ script: z.string().max(100_000) });
export const downloadQuery = z.object({ suffix: z.string().regex(/^[A-Za-z0-9_-]{8,64}(\.[A-Za-z0-9]{1,10})?$/, '文件标识不正确') });
