import { planAdd, planEdit, maintenanceEndpoints, type CountFrom, type PlanRecord } from '@ess/contract/maintenance';
import { Form, Tag, Typography } from 'antd';
import { todayIn } from '@ess/contract/time';
import { defineResource, type CustomFieldProps, type FormMode } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { COUNT_FROM_OPTIONS, itemSource, PLAN_STATE_OPTIONS, userSource } from './maintenance.options.ts';
import { newSchedule, scheduleBody, scheduleDraft, scheduleText, type ScheduleDraft } from './schedule.ts';
import { ScheduleField, SchedulePreview } from './ScheduleField.tsx';

/** The plan form. */
export interface PlanForm {
  name: string;
  siteIds: number[];
  itemIds: number[];
  schedule: ScheduleDraft;
  /** Not sent: where the preview of the next due dates shows. */
  preview?: never;
  assigneeIds: number[];
  countFrom: CountFrom;
  remark?: string | null;
}

export function planBody(v: PlanForm, mode: FormMode, id?: number): Record<string, unknown> {
  return {
    ...(mode === 'edit' ? { id } : {}),
    name: v.name,
    siteIds: v.siteIds ?? [],
    itemIds: v.itemIds ?? [],
    schedule: scheduleBody(v.schedule),
    assigneeIds: v.assigneeIds ?? [],
    countFrom: v.countFrom,
    remark: v.remark ?? null,
  };
}

/** The preview follows the form's schedule and stations as they change. */
function PreviewField({ form }: CustomFieldProps<PlanForm>) {
  const schedule = Form.useWatch('schedule', form) as ScheduleDraft | undefined;
  const siteIds = (Form.useWatch('siteIds', form) as number[] | undefined) ?? [];
  return <SchedulePreview schedule={schedule} siteIds={siteIds} />;
}

const browserToday = () => todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/** /patrol/plan: inspection plans — stations, items, schedule, assignee group — with start and stop. */
export const planResource = defineResource<PlanRecord, PlanForm>({
  key: ['maintenance', 'plan'],
  name: '巡检计划',
  endpoints: { page: maintenanceEndpoints.planPage, one: maintenanceEndpoints.planOne, add: maintenanceEndpoints.planAdd, edit: maintenanceEndpoints.planEdit },
  columns: [
    { key: 'name', title: '计划名称', width: 180, builtIn: true },
    { key: 'status', title: '状态', type: 'enum', options: PLAN_STATE_OPTIONS, width: 100 },
    { key: 'schedule', title: '执行周期', width: 220, render: (r, t) => scheduleText(r.schedule, t) },
    {
      key: 'sites', title: '站点', width: 200, ellipsis: true,
      render: (r) => r.sites.map((s) => s.siteName).join(', '),
    },
    { key: 'items', title: '巡检项', width: 90, render: (r) => r.items.length, inDetail: false },
    { key: 'itemNames', title: '巡检项', inTable: false, render: (r, t) => r.items.map((i) => t(i.name)).join(', ') },
    { key: 'assignees', title: '执行人', width: 160, ellipsis: true, render: (r) => r.assignees.map((a) => a.name).join(', ') || '-' },
    { key: 'countFrom', title: '下次计数', type: 'enum', options: COUNT_FROM_OPTIONS, width: 110, inTable: false },
    { key: 'period', title: '有效期', width: 200, render: (r) => `${r.schedule.startDate} ~ ${r.schedule.endDate ?? '∞'}` },
    { key: 'nextDueDate', title: '下次执行', width: 110, render: (r) => r.nextDueDate ?? '-' },
    {
      key: 'stopReason', title: '停止原因', width: 180,
      render: (r, t) =>
        r.expired ? <Tag>{t('已过期')}</Tag>
        : r.stopReason === 'unopened' ? <Typography.Text type="warning">{t('最近5张工单均未被打开，已自动暂停')}</Typography.Text>
        : r.stopReason === 'expired' ? t('已过结束日期')
        : '-',
    },
    { key: 'orderCount', title: '已生成工单', type: 'number', width: 100 },
    { key: 'ownerName', title: '负责人', inTable: false, render: (r) => r.ownerName ?? '-' },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170, inTable: false },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'itemId', title: '巡检项', type: 'select', source: itemSource },
    { key: 'status', title: '状态', type: 'enum', options: PLAN_STATE_OPTIONS },
    { key: 'keyword', title: '计划名称' },
  ],
  form: {
    container: 'drawer',
    width: 720,
    fields: [
      { name: 'name', label: '计划名称', required: true, maxLength: 64 },
      { name: 'siteIds', label: '站点', type: 'multiSelect', source: siteSource, required: true },
      { name: 'itemIds', label: '巡检项', type: 'multiSelect', source: itemSource, required: true, help: '工单按此顺序列出巡检项' },
      { name: 'schedule', label: '执行周期', type: 'custom', required: true, render: ({ value, onChange, id }) => <ScheduleField id={id} value={value as ScheduleDraft} onChange={onChange} /> },
      { name: 'preview', label: '计划预览', type: 'custom', render: (p) => <PreviewField {...p} /> },
      { name: 'assigneeIds', label: '执行人组', type: 'multiSelect', source: userSource, help: '工单可分配给这些人，生成时通知他们' },
      { name: 'countFrom', label: '下次计数', type: 'radio', options: COUNT_FROM_OPTIONS, required: true, help: '按计划日期：不论何时完成；按上次完成：从上次完成之日起计算间隔' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200 },
    ],
    schemas: { add: planAdd, edit: planEdit },
    get initialValues() {
      return { schedule: newSchedule(browserToday()), countFrom: 'schedule' as const, assigneeIds: [], siteIds: [], itemIds: [] };
    },
    toValues: (r) => ({
      name: r.name,
      siteIds: r.sites.map((s) => s.siteId),
      itemIds: r.items.map((i) => i.itemId),
      schedule: scheduleDraft(r.schedule),
      assigneeIds: r.assignees.map((a) => a.userId),
      countFrom: r.countFrom,
      remark: r.remark,
    }),
    toBody: planBody,
  },
  detail: true,
  actionsWidth: 260,
  pageSize: 20,
});
