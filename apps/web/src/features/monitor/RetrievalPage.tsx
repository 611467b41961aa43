import type { DeviceHistory, DeviceRecord, HistoryInterval } from '@ess/contract/device';
import { THING_MODEL } from '@ess/contract/telemetry';
import { DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { formatNumber, historyToSeries, timeChartOption, type TimeSeries } from '../../components/chart/chart-options.ts';
import { isDeviceType, typeLabel } from '../../components/device-types.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { INTERVAL_LABELS } from './HistoryPanel.tsx';
import { monitorApi } from './monitor.api.ts';
import { monitorKeys } from './monitor.keys.ts';
import { rangeProblem, seriesTable } from './retrieval.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { formatDateTime } from '../../components/number-format.ts';

const MAX_DEVICES = 5;
const MAX_PROPERTIES = 10;

interface Query {
  devices: DeviceRecord[];
  identifiers: string[];
  start: number;
  end: number;
  interval: HistoryInterval;
}

/** The numeric properties of some device types, in thing-model order, without duplicates. */
function numericProperties(types: readonly string[]) {
  const seen = new Map<string, { identifier: string; label: string; unit: string }>();
  for (const type of types) {
    if (!isDeviceType(type)) continue;
    for (const p of THING_MODEL[type].properties) {
      if ((p.dataType === 'float' || p.dataType === 'int') && !seen.has(p.identifier)) seen.set(p.identifier, p);
    }
  }
  return [...seen.values()];
}

/**
 * /analysis/retrieval: pick a station, up to 5 of its devices, their properties and a range of
 * at most 24 hours (product-spec §5); the values are drawn and listed side by side.
 */
export function RetrievalPage() {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [deviceIds, setDeviceIds] = useState<number[]>([]);
  const [identifiers, setIdentifiers] = useState<string[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => [dayjs().subtract(1, 'hour'), dayjs()]);
  const [interval, setInterval] = useState<HistoryInterval>('auto');
  const [query, setQuery] = useState<Query | null>(null);

  const devices = useQuery({
    queryKey: monitorKeys.list({ siteId }),
    queryFn: () => monitorApi.deviceList({ siteId }),
    enabled: siteId !== undefined,
  });
  const picked = (devices.data ?? []).filter((d) => deviceIds.includes(d.id));
  const properties = numericProperties([...new Set(picked.map((d) => d.type))]);
  const problem = rangeProblem(range?.[0].valueOf() ?? null, range?.[1].valueOf() ?? null);

  const results = useQuery({
    queryKey: monitorKeys.history({ retrieval: query }),
    enabled: query !== null,
    queryFn: async () => {
      const q = query!;
      const answers = await Promise.all(
        q.devices.map(async (d) => {
          const own = new Set(numericProperties([d.type]).map((p) => p.identifier));
          const ids = q.identifiers.filter((i) => own.has(i));
          if (!ids.length) return null;
          const h = await monitorApi.history({
            deviceId: d.id, identifiers: ids, start: new Date(q.start).toISOString(), end: new Date(q.end).toISOString(), interval: q.interval,
          });
          return { device: d, history: h };
        }),
      );
      return answers.filter((a): a is { device: DeviceRecord; history: DeviceHistory } => a !== null);
    },
  });

  const series: TimeSeries[] = useMemo(
    () => (results.data ?? []).flatMap((r) => historyToSeries(r.history.series, t, results.data!.length > 1 ? r.device.name : '', `d${r.device.id}-`)),
    [results.data, t],
  );
  const option = useMemo(
    () => timeChartOption(series, { emptyText: results.isFetching ? '' : t('暂无数据'), ...(query ? { min: query.start, max: query.end } : {}) }),
    [series, results.isFetching, t, query],
  );
  const rows = useMemo(() => seriesTable(series), [series]);
  const intervals = [...new Set((results.data ?? []).map((r) => r.history.interval))];

  const exporting = useMutation({
    mutationFn: (q: Query) =>
      monitorApi.exportHistory({
        deviceIds: q.devices.map((d) => d.id), identifiers: q.identifiers, start: new Date(q.start).toISOString(), end: new Date(q.end).toISOString(), interval: q.interval,
      }),
  });

  const run = () => {
    if (problem || !range || !picked.length || !identifiers.length) return;
    setQuery({ devices: picked, identifiers, start: range[0].valueOf(), end: range[1].valueOf(), interval });
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Form layout="inline" style={{ rowGap: 12 }}>
          <Form.Item label={t('站点')}>
            <StationPicker
              value={siteId}
              onChange={(v) => {
                setSiteId(v);
                setDeviceIds([]);
                setIdentifiers([]);
              }}
            />
          </Form.Item>
          <Form.Item label={t('设备')}>
            <Select
              aria-label={t('设备')}
              data-testid="retrieval-devices"
              mode="multiple"
              maxCount={MAX_DEVICES}
              value={deviceIds}
              onChange={(v: number[]) => setDeviceIds(v)}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} · ${t(typeLabel(d.type))}` }))}
              loading={devices.isFetching}
              optionFilterProp="label"
              placeholder={t('最多选择$1台设备', MAX_DEVICES)}
              maxTagCount="responsive"
              style={{ width: 320 }}
            />
          </Form.Item>
          <Form.Item label={t('属性')}>
            <Select
              aria-label={t('属性')}
              data-testid="retrieval-properties"
              mode="multiple"
              maxCount={MAX_PROPERTIES}
              value={identifiers.filter((i) => properties.some((p) => p.identifier === i))}
              onChange={(v: string[]) => setIdentifiers(v)}
              options={properties.map((p) => ({ value: p.identifier, label: p.unit ? `${t(p.label)} (${p.unit})` : t(p.label) }))}
              optionFilterProp="label"
              placeholder={t('最多选择$1个属性', MAX_PROPERTIES)}
              maxTagCount="responsive"
              style={{ width: 320 }}
            />
          </Form.Item>
          <Form.Item label={t('时间范围')} validateStatus={problem ? 'error' : undefined} help={problem ? t(problem) : undefined}>
            <DatePicker.RangePicker
              showTime
              value={range}
              onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
            />
          </Form.Item>
          <Form.Item label={t('数据粒度')}>
            <Select
              aria-label={t('数据粒度')}
              value={interval}
              onChange={(v: HistoryInterval) => setInterval(v)}
              options={(['auto', 'raw', '5m', '1h'] as const).map((v) => ({ value: v, label: t(v === 'auto' ? '自动' : INTERVAL_LABELS[v]!) }))}
              style={{ width: 120 }}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" onClick={run} disabled={!!problem || !picked.length || !identifiers.length} loading={results.isFetching} data-testid="retrieval-search">
              {t('查询')}
            </Button>
          </Form.Item>
          <Form.Item>
            <Button
              icon={<DownloadOutlined />}
              disabled={!query}
              loading={exporting.isPending}
              onClick={() => query && exporting.mutate(query)}
              data-testid="retrieval-export"
            >
              {t('导出')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      {results.isError && <Alert type="error" showIcon message={results.error.message} />}
      <Card
        title={t('数据曲线')}
        extra={intervals.length ? <Typography.Text type="secondary">{t('数据粒度：$1', intervals.map((i) => t(INTERVAL_LABELS[i] ?? i)).join(', '))}</Typography.Text> : null}
      >
        <EChart option={option} height={380} label={t('数据曲线')} testId="retrieval-chart" />
      </Card>
      <Card title={t('数据列表')}>
        <Table
          rowKey="ts"
          size="small"
          data-testid="retrieval-table"
          dataSource={rows}
          scroll={{ x: 200 + series.length * 160 }}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (n) => t('共 $1 条', n) }}
          columns={[
            { title: t('时间'), dataIndex: 'ts', width: 180, fixed: 'left', render: (v: number) => formatDateTime(v) },
            ...series.map((s) => ({
              title: s.unit ? `${s.name} (${s.unit})` : s.name,
              dataIndex: s.key,
              width: 160,
              render: (v: number | null) => (v === null ? '-' : formatNumber(v)),
            })),
          ]}
        />
      </Card>
    </Space>
  );
}
