import { SUBSYSTEM_ENDPOINTS, type PeriodReadingRecord, type ReadingSubsystem } from '@ess/contract/meter-reading';
import type { MeterPurpose } from '@ess/contract/telemetry';
import { defineResource, formatDateTime, type ResourceDef } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { meteringKeys } from './metering.keys.ts';
import { meterSourceOf } from './metering.options.ts';
import { QUALITY_OPTIONS, QualityTag } from './quality.tsx';
import { registerColumns } from './registers.tsx';
import { TaskCell } from './remeter.tsx';

/** The meters each subsystem reads. */
export const SUBSYSTEM_PURPOSE: Record<ReadingSubsystem, MeterPurpose> = { storage: 'storage', pv: 'pv', pile: 'pile' };

const NAMES: Record<ReadingSubsystem, string> = { storage: '储能抄表结算', pv: '光伏抄表结算', pile: '充电桩抄表结算' };

/** "2026-10-01 ~ 2026-10-31". */
export const periodText = (r: Pick<PeriodReadingRecord, 'periodStart' | 'periodEnd'>) =>
  r.periodStart === r.periodEnd ? r.periodStart : `${r.periodStart} ~ ${r.periodEnd}`;

/**
 * A subsystem's period readings (/operation/meter, /operation/solar, /operation/pile): one row per
 * meter and period with the period's energy per register, its quality and the latest re-meter
 * task; filters by station, meter, dates and quality; xlsx export of the search.
 */
export function subsystemResource(subsystem: ReadingSubsystem): ResourceDef<PeriodReadingRecord> {
  const api = SUBSYSTEM_ENDPOINTS[subsystem];
  return defineResource<PeriodReadingRecord>({
    key: meteringKeys.subsystem(subsystem),
    name: NAMES[subsystem],
    endpoints: { page: api.page, export: api.export },
    columns: [
      { key: 'periodStart', title: '抄表周期', width: 200, render: (r) => periodText(r) },
      { key: 'siteName', title: '站点', width: 140, ellipsis: true },
      { key: 'deviceName', title: '电表', width: 180, ellipsis: true, render: (r) => `${r.deviceName} (${r.deviceCode})` },
      { key: 'quality', title: '数据质量', width: 110, render: (r, t) => <QualityTag flag={r.quality} t={t} /> },
      ...registerColumns<PeriodReadingRecord>((r) => r.difference),
      { key: 'readAt', title: '抄表时间', width: 170, render: (r) => formatDateTime(r.readAt) },
      { key: 'task', title: '重抄任务', width: 170, render: (r) => <TaskCell task={r.task} subsystem={subsystem} /> },
    ],
    filters: [
      { key: 'siteId', title: '站点', type: 'select', source: siteSource },
      { key: 'deviceId', title: '电表', type: 'select', source: meterSourceOf(null, SUBSYSTEM_PURPOSE[subsystem]) },
      { key: 'quality', title: '数据质量', type: 'enum', options: QUALITY_OPTIONS },
      { key: 'range', title: '日期', type: 'dateRange' },
    ],
    detail: false,
    actionsWidth: 200,
    pageSize: 20,
    exportName: NAMES[subsystem],
  });
}

export const SUBSYSTEM_RESOURCES: Record<ReadingSubsystem, ResourceDef<PeriodReadingRecord>> = {
  storage: subsystemResource('storage'),
  pv: subsystemResource('pv'),
  pile: subsystemResource('pile'),
};
