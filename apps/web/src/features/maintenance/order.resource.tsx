import { maintenanceEndpoints, workOrderAdd, type WorkOrderRecord } from '@ess/contract/maintenance';
import { Progress, Typography } from 'antd';
import { Link } from 'react-router';
import { defineResource, formatDateTime, toMillis, type FormMode } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { BOOLEAN_OVERDUE, itemSource, ORDER_STATE_OPTIONS, ORIGIN_OPTIONS, userSource } from './maintenance.options.ts';

export interface WorkOrderForm {
  siteId: number;
  title: string;
  itemIds: number[];
  startAt: unknown;
  dueAt: unknown;
  assigneeId?: number | null;
  note?: string | null;
}

export const orderBody = (v: WorkOrderForm, _mode: FormMode): Record<string, unknown> => ({
  siteId: v.siteId,
  title: v.title,
  itemIds: v.itemIds ?? [],
  startAt: toMillis(v.startAt),
  dueAt: toMillis(v.dueAt),
  assigneeId: v.assigneeId ?? null,
  note: v.note ?? null,
});

/** The link to an order's detail page. */
export const orderLink = (id: number) => `/patrol/order-detail?id=${id}`;

/** /patrol/order: inspection work orders with filters by station, status, assignee and date. */
export const orderResource = defineResource<WorkOrderRecord, WorkOrderForm>({
  key: ['maintenance', 'work-order'],
  name: '巡检工单',
  endpoints: { page: maintenanceEndpoints.orderPage, add: maintenanceEndpoints.orderAdd, export: maintenanceEndpoints.orderExport },
  columns: [
    { key: 'no', title: '工单编号', width: 170, render: (r) => <Link to={orderLink(r.id)} data-testid="order-link">{r.no}</Link> },
    { key: 'title', title: '工单标题', width: 180, ellipsis: true, builtIn: true },
    { key: 'status', title: '状态', type: 'enum', options: ORDER_STATE_OPTIONS, width: 90 },
    { key: 'siteName', title: '站点', width: 140, ellipsis: true },
    { key: 'assigneeName', title: '执行人', width: 100, render: (r) => r.assigneeName ?? '-' },
    { key: 'startAt', title: '计划开始', type: 'datetime', width: 160 },
    {
      key: 'dueAt', title: '截止时间', width: 160,
      render: (r, t) => (r.overdue ? <Typography.Text type="danger">{formatDateTime(r.dueAt)} ({t('已逾期')})</Typography.Text> : formatDateTime(r.dueAt)),
    },
    {
      key: 'progress', title: '进度', width: 140,
      render: (r, t) => (
        <Progress
          size="small"
          aria-label={t('进度')}
          percent={r.itemCount ? Math.round((r.doneCount / r.itemCount) * 100) : 0}
          format={() => `${r.doneCount}/${r.itemCount}`}
        />
      ),
    },
    { key: 'failCount', title: '异常项', type: 'number', width: 80 },
    { key: 'planName', title: '巡检计划', width: 160, ellipsis: true, builtIn: true, render: (r, t) => (r.planName ? t(r.planName) : '-') },
    { key: 'origin', title: '来源', type: 'enum', options: ORIGIN_OPTIONS, width: 100 },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'status', title: '状态', type: 'enum', options: ORDER_STATE_OPTIONS },
    { key: 'assigneeId', title: '执行人', type: 'select', source: userSource },
    { key: 'range', title: '计划开始', type: 'datetimeRange' },
    { key: 'overdue', title: '逾期', type: 'enum', options: BOOLEAN_OVERDUE },
    { key: 'keyword', title: '编号/标题/计划' },
  ],
  form: {
    container: 'drawer',
    width: 560,
    fields: [
      { name: 'siteId', label: '站点', type: 'select', source: siteSource, required: true },
      { name: 'title', label: '工单标题', required: true, maxLength: 64 },
      { name: 'itemIds', label: '巡检项', type: 'multiSelect', source: itemSource, required: true },
      { name: 'startAt', label: '计划开始', type: 'datetime', required: true },
      { name: 'dueAt', label: '截止时间', type: 'datetime', required: true },
      { name: 'assigneeId', label: '执行人', type: 'select', source: userSource, help: '不选则为待分配' },
      { name: 'note', label: '备注', type: 'textarea', maxLength: 200 },
    ],
    schemas: { add: workOrderAdd },
    toBody: orderBody,
  },
  detail: false,
  actionsWidth: 240,
  pageSize: 20,
  exportName: '巡检工单',
});
