import type { DeviceProperty } from '@ess/contract/device';
import { HISTORY_RANGE_LIMITS_MS } from '@ess/contract/device';
import { Alert, Card, DatePicker, Segmented, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { historyToSeries, timeChartOption } from '../../components/chart/chart-options.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { useHistory } from './monitor.api.ts';

const HOUR = 3_600_000;
export const RANGE_PRESETS = [
  { key: '1h', label: '近1小时', span: HOUR },
  { key: '6h', label: '近6小时', span: 6 * HOUR },
  { key: '24h', label: '近24小时', span: 24 * HOUR },
  { key: '7d', label: '近7天', span: 7 * 24 * HOUR },
  { key: '30d', label: '近30天', span: 30 * 24 * HOUR },
] as const;
/** The longest range a chart may ask for: hourly values (product-spec §5 keeps raw data to 24 h). */
export const MAX_CHART_RANGE_MS = HISTORY_RANGE_LIMITS_MS['1h'];

const numeric = (p: DeviceProperty) => p.dataType === 'float' || p.dataType === 'int';

/**
 * A device's history chart: pick properties and a range (the last hour … 30 days, or from–to);
 * the server picks raw values or 5-minute/hourly buckets by the range. The preset ranges follow
 * the clock.
 */
export function HistoryPanel({ deviceId, properties, defaults }: { deviceId: number; properties: readonly DeviceProperty[]; defaults: readonly string[] }) {
  const t = useT();
  const choices = properties.filter(numeric);
  const known = new Set(choices.map((p) => p.identifier));
  const [picked, setPicked] = useState<string[] | null>(null);
  const identifiers = picked ?? defaults.filter((d) => known.has(d)).slice(0, 6);
  const [preset, setPreset] = useState<string>('24h');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [now] = useState(() => Date.now());

  const range = useMemo(() => {
    if (custom) return { start: custom[0].valueOf(), end: custom[1].valueOf() };
    const span = RANGE_PRESETS.find((p) => p.key === preset)?.span ?? 24 * HOUR;
    return { start: now - span, end: now };
  }, [custom, preset, now]);
  const tooLong = range.end - range.start > MAX_CHART_RANGE_MS;
  const body = identifiers.length && !tooLong
    ? { deviceId, identifiers, start: new Date(range.start).toISOString(), end: new Date(range.end).toISOString(), interval: 'auto' as const }
    : null;
  const history = useHistory(body, custom ? undefined : 'slide');

  const option = useMemo(() => {
    const series = historyToSeries(history.data?.series ?? [], t);
    return timeChartOption(series, { emptyText: history.isFetching ? '' : t('暂无数据') });
  }, [history.data, history.isFetching, t]);

  return (
    <Card
      title={t('历史曲线')}
      extra={history.data ? <Typography.Text type="secondary">{t('数据粒度：$1', t(INTERVAL_LABELS[history.data.interval] ?? history.data.interval))}</Typography.Text> : null}
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('属性')}
          mode="multiple"
          maxCount={20}
          value={identifiers}
          onChange={(v: string[]) => setPicked(v)}
          options={choices.map((p) => ({ value: p.identifier, label: p.unit ? `${t(p.name)} (${p.unit})` : t(p.name) }))}
          optionFilterProp="label"
          placeholder={t('选择属性')}
          maxTagCount="responsive"
          style={{ minWidth: 320, maxWidth: 560 }}
        />
        <Segmented
          value={custom ? '' : preset}
          onChange={(v) => {
            setCustom(null);
            setPreset(String(v));
          }}
          options={RANGE_PRESETS.map((p) => ({ value: p.key, label: t(p.label) }))}
        />
        <DatePicker.RangePicker
          aria-label={t('时间范围')}
          showTime
          value={custom}
          onChange={(v) => setCustom(v && v[0] && v[1] ? [v[0], v[1]] : null)}
          disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
        />
      </Space>
      {tooLong && <Alert type="warning" showIcon message={t('时间范围不能超过$1天', MAX_CHART_RANGE_MS / (24 * HOUR))} style={{ marginBottom: 12 }} />}
      <EChart option={option} height={360} label={t('历史曲线')} testId="history-chart" />
    </Card>
  );
}

export const INTERVAL_LABELS: Record<string, string> = { raw: '原始数据', '5m': '5分钟', '1h': '1小时', '1d': '1天' };
