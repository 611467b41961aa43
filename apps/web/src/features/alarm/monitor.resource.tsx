import { alarmEndpoints, type AlarmRecord } from '@ess/contract/alarm';
import { Typography } from 'antd';
import { defineResource, formatDateTime } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { deviceSource, formatDuration, LEVEL_OPTIONS, STATUS_OPTIONS, TYPE_OPTIONS } from './alarm.options.ts';
import { LevelTag } from '../../components/LevelTag.tsx';

const value = (v: number | null, unit: string | null) => (v === null ? '-' : `${v}${unit ? ` ${unit}` : ''}`);

/** Alarms in progress and ended, newest first: the list, filters, detail and export of /alarm/monitor. */
export const alarmResource = defineResource<AlarmRecord>({
  key: ['alarm', 'monitor'],
  name: '告警',
  endpoints: { page: alarmEndpoints.page, export: alarmEndpoints.export },
  columns: [
    { key: 'no', title: '告警编号', type: 'code', width: 170 },
    { key: 'level', title: '告警等级', width: 110, render: (r) => <LevelTag level={r.level} /> },
    { key: 'alarmType', title: '告警类型', type: 'enum', options: TYPE_OPTIONS, width: 100 },
    { key: 'description', title: '告警描述', width: 200, ellipsis: true, render: (r, t) => t(r.description) },
    { key: 'status', title: '状态', type: 'enum', options: STATUS_OPTIONS, width: 90 },
    { key: 'siteName', title: '所属站点', width: 150, ellipsis: true },
    { key: 'cabinetName', title: '储能柜', width: 120, render: (r) => r.cabinetName ?? '-' },
    { key: 'deviceName', title: '设备', width: 160, ellipsis: true, render: (r) => `${r.deviceName} (${r.deviceCode})` },
    { key: 'code', title: '故障码/属性', type: 'code', inTable: false },
    { key: 'message', title: '设备消息', inTable: false, render: (r) => r.message ?? '-' },
    { key: 'triggerValue', title: '触发值', width: 100, render: (r) => value(r.triggerValue, r.unit) },
    { key: 'clearValue', title: '恢复值', inTable: false, render: (r) => value(r.clearValue, r.unit) },
    { key: 'startedAt', title: '开始时间', type: 'datetime', width: 170 },
    { key: 'endedAt', title: '结束时间', type: 'datetime', width: 170 },
    { key: 'durationMs', title: '持续时长', width: 120, render: (r, t) => formatDuration(r.durationMs, t) },
    {
      key: 'shield', title: '屏蔽有效期', width: 200,
      render: (r, t) =>
        r.shield ? (
          <Typography.Text type="warning" data-testid="alarm-shield">
            {formatDateTime(r.shield.startAt)} ~ {formatDateTime(r.shield.endAt)}
          </Typography.Text>
        ) : (
          t('未屏蔽')
        ),
    },
    { key: 'shieldBy', title: '屏蔽人', inTable: false, render: (r) => (r.shield ? `${r.shield.createdBy}${r.shield.remark ? `：${r.shield.remark}` : ''}` : '-') },
  ],
  filters: [
    { key: 'siteId', title: '所属站点', type: 'select', source: siteSource },
    { key: 'deviceId', title: '设备', type: 'select', source: deviceSource },
    { key: 'level', title: '告警等级', type: 'enum', options: LEVEL_OPTIONS },
    { key: 'alarmType', title: '告警类型', type: 'enum', options: TYPE_OPTIONS },
    { key: 'status', title: '状态', type: 'enum', options: STATUS_OPTIONS },
    { key: 'range', title: '开始时间', type: 'datetimeRange' },
    { key: 'keyword', title: '编号/描述/设备' },
  ],
  detail: true,
  exportName: '告警记录',
  actionsWidth: 330,
  pageSize: 20,
});
