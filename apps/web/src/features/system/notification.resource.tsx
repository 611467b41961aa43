import { NOTIFICATION_CONTENT_MAX } from '@ess/contract/constants';
import {
  notificationEndpoints, notificationSetAdd, notificationSetEdit, type InboxRow, type PushLogOne, type PushLogRow, type PushMode, type SettingOne,
  type SettingRow, type TargetType,
} from '@ess/contract/system';
import { Space, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { defineResource } from '../../components/crud/index.ts';
import { roleSource, userSource } from './system.options.ts';

// ---------------------------------------------------------------------------------------------
// Notification settings: what to push, to whom, when (/system/messageConfig, /system/messagePush)

export interface SettingForm {
  title: string;
  content: string;
  targetType: TargetType;
  targetIds: number[];
  pushMode: PushMode;
  pushAt?: Dayjs | null;
}

export const PUSH_MODE = [
  { value: 'immediate', label: '立即推送', color: 'processing' },
  { value: 'scheduled', label: '定时推送', color: 'warning' },
] as const;

export const TARGET_TYPE = [
  { value: 'role', label: '按角色' },
  { value: 'user', label: '按用户' },
] as const;

export const SETTING_STATUS = [
  { value: 'pending', label: '待推送', color: 'warning' },
  { value: 'sending', label: '推送中', color: 'processing' },
  { value: 'sent', label: '已推送', color: 'success' },
  { value: 'failed', label: '推送失败', color: 'error' },
] as const;

const targetsText = (row: SettingRow, t: (s: string, ...a: unknown[]) => string) =>
  row.targetType === 'role' ? t('$1 个角色', row.targetIds.length) : t('$1 个用户', row.targetIds.length);

export const settingResource = defineResource<SettingRow, SettingForm, SettingOne>({
  key: ['system', 'notification', 'setting'],
  name: '消息',
  endpoints: {
    page: notificationEndpoints.settingPage,
    one: notificationEndpoints.settingOne,
    add: notificationEndpoints.settingAdd,
    edit: notificationEndpoints.settingEdit,
  },
  columns: [
    { key: 'title', title: '消息标题', ellipsis: true, width: 220 },
    { key: 'targetType', title: '推送对象', render: (row, t) => targetsText(row, t) },
    { key: 'pushMode', title: '推送方式', type: 'enum', options: PUSH_MODE },
    { key: 'pushAt', title: '计划推送时间', type: 'datetime' },
    { key: 'status', title: '推送状态', type: 'enum', options: SETTING_STATUS },
    { key: 'sentAt', title: '推送时间', type: 'datetime' },
    { key: 'createdByName', title: '创建人' },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
  ],
  detailColumns: [
    { key: 'title', title: '消息标题', detailSpan: 2 },
    { key: 'pushMode', title: '推送方式', type: 'enum', options: PUSH_MODE },
    { key: 'status', title: '推送状态', type: 'enum', options: SETTING_STATUS },
    { key: 'pushAt', title: '计划推送时间', type: 'datetime' },
    { key: 'sentAt', title: '推送时间', type: 'datetime' },
    { key: 'targetType', title: '推送对象类型', type: 'enum', options: TARGET_TYPE },
    {
      key: 'targets',
      title: '推送对象',
      render: (row) => (
        <Space size={[4, 4]} wrap>
          {row.targets.map((x) => (
            <Tag key={x.id}>{x.name}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'createdByName', title: '创建人' },
    { key: 'companyName', title: '所属公司' },
    { key: 'content', title: '消息内容', type: 'longText', detailSpan: 2 },
  ],
  filters: [
    { key: 'title', title: '消息标题' },
    { key: 'pushMode', title: '推送方式', type: 'enum', options: PUSH_MODE },
  ],
  form: {
    width: 640,
    fields: [
      { name: 'title', label: '消息标题', required: true, maxLength: 100 },
      { name: 'content', label: '消息内容', type: 'textarea', required: true, maxLength: NOTIFICATION_CONTENT_MAX },
      { name: 'targetType', label: '推送对象类型', type: 'radio', options: TARGET_TYPE, required: true },
      {
        name: 'targetIds',
        label: '推送对象',
        type: 'multiSelect',
        required: true,
        clearOnChangeOf: ['targetType'],
        source: (v) => (v.targetType === 'user' ? userSource : roleSource),
      },
      { name: 'pushMode', label: '推送方式', type: 'radio', options: PUSH_MODE, required: true },
      { name: 'pushAt', label: '推送时间', type: 'datetime', required: true, visible: (v) => v.pushMode === 'scheduled' },
    ],
    schemas: { add: notificationSetAdd, edit: notificationSetEdit },
    initialValues: { targetType: 'role', pushMode: 'immediate', targetIds: [] },
    toValues: (s) => ({
      title: s.title, content: s.content, targetType: s.targetType, targetIds: s.targetIds, pushMode: s.pushMode,
      pushAt: s.pushAt ? dayjs(s.pushAt) : null,
    }),
    toBody: (v, mode, id) => ({
      ...(mode === 'edit' ? { id } : {}),
      title: v.title,
      content: v.content,
      targetType: v.targetType,
      targetIds: v.targetIds,
      pushMode: v.pushMode,
      pushAt: v.pushMode === 'scheduled' && v.pushAt ? dayjs(v.pushAt).valueOf() : null,
    }),
  },
  // Only a scheduled push that has not gone out can change.
  canEdit: (row) => row.status === 'pending',
});

// ---------------------------------------------------------------------------------------------
// Push log (/system/messagePush)

export const PUSH_RESULT = [
  { value: 'success', label: '成功', color: 'success' },
  { value: 'failed', label: '失败', color: 'error' },
] as const;

export const READ_STATE = [
  { value: true, label: '已读', color: 'default' },
  { value: false, label: '未读', color: 'processing' },
] as const;

export const pushLogResource = defineResource<PushLogRow, Record<string, never>, PushLogOne>({
  key: ['system', 'notification', 'log'],
  name: '推送记录',
  endpoints: { page: notificationEndpoints.logPage, one: notificationEndpoints.logOne },
  columns: [
    { key: 'title', title: '消息标题', ellipsis: true, width: 240 },
    { key: 'recipientCount', title: '接收人数', type: 'number' },
    { key: 'status', title: '推送结果', type: 'enum', options: PUSH_RESULT },
    { key: 'error', title: '失败原因', render: (row, t) => (row.error ? t(row.error) : '-') },
    { key: 'createdAt', title: '推送时间', type: 'datetime' },
  ],
  detailColumns: [
    { key: 'title', title: '消息标题', detailSpan: 2 },
    { key: 'pushMode', title: '推送方式', type: 'enum', options: PUSH_MODE },
    { key: 'targetType', title: '推送对象类型', type: 'enum', options: TARGET_TYPE },
    { key: 'status', title: '推送结果', type: 'enum', options: PUSH_RESULT },
    { key: 'recipientCount', title: '接收人数', type: 'number' },
    { key: 'createdAt', title: '推送时间', type: 'datetime' },
    { key: 'read', title: '已读人数', render: (row) => `${row.recipients.filter((r) => r.read).length} / ${row.recipients.length}` },
    { key: 'error', title: '失败原因', render: (row, t) => (row.error ? t(row.error) : '-'), detailSpan: 2 },
  ],
});

// ---------------------------------------------------------------------------------------------
// The signed-in user's inbox (/system/messageNotification)

export const inboxResource = defineResource<InboxRow>({
  key: ['system', 'notification', 'inbox'],
  name: '通知',
  endpoints: { page: notificationEndpoints.page, one: notificationEndpoints.one },
  columns: [
    { key: 'read', title: '状态', type: 'boolean', options: READ_STATE, width: 90 },
    { key: 'title', title: '标题', width: 240, ellipsis: true },
    { key: 'content', title: '内容', ellipsis: true, width: 360, inDetail: false },
    { key: 'createdAt', title: '接收时间', type: 'datetime' },
    { key: 'readAt', title: '阅读时间', type: 'datetime' },
    { key: 'content', title: '内容', type: 'longText', inTable: false, detailSpan: 2 },
  ],
  filters: [
    { key: 'title', title: '标题' },
    { key: 'read', title: '状态', type: 'enum', options: READ_STATE },
  ],
});

