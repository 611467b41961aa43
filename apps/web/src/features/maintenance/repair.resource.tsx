import { maintenanceEndpoints, repairAdd, type RepairRecord } from '@ess/contract/maintenance';
import { Badge, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { defineResource, formatDateTime, type FormMode, type OptionSource } from '../../components/crud/index.ts';
import { LevelTag } from '../../components/LevelTag.tsx';
import { siteSource } from '../../components/options/sites.ts';
import { BOOLEAN_OVERDUE, deviceSourceOf, LEVEL_OPTIONS, REPAIR_SOURCE_OPTIONS, REPAIR_STATE_OPTIONS, userSource } from './maintenance.options.ts';
import { PhotoUpload } from './PhotoUpload.tsx';

export interface RepairForm {
  siteId: number;
  deviceId?: number | null;
  level: number;
  title?: string;
  description: string;
  photos: string[];
  assigneeId?: number | null;
  note?: string | null;
}

export const repairBody = (v: RepairForm, _mode: FormMode): Record<string, unknown> => ({
  siteId: v.siteId,
  deviceId: v.deviceId ?? null,
  level: v.level,
  title: v.title?.trim() ? v.title : undefined,
  description: v.description,
  photos: v.photos ?? [],
  assigneeId: v.assigneeId ?? null,
  note: v.note ?? null,
});

export const repairLink = (id: number) => `/repair/order-detail?id=${id}`;

const stationDevices = (v: Partial<RepairForm>): OptionSource | null => (v.siteId ? deviceSourceOf(v.siteId) : null);

/** The source alarm's state, live: in progress (red) or ended (green). */
export function AlarmState({ r, t }: { r: Pick<RepairRecord, 'alarmId' | 'alarmNo' | 'alarmStatus' | 'alarmEndedAt'>; t: (s: string, ...a: unknown[]) => string }) {
  if (r.alarmId === null) return <>-</>;
  return (
    <Space size={4} wrap data-testid="alarm-state" data-status={r.alarmStatus ?? ''}>
      <Typography.Text code>{r.alarmNo}</Typography.Text>
      {r.alarmStatus === 'active' ? <Badge status="error" text={t('告警进行中')} /> : <Badge status="success" text={t('告警已结束')} />}
      {r.alarmEndedAt && <Typography.Text type="secondary">{formatDateTime(r.alarmEndedAt)}</Typography.Text>}
    </Space>
  );
}

/** /repair/order: repair orders with filters by station, status, level, source, assignee and date. */
export const repairResource = defineResource<RepairRecord, RepairForm>({
  key: ['maintenance', 'repair'],
  name: '维修工单',
  endpoints: { page: maintenanceEndpoints.repairPage, add: maintenanceEndpoints.repairAdd, export: maintenanceEndpoints.repairExport },
  columns: [
    { key: 'no', title: '工单编号', width: 170, render: (r) => <Link to={repairLink(r.id)} data-testid="repair-link">{r.no}</Link> },
    { key: 'title', title: '工单标题', width: 180, ellipsis: true, builtIn: true, render: (r, t) => t(r.title) },
    { key: 'level', title: '等级', width: 100, render: (r) => <LevelTag level={r.level} /> },
    { key: 'status', title: '状态', type: 'enum', options: REPAIR_STATE_OPTIONS, width: 90 },
    { key: 'source', title: '来源', type: 'enum', options: REPAIR_SOURCE_OPTIONS, width: 110 },
    { key: 'siteName', title: '站点', width: 140, ellipsis: true },
    { key: 'deviceName', title: '设备', width: 160, ellipsis: true, render: (r) => (r.deviceName ? `${r.deviceName} (${r.deviceCode})` : '-') },
    { key: 'assigneeName', title: '维修人', width: 100, render: (r) => r.assigneeName ?? '-' },
    {
      key: 'dueAt', title: '截止时间', width: 170,
      render: (r, t) => (r.dueAt === null ? '-' : r.overdue ? <Typography.Text type="danger">{formatDateTime(r.dueAt)} ({t('已逾期')})</Typography.Text> : formatDateTime(r.dueAt)),
    },
    { key: 'alarm', title: '关联告警', width: 260, render: (r, t) => <AlarmState r={r} t={t} /> },
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'status', title: '状态', type: 'enum', options: REPAIR_STATE_OPTIONS },
    { key: 'level', title: '等级', type: 'enum', options: LEVEL_OPTIONS },
    { key: 'source', title: '来源', type: 'enum', options: REPAIR_SOURCE_OPTIONS },
    { key: 'assigneeId', title: '维修人', type: 'select', source: userSource },
    { key: 'overdue', title: '逾期', type: 'enum', options: BOOLEAN_OVERDUE },
    { key: 'range', title: '创建时间', type: 'datetimeRange' },
    { key: 'keyword', title: '编号/标题/描述' },
  ],
  form: {
    container: 'drawer',
    width: 640,
    fields: [
      { name: 'siteId', label: '站点', type: 'select', source: siteSource, required: true },
      { name: 'deviceId', label: '设备', type: 'select', source: stationDevices, clearOnChangeOf: ['siteId'] },
      { name: 'level', label: '等级', type: 'enum', options: LEVEL_OPTIONS, required: true },
      { name: 'title', label: '工单标题', maxLength: 64 },
      { name: 'description', label: '故障描述', type: 'textarea', maxLength: 500, required: true },
      { name: 'photos', label: '照片', type: 'custom', render: ({ value, onChange, id }) => <PhotoUpload id={id} value={(value as string[]) ?? []} onChange={onChange} /> },
      { name: 'assigneeId', label: '维修人', type: 'select', source: userSource, help: '不选则为待派单' },
      { name: 'note', label: '备注', type: 'textarea', maxLength: 200 },
    ],
    schemas: { add: repairAdd },
    initialValues: { level: 3, photos: [] },
    toBody: repairBody,
  },
  detail: false,
  actionsWidth: 200,
  pageSize: 20,
  exportName: '维修工单',
});
