import {
  QUALITY_FLAG_LABELS, READING_REGISTERS, READING_SUBSYSTEM_LABELS, SUBSYSTEM_ENDPOINTS, meterReadingEndpoints as api, registerLabel,
  type PeriodReadingRecord, type QualityFlag, type ReadingSubsystem, type TimingReadingRecord, type ZeroReadingRecord,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { sendXlsx, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { exportLanguage } from '../i18n/index.ts';
import { periodOne, periodPage, periodRows, requestReMeter } from './period-reading.service.ts';
import { timingPage, timingRows } from './timing-reading.service.ts';
import { zeroPage, zeroRows } from './zero-reading.service.ts';

const area = 'Meters';
const siteProbe = { entity: 'site', input: (siteId: number) => ({ siteId }) };
const today = () => new Date().toISOString().slice(0, 10);

const qualityColumn = <T extends { quality: QualityFlag }>(): XlsxColumn<T> => ({ header: '数据质量', kind: 'label', value: (r) => QUALITY_FLAG_LABELS[r.quality] });
const registerColumns = <T>(pick: (r: T) => Record<string, number | null>, suffix = ''): XlsxColumn<T>[] =>
  READING_REGISTERS.map((id) => ({ header: `${registerLabel(id)}${suffix}`, unit: 'kWh', width: 24, numFmt: '#,##0.000', value: (r: T) => pick(r)[id] ?? null }));

export function zeroColumns(): XlsxColumn<ZeroReadingRecord>[] {
  return [
    { header: '站点', kind: 'name', width: 20, value: (r) => r.siteName },
    { header: '电表名称', kind: 'name', width: 18, value: (r) => r.deviceName },
    { header: '电表编码', width: 20, value: (r) => r.deviceCode },
    { header: '抄表日期（站点当地）', width: 16, value: (r) => r.readingDate },
    { header: '数据时间', kind: 'instant', width: 20, value: (r) => (r.sourceTime ? new Date(r.sourceTime) : null) },
    qualityColumn(),
    ...registerColumns<ZeroReadingRecord>((r) => r.registers),
  ];
}

export function timingColumns(): XlsxColumn<TimingReadingRecord>[] {
  return [
    { header: '站点', kind: 'name', width: 20, value: (r) => r.siteName },
    { header: '电表名称', kind: 'name', width: 18, value: (r) => r.deviceName },
    { header: '电表编码', width: 20, value: (r) => r.deviceCode },
    { header: '抄表配置', kind: 'name', width: 18, value: (r) => r.configName },
    { header: '抄表时间（站点当地）', width: 20, value: (r) => r.localTime },
    { header: '数据时间', kind: 'instant', width: 20, value: (r) => (r.sourceTime ? new Date(r.sourceTime) : null) },
    qualityColumn(),
    ...registerColumns<TimingReadingRecord>((r) => r.registers),
  ];
}

export function periodColumns(): XlsxColumn<PeriodReadingRecord>[] {
  return [
    { header: '站点', kind: 'name', width: 20, value: (r) => r.siteName },
    { header: '电表名称', kind: 'name', width: 18, value: (r) => r.deviceName },
    { header: '电表编码', width: 20, value: (r) => r.deviceCode },
    { header: '开始日期', width: 12, value: (r) => r.periodStart },
    { header: '结束日期', width: 12, value: (r) => r.periodEnd },
    qualityColumn(),
    ...registerColumns<PeriodReadingRecord>((r) => r.start, '（起）'),
    ...registerColumns<PeriodReadingRecord>((r) => r.end, '（止）'),
    ...registerColumns<PeriodReadingRecord>((r) => r.difference, '（差值）'),
  ];
}

function subsystemRoutes(subsystem: ReadingSubsystem) {
  const e = SUBSYSTEM_ENDPOINTS[subsystem];
  const label = READING_SUBSYSTEM_LABELS[subsystem];
  const meterProbe = { entity: `${subsystem}Meter`, input: (deviceId: number) => ({ deviceId, periodStart: '2026-01-01', periodEnd: '2026-01-31' }) };
  return [
    route(e.page, {
      access: 'menu', name: `${label}抄表分页`, area, kind: 'page', scope: siteProbe,
      handler: ({ ctx, user, body }) => periodPage(ctx, user, subsystem, body),
    }),
    route(e.one, {
      access: 'menu', name: `${label}抄表详情`, area, kind: 'one', scope: { entity: `${subsystem}PeriodReading` },
      handler: ({ ctx, user, body }) => periodOne(ctx, user, subsystem, body.id),
    }),
    route(e.export, {
      access: 'menu', name: `${label}抄表导出`, area, kind: 'export', scope: siteProbe,
      handler: async ({ ctx, user, body, req, reply }) => {
        const rows = await periodRows(ctx, user, subsystem, body);
        const file = { fileName: `${label}抄表-$1`, fileArgs: [today()], sheet: `${label}抄表`, columns: periodColumns() };
        return sendXlsx(reply, file, rows, await exportLanguage(req));
      },
    }),
    route(e.reMeter, {
      access: 'menu', name: `${label}重新抄表`, area, kind: 'action', scope: meterProbe,
      handler: ({ ctx, user, body }) => requestReMeter(ctx, user, subsystem, body),
    }),
  ];
}

export const readingRoutes = [
  route(api.zeroPage, {
    access: 'menu', name: '零点数据分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => zeroPage(ctx, user, body),
  }),
  route(api.zeroExport, {
    access: 'menu', name: '零点数据导出', area, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => {
      const rows = await zeroRows(ctx, user, body);
      const file = { fileName: '零点数据-$1', fileArgs: [today()], sheet: '零点数据', columns: zeroColumns() };
      return sendXlsx(reply, file, rows, await exportLanguage(req));
    },
  }),
  route(api.timingPage, {
    access: 'menu', name: '定时抄表分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => timingPage(ctx, user, body),
  }),
  route(api.timingExport, {
    access: 'menu', name: '定时抄表导出', area, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => {
      const rows = await timingRows(ctx, user, body);
      const file = { fileName: '定时抄表-$1', fileArgs: [today()], sheet: '定时抄表', columns: timingColumns() };
      return sendXlsx(reply, file, rows, await exportLanguage(req));
    },
  }),
  ...subsystemRoutes('storage'),
  ...subsystemRoutes('pv'),
  ...subsystemRoutes('pile'),
];
