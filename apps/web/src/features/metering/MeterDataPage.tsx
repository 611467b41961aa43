import { DownloadOutlined } from '@ant-design/icons';
import { meterEndpoints, type MeterElectricRow } from '@ess/contract/monitor';
import { todayIn } from '@ess/contract/time';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useOptionSource } from '../../components/crud/index.ts';
import { formatNumber } from '../../components/number-format.ts';
import type { SiteRef } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { call, callFile } from '../../platform/request.ts';
import { electricBody, REGISTER_COLUMNS, type ElectricInterval } from './electric.ts';
import { meteringKeys } from './metering.keys.ts';
import { meterSourceOf } from './metering.options.ts';

const INTERVALS: { value: ElectricInterval; label: string }[] = [
  { value: '5m', label: '5分钟' },
  { value: '1h', label: '1小时' },
  { value: '1d', label: '1天' },
];

const kw = (v: number | null) => (v === null ? '-' : formatNumber(v));

/**
 * /meter/data: one meter's electric data in the station's own days — power, demand, the energy in
 * each bucket and the cumulative registers (total and per time-of-use register) at its end — by 5
 * minutes or hours over a station-local day, or by days over a month; xlsx export of the same.
 */
export function MeterDataPage() {
  const t = useT();
  const [site, setSite] = useState<SiteRef | null>(null);
  const [deviceCode, setDeviceCode] = useState<string | null>(null);
  const [interval, setInterval] = useState<ElectricInterval>('1h');
  const [date, setDate] = useState<string | null>(null);
  const meters = useOptionSource(site ? meterSourceOf(site.id, null, 'code') : null);
  const code = deviceCode ?? (meters.data?.[0]?.value as string | undefined) ?? null;
  const day = date ?? (site ? todayIn(site.timeZone) : null);
  const body = site && code && day ? electricBody(code, site.timeZone, interval, day) : null;
  const data = useQuery({
    queryKey: meteringKeys.electric(body ?? {}),
    queryFn: () => call(meterEndpoints.electricData, body!, { loading: false }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({ mutationFn: () => callFile(meterEndpoints.electricExport, body!) });

  const columns = useMemo<TableColumnsType<MeterElectricRow>>(
    () => [
      { key: 'time', title: t('时间'), dataIndex: 'localTime', width: 150, fixed: 'left' },
      { key: 'forwardEnergy', title: t('正向电量 (kWh)'), width: 130, align: 'right', render: (_, r) => kw(r.forwardEnergy) },
      { key: 'reverseEnergy', title: t('反向电量 (kWh)'), width: 130, align: 'right', render: (_, r) => kw(r.reverseEnergy) },
      { key: 'pAvg', title: t('平均有功功率 (kW)'), width: 150, align: 'right', render: (_, r) => kw(r.activePowerAvg) },
      { key: 'pMax', title: t('最大有功功率 (kW)'), width: 150, align: 'right', render: (_, r) => kw(r.activePowerMax) },
      { key: 'demand', title: t('最大需量 (kW)'), width: 130, align: 'right', render: (_, r) => kw(r.demandMax) },
      ...REGISTER_COLUMNS.map((c) => ({
        key: c.key, title: `${t(c.title)} (kWh)`, width: 190, align: 'right' as const, render: (_: unknown, r: MeterElectricRow) => kw(r.registers[c.key] ?? null),
      })),
    ],
    [t],
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="meter-data">
      <Card>
        <Form layout="inline" style={{ rowGap: 12 }}>
          <Form.Item label={t('站点')}>
            <StationPicker
              value={site?.id}
              autoSelectFirst
              width={220}
              onChange={(_, s) => {
                setSite(s);
                setDeviceCode(null);
              }}
            />
          </Form.Item>
          <Form.Item label={t('电表')}>
            <Select
              aria-label={t('电表')}
              data-testid="meter-select"
              value={code ?? undefined}
              onChange={(v: string) => setDeviceCode(v)}
              options={meters.data ?? []}
              loading={meters.isFetching}
              showSearch
              optionFilterProp="label"
              placeholder={t('请选择电表')}
              notFoundContent={t('该站点没有电表')}
              style={{ width: 260, maxWidth: '100%' }}
            />
          </Form.Item>
          <Form.Item label={t('数据粒度')}>
            <Segmented<ElectricInterval>
              aria-label={t('数据粒度')}
              value={interval}
              onChange={(v) => setInterval(v)}
              options={INTERVALS.map((i) => ({ value: i.value, label: t(i.label) }))}
            />
          </Form.Item>
          <Form.Item label={interval === '1d' ? t('月份') : t('日期')}>
            <DatePicker
              aria-label={interval === '1d' ? t('月份') : t('日期')}
              picker={interval === '1d' ? 'month' : 'date'}
              allowClear={false}
              value={day ? dayjs(day) : null}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
              onChange={(v) => setDate(v ? v.format(interval === '1d' ? 'YYYY-MM-01' : 'YYYY-MM-DD') : null)}
            />
          </Form.Item>
          <Form.Item>
            <Button icon={<DownloadOutlined />} disabled={!body} loading={exporting.isPending} onClick={() => exporting.mutate()} data-testid="meter-data-export">
              {t('导出')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      {data.isError && <Alert type="error" showIcon message={data.error.message} />}
      <Card
        title={data.data ? `${data.data.deviceName} (${data.data.deviceCode}) · ${data.data.siteName}` : t('电表数据')}
        extra={data.data ? <Typography.Text type="secondary">{t('时区：$1', data.data.timeZone)}</Typography.Text> : null}
      >
        <Table<MeterElectricRow>
          rowKey="time"
          size="small"
          data-testid="meter-data-table"
          loading={data.isFetching}
          dataSource={data.data?.rows ?? []}
          columns={columns}
          pagination={{ pageSize: 48, showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
        />
      </Card>
    </Space>
  );
}
