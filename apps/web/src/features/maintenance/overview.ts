import type { MttRecord, OverviewStatistic } from '@ess/contract/maintenance';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { emptyNote } from '../../components/chart/chart-options.ts';

type Translate = (source: string, ...args: unknown[]) => string;

/** Created and completed orders per day (bars) and defects found (line). */
export function statisticOption(s: OverviewStatistic | undefined, t: Translate): ChartOption {
  const points = s?.points ?? [];
  const total = points.reduce((a, p) => a + p.inspectionCreated + p.inspectionCompleted + p.repairCreated + p.repairCompleted + p.defectsFound, 0);
  const series = [
    { id: 'inspectionCreated', name: t('新增巡检工单'), type: 'bar', color: '#91caff', key: 'inspectionCreated' as const },
    { id: 'inspectionCompleted', name: t('完成巡检工单'), type: 'bar', color: '#1677ff', key: 'inspectionCompleted' as const },
    { id: 'repairCreated', name: t('新增维修工单'), type: 'bar', color: '#ffd591', key: 'repairCreated' as const },
    { id: 'repairCompleted', name: t('完成维修工单'), type: 'bar', color: '#d46b08', key: 'repairCompleted' as const },
    { id: 'defectsFound', name: t('发现缺陷'), type: 'line', color: '#cf1322', key: 'defectsFound' as const },
  ];
  return {
    animation: false,
    grid: { left: 40, right: 16, top: 40, bottom: 28 },
    tooltip: { trigger: 'axis', confine: true },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: points.map((p) => p.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((x) => ({
      id: x.id, name: x.name, type: x.type, barMaxWidth: 14, itemStyle: { color: x.color }, symbolSize: 4, data: points.map((p) => p[x.key]),
    })),
    graphic: emptyNote(total === 0 ? t('所选时间内没有工单') : undefined),
  };
}

/** Minutes as "1小时 5分钟" (one decimal under an hour), "-" when there is none. */
export function minutesText(m: number | null | undefined, t: Translate): string {
  if (m === null || m === undefined || !Number.isFinite(m)) return '-';
  if (m < 60) return t('$1分钟', Math.round(m * 10) / 10);
  const h = Math.floor(m / 60);
  const rest = Math.round(m - h * 60);
  return rest ? `${t('$1小时', h)} ${t('$1分钟', rest)}` : t('$1小时', h);
}

/** MTTA / MTTR rows, newest month first, then by station. */
export const mttRows = (mtt: readonly MttRecord[]) => [...mtt].sort((a, b) => b.month.localeCompare(a.month) || a.siteName.localeCompare(b.siteName));
