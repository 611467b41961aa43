import {
  meterReadingEndpoints, TIMING_KIND_LABELS, TIMING_KINDS, type TimingReadingRecord, type ZeroReadingRecord,
} from '@ess/contract/meter-reading';
import { METER_PURPOSE_LABELS, METER_PURPOSES } from '@ess/contract/telemetry';
import { defineResource, formatDateTime, type EnumOption, type FilterDef } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { meterSourceOf } from './metering.options.ts';
import { QUALITY_OPTIONS, QualityTag } from './quality.tsx';
import { registerColumns } from './registers.tsx';

export const PURPOSE_OPTIONS: EnumOption[] = METER_PURPOSES.map((v) => ({ value: v, label: METER_PURPOSE_LABELS[v] }));
export const TIMING_KIND_OPTIONS: EnumOption[] = TIMING_KINDS.map((v) => ({ value: v, label: TIMING_KIND_LABELS[v] }));

/** The filters every reading list has: station, meter, station-local dates and quality. */
export const readingFilters = (withPurpose: boolean): FilterDef[] => [
  { key: 'siteId', title: '站点', type: 'select', source: siteSource },
  { key: 'deviceId', title: '电表', type: 'select', source: meterSourceOf(null) },
  ...(withPurpose ? [{ key: 'meterPurpose', title: '电表用途', type: 'enum' as const, options: PURPOSE_OPTIONS }] : []),
  { key: 'quality', title: '数据质量', type: 'enum', options: QUALITY_OPTIONS },
  { key: 'range', title: '日期', type: 'dateRange' },
];

const meterName = (r: { deviceName: string; deviceCode: string }) => `${r.deviceName} (${r.deviceCode})`;

/** /meter/time: every meter's cumulative registers at 00:00 station-local time, day by day. */
export const zeroResource = defineResource<ZeroReadingRecord>({
  key: ['metering', 'zero'],
  name: '零点数据',
  endpoints: { page: meterReadingEndpoints.zeroPage, export: meterReadingEndpoints.zeroExport },
  columns: [
    { key: 'readingDate', title: '日期', width: 110 },
    { key: 'siteName', title: '站点', width: 140, ellipsis: true },
    { key: 'deviceName', title: '电表', width: 180, ellipsis: true, render: meterName },
    { key: 'meterPurpose', title: '电表用途', type: 'enum', options: PURPOSE_OPTIONS, width: 100 },
    { key: 'quality', title: '数据质量', width: 110, render: (r, t) => <QualityTag flag={r.quality} t={t} /> },
    ...registerColumns<ZeroReadingRecord>((r) => r.registers),
    { key: 'sourceTime', title: '取数时间', width: 170, render: (r) => formatDateTime(r.sourceTime) },
  ],
  filters: readingFilters(true),
  detail: false,
  pageSize: 20,
  exportName: '零点数据',
});

/** /meter/reading: registers read at the configured times (month end 24:00 for settlement). */
export const timingResource = defineResource<TimingReadingRecord>({
  key: ['metering', 'timing'],
  name: '定时抄表',
  endpoints: { page: meterReadingEndpoints.timingPage, export: meterReadingEndpoints.timingExport },
  columns: [
    { key: 'localTime', title: '抄表时间', width: 150 },
    { key: 'configName', title: '抄表计划', width: 150, ellipsis: true, builtIn: true },
    { key: 'kind', title: '抄表方式', type: 'enum', options: TIMING_KIND_OPTIONS, width: 110 },
    { key: 'siteName', title: '站点', width: 140, ellipsis: true },
    { key: 'deviceName', title: '电表', width: 180, ellipsis: true, render: meterName },
    { key: 'quality', title: '数据质量', width: 110, render: (r, t) => <QualityTag flag={r.quality} t={t} /> },
    ...registerColumns<TimingReadingRecord>((r) => r.registers),
    { key: 'sourceTime', title: '取数时间', width: 170, render: (r) => formatDateTime(r.sourceTime) },
  ],
  filters: readingFilters(true),
  detail: false,
  pageSize: 20,
  exportName: '定时抄表',
});
