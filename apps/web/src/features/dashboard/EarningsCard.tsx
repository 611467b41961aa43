import type { Subsystems } from '@ess/contract/comprehensive';
import type { EarningsChartType, RevenueEnergy, RevenueMoney } from '@ess/contract/dashboard';
import { Alert, Card, Col, Empty, Row, Segmented, Space, Statistic, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatEfficiency, formatTime } from '../../components/format.ts';
import { fmt } from './parts.tsx';
import { useEarnings, useEarningsChart } from './dashboard.api.ts';
import { formatMoney, incomeBarsOption } from './dashboard.charts.ts';

type MoneyKey = keyof Omit<RevenueMoney, 'currency'>;
const PERIODS = ['day', 'month', 'year', 'total'] as const;
const PERIOD_TITLES: Record<(typeof PERIODS)[number], string> = { day: '今日', month: '本月', year: '本年', total: '累计' };

/** The rows the station has: arbitrage always (with what charging cost and discharging earned), PV and charging where present. */
function moneyRows(s: Subsystems): [MoneyKey, string][] {
  return [
    ['total', '总收益'],
    ['arbitrage', '储能套利'],
    ['chargeCost', '充电成本'],
    ['dischargeIncome', '放电收入'],
    ...(s.pv ? [['pvRevenue', '光伏收益'] as [MoneyKey, string]] : []),
    ...(s.charging ? [['chargingRevenue', '充电收益'] as [MoneyKey, string]] : []),
  ];
}

/**
 * The station's earnings (the marked place of the single-station view): money today, this month,
 * this year and in total in the station's currency — arbitrage, PV and charging — with the day's
 * energy, cycles and efficiency, and revenue per day of the month or per month of the year.
 */
export function EarningsCard({ siteId, subsystems }: { siteId: number; subsystems: Subsystems }) {
  const t = useT();
  const earnings = useEarnings(siteId);
  const [type, setType] = useState<EarningsChartType>('month');
  const chart = useEarningsChart(siteId, type);
  const e = earnings.data;
  const c = chart.data;
  const option = useMemo(
    () => incomeBarsOption(c?.labels ?? [], { arbitrage: c?.arbitrage ?? [], pvRevenue: c?.pvRevenue ?? [], chargingRevenue: c?.chargingRevenue ?? [] }, c?.currency ?? '', t, chart.isFetching ? '' : t('暂无收益数据')),
    [c, chart.isFetching, t],
  );
  if (earnings.isError && !e) {
    return <Card title={t('收益')} size="small"><Alert type="warning" showIcon message={t('收益数据加载失败')} /></Card>;
  }
  const never = !!e && e.computedAt === null && e.total.total === 0 && e.total.charge === 0;
  const day: (RevenueMoney & RevenueEnergy) | undefined = e?.day;
  return (
    <Card
      title={e ? t('收益（$1）', e.currency) : t('收益')}
      size="small"
      loading={!e}
      data-testid="earnings-card"
      extra={e?.computedAt && <Typography.Text type="secondary">{t('计算于 $1', formatTime(e.computedAt))}</Typography.Text>}
    >
      {e && never ? (
        <Empty description={t('尚无收益：需要站点的电价和储能电表（或变流器）电量')} data-testid="earnings-empty" />
      ) : e && (
        <>
          {!e.pricesComplete && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('部分日期或时段未配置电价，其收益按0计')} data-testid="earnings-prices-missing" />}
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6} data-testid="earnings-today">
              <Statistic title={t('今日收益')} value={formatMoney(e.day.total, e.currency)} />
            </Col>
            <Col xs={12} md={6}><Statistic title={t('今日充电量')} value={fmt(day?.charge, 'kWh')} /></Col>
            <Col xs={12} md={6}><Statistic title={t('今日放电量')} value={fmt(day?.discharge, 'kWh')} /></Col>
            <Col xs={12} md={6}>
              <Statistic title={t('今日等效循环 / 效率')} value={`${day?.cycles === null || !day ? '-' : formatNumber(day.cycles)} / ${formatEfficiency(day?.efficiency, day ? day.discharge : undefined)}`} />
            </Col>
          </Row>
          <Row gutter={[16, 16]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={12}>
              <Table
                size="small"
                rowKey="key"
                pagination={false}
                data-testid="earnings-table"
                dataSource={moneyRows(subsystems).map(([key, label]) => ({ key, label }))}
                columns={[
                  { title: '', dataIndex: 'label', render: (v: string) => t(v) },
                  ...PERIODS.map((p) => ({
                    title: t(PERIOD_TITLES[p]),
                    key: p,
                    align: 'right' as const,
                    render: (_: unknown, r: { key: MoneyKey }) => formatMoney(e[p][r.key], e.currency),
                  })),
                ]}
              />
              <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
                {t('套利 = 放电电量×电价 − 充电电量×电价；站点当地 $1', e.date)}
              </Typography.Text>
            </Col>
            <Col xs={24} xl={12}>
              <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
                <Typography.Text strong>{t(type === 'month' ? '本月每日收益' : '本年每月收益')}</Typography.Text>
                <Segmented size="small" value={type} onChange={(v) => setType(v)} options={[{ value: 'month' as const, label: t('月') }, { value: 'year' as const, label: t('年') }]} />
              </Space>
              <EChart option={option} height={240} label={t('收益')} testId="earnings-chart" />
            </Col>
          </Row>
        </>
      )}
    </Card>
  );
}
