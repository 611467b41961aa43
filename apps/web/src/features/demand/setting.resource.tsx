import { DEMAND_DEFAULT_ALARM_LEVEL, demandEndpoints, demandSettingAdd, type DemandSettingRecord } from '@ess/contract/demand';
import { DatePicker, Tag } from 'antd';
import dayjs from 'dayjs';
import { defineResource, type EnumOption } from '../../components/crud/index.ts';
import { formatNumber } from '../../components/number-format.ts';
import { siteSource } from '../../components/options/sites.ts';
import { demandKeys } from './demand.keys.ts';
import { settingBody, type SettingValues } from './demand.model.ts';
import { ToneTag } from '../../components/ToneTag.tsx';

const YES_NO: EnumOption[] = [
  { value: true, label: '是', color: 'success' },
  { value: false, label: '否', color: 'default' },
];
const LEVELS: EnumOption[] = [1, 2, 3, 4, 5].map((l) => ({ value: l, label: `${l}`, literal: true }));
const HISTORY: EnumOption[] = [
  { value: false, label: '仅当前' },
  { value: true, label: '含历史版本' },
];

/** A month field of the form: YYYY-MM, or empty (the standing target). */
function MonthInput({ id, value, onChange }: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  return (
    <DatePicker
      id={id}
      picker="month"
      style={{ width: '100%' }}
      value={typeof value === 'string' && value ? dayjs(`${value}-01`) : null}
      onChange={(v) => onChange(v ? v.format('YYYY-MM') : null)}
    />
  );
}

/**
 * /demand/setting: the target demand per station and month, or a standing one for every month
 * without its own, with the pre-alarm margin (the pre-alarm starts at target − margin), whether
 * the guard may ask the storage to discharge, and the alarm level. A new target for a station and
 * month replaces the one in force (kept as a version in the history).
 */
export const settingResource = defineResource<DemandSettingRecord, SettingValues>({
  key: demandKeys.settings,
  name: '需量目标',
  endpoints: { page: demandEndpoints.settingPage, add: demandEndpoints.settingAdd },
  columns: [
    { key: 'siteName', title: '站点', width: 150, ellipsis: true },
    { key: 'month', title: '适用月份', width: 110, render: (r, t) => r.month ?? t('长期') },
    { key: 'targetKw', title: '目标需量 (kW)', width: 130, render: (r) => formatNumber(r.targetKw) },
    { key: 'marginKw', title: '预警裕量 (kW)', width: 130, render: (r) => formatNumber(r.marginKw) },
    { key: 'preAlarmKw', title: '预警需量 (kW)', width: 130, render: (r) => formatNumber(r.preAlarmKw) },
    { key: 'allowDischarge', title: '允许放电调节', type: 'boolean', options: YES_NO, width: 120 },
    { key: 'alarmLevel', title: '告警等级', width: 90 },
    { key: 'version', title: '版本', width: 70 },
    {
      key: 'current', title: '状态', width: 100,
      render: (r, t) => (r.current ? <ToneTag tone="success">{t('生效中')}</ToneTag> : <Tag>{t('已替换')}</Tag>),
    },
    { key: 'createdBy', title: '创建人', width: 110 },
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'history', title: '版本', type: 'enum', options: HISTORY },
  ],
  form: {
    fields: [
      { name: 'siteId', label: '站点', type: 'select', source: siteSource, required: true },
      {
        name: 'month', label: '适用月份', type: 'custom', help: '不选则为长期目标（没有单独设置的月份都适用）',
        render: ({ id, value, onChange }) => <MonthInput id={id} value={value} onChange={onChange} />,
      },
      { name: 'targetKw', label: '目标需量 (kW)', type: 'number', required: true },
      { name: 'marginKw', label: '预警裕量 (kW)', type: 'number', required: true, help: '实时预测需量达到“目标需量 − 预警裕量”时预警' },
      { name: 'allowDischarge', label: '允许放电调节', type: 'switch', help: '预警时请求储能放电，把需量压到目标以下' },
      { name: 'alarmLevel', label: '告警等级', type: 'enum', options: LEVELS, required: true },
    ],
    schemas: { add: demandSettingAdd },
    initialValues: { marginKw: 0, allowDischarge: false, alarmLevel: DEMAND_DEFAULT_ALARM_LEVEL },
    toBody: (v) => {
      const out = settingBody(v);
      return out.ok ? out.body : { ...v, month: v.month || null };
    },
  },
  detail: false,
  pageSize: 20,
});
