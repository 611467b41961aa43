import { ALARM_LEVELS } from '@ess/contract/constants';
import { ALARM_LEVEL_LABELS, ALARM_TYPE_LABELS, type AlarmKanbanChart, type AlarmLevelCount } from '@ess/contract/alarm';
import dayjs from 'dayjs';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { emptyNote } from '../../components/chart/chart-options.ts';
import { levelColour } from '../../components/options/levels.ts';

type Translate = (source: string, ...args: unknown[]) => string;

/** Which count of a level a chart shows. */
export type LevelCountKey = 'active' | 'raised' | 'ended';

/**
 * Stacked bars per time bucket of the alarms raised, one series per level (most severe at the
 * bottom), and a line of the alarms ended.
 */
export function raisedEndedOption(chart: AlarmKanbanChart | undefined, t: Translate): ChartOption {
  const points = chart?.points ?? [];
  const fmt = chart?.bucket === 'day' ? 'MM-DD' : 'HH:mm';
  const labels = points.map((p) => dayjs(p.t).format(fmt));
  const total = points.reduce((a, p) => a + p.raised.reduce((x, y) => x + y, 0) + p.ended.reduce((x, y) => x + y, 0), 0);
  return {
    animation: false,
    grid: { left: 40, right: 16, top: 40, bottom: 28 },
    tooltip: { trigger: 'axis', confine: true },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      ...ALARM_LEVELS.map((level) => ({
        id: `raised-${level}`,
        name: t(ALARM_LEVEL_LABELS[level]),
        type: 'bar',
        stack: 'raised',
        barMaxWidth: 18,
        itemStyle: { color: levelColour(level) },
        data: points.map((p) => p.raised[level - 1] ?? 0),
      })),
      {
        id: 'ended',
        name: t('已结束'),
        type: 'line',
        symbol: 'circle',
        symbolSize: 4,
        itemStyle: { color: '#0d8050' },
        data: points.map((p) => p.ended.reduce((x, y) => x + y, 0)),
      },
    ],
    graphic: emptyNote(total === 0 ? t('所选时间内没有告警') : undefined),
  };
}

/** Horizontal stacked bars: one row per name (station, cabinet), one series per level. */
export function levelBarsOption(rows: { name: string; levels: AlarmLevelCount[] }[], key: LevelCountKey, t: Translate): ChartOption {
  const total = rows.reduce((a, r) => a + r.levels.reduce((x, l) => x + l[key], 0), 0);
  return {
    animation: false,
    grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: rows.map((r) => r.name), inverse: true },
    series: ALARM_LEVELS.map((level) => ({
      id: `level-${level}`,
      name: t(ALARM_LEVEL_LABELS[level]),
      type: 'bar',
      stack: 'total',
      barMaxWidth: 18,
      itemStyle: { color: levelColour(level) },
      data: rows.map((r) => r.levels[level - 1]?.[key] ?? 0),
    })),
    graphic: emptyNote(total === 0 ? t('没有告警') : undefined),
  };
}

/** Bars of counts by category (alarm types, levels), each bar in its own colour. */
export function countBarsOption(items: { name: string; count: number; colour: string }[], t: Translate): ChartOption {
  const total = items.reduce((a, i) => a + i.count, 0);
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
    xAxis: { type: 'category', data: items.map((i) => i.name), axisLabel: { interval: 0 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        id: 'count',
        name: t('告警数'),
        type: 'bar',
        barMaxWidth: 36,
        label: { show: true, position: 'top' },
        data: items.map((i) => ({ value: i.count, itemStyle: { color: i.colour } })),
      },
    ],
    graphic: emptyNote(total === 0 ? t('所选时间内没有告警') : undefined),
  };
}

const TYPE_COLOURS = ['#a8071a', '#d48806', '#1d63c9', '#6b3fa0'];

/** The alarm types of a chart answer as count bars. */
export const typeItems = (chart: AlarmKanbanChart | undefined, t: Translate) =>
  (chart?.byType ?? []).map((x, i) => ({ name: t(ALARM_TYPE_LABELS[x.alarmType]), count: x.count, colour: TYPE_COLOURS[i % TYPE_COLOURS.length]! }));

/** Sums a count over levels. */
export const sumLevels = (levels: AlarmLevelCount[] | undefined, key: LevelCountKey) => (levels ?? []).reduce((a, l) => a + l[key], 0);
