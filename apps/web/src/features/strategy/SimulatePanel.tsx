import { strategyEndpoints, type SimulationSummary, type StrategySimulation } from '@ess/contract/strategy';
import { todayIn } from '@ess/contract/time';
import { Alert, Button, Card, DatePicker, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { EChart, type ChartOption } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/number-format.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import type { Draft } from './strategy.model.ts';

type T = (s: string, ...a: unknown[]) => string;

/** The day's steps: load, PV, grid and storage power as the strategy would run them beside what was measured, SOC on its own axis. */
export function simulationOption(s: StrategySimulation, t: T): ChartOption {
  const x = s.steps.map((p) => p.time);
  const line = (name: string, data: (number | null)[], o: object = {}) => ({ name, type: 'line', showSymbol: false, step: 'start', data, ...o });
  return {
    grid: { left: 56, right: 56, top: 48, bottom: 32 },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? formatNumber(v) : '-') },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: x },
    yAxis: [{ type: 'value', name: 'kW' }, { type: 'value', name: '%', min: 0, max: 100, position: 'right', splitLine: { show: false } }],
    series: [
      line(t('负荷'), s.steps.map((p) => p.loadKw), { lineStyle: { width: 1 } }),
      line(t('光伏'), s.steps.map((p) => p.pvKw), { lineStyle: { width: 1 } }),
      line(t('电网功率（模拟）'), s.steps.map((p) => p.gridKw)),
      line(t('电网功率（实际）'), s.steps.map((p) => p.actualGridKw), { lineStyle: { type: 'dashed' } }),
      line(t('储能功率（模拟）'), s.steps.map((p) => p.batteryKw)),
      line(t('储能功率（实际）'), s.steps.map((p) => p.actualBatteryKw), { lineStyle: { type: 'dashed' } }),
      line(t('SOC（模拟）'), s.steps.map((p) => p.soc), { yAxisIndex: 1 }),
    ],
  };
}

/** The rows of the comparison: each figure by the strategy and as measured. */
export function summaryRows(s: StrategySimulation, t: T) {
  const n = (v: number | null) => (v === null ? '-' : formatNumber(v));
  const rows: [string, (x: SimulationSummary) => string][] = [
    [t('储能收益 ($1)', s.currency), (x) => formatNumber(Number(x.revenue), { decimals: 2 })],
    [t('充电量 (kWh)'), (x) => n(x.chargeKwh)],
    [t('放电量 (kWh)'), (x) => n(x.dischargeKwh)],
    [t('等效循环'), (x) => n(x.cycles)],
    [t('最大购电功率 (kW)'), (x) => n(x.peakDemandKw)],
    [t('超变压器保护功率 (分钟)'), (x) => n(x.transformerMinutes)],
    [t('逆流 (分钟)'), (x) => n(x.backflowMinutes)],
  ];
  return rows.map(([label, f]) => ({ key: label, label, expected: f(s.expected), actual: f(s.actual) }));
}

/**
 * The strategy as the editor holds it (saved or not) run against a past station-local day's
 * measured load, PV and prices, beside what the storage actually did that day. Nothing is written.
 */
export function SimulatePanel({ siteId, timeZone, draft, valid }: { siteId: number; timeZone: string; draft: Draft; valid: boolean }) {
  const t = useT();
  const can = useCan(strategyEndpoints.simulate);
  const [date, setDate] = useState(() => dayjs(todayIn(timeZone)).subtract(1, 'day').format('YYYY-MM-DD'));
  const [result, setResult] = useState<StrategySimulation | null>(null);
  const [busy, setBusy] = useState(false);
  const option = useMemo(() => (result ? simulationOption(result, t) : null), [result, t]);
  if (!can) return null;
  const run = async () => {
    setBusy(true);
    try {
      setResult(await call(strategyEndpoints.simulate, { siteId, date, strategy: draft }));
    } catch {
      // The request layer has shown the reason (no capacity, no data that day).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t('模拟一天')} data-testid="strategy-simulate">
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker
          aria-label={t('模拟日期')}
          allowClear={false}
          value={dayjs(date)}
          disabledDate={(d) => !d.isBefore(dayjs(todayIn(timeZone)), 'day')}
          onChange={(v) => v && setDate(v.format('YYYY-MM-DD'))}
        />
        <Button type="primary" ghost loading={busy} disabled={!valid} onClick={() => void run()} data-testid="simulate-run">{t('模拟')}</Button>
        <Typography.Text type="secondary">{t('按编辑中的策略，用该日实测的负荷、光伏和电价计算，不保存')}</Typography.Text>
      </Space>
      {!valid && <Alert type="info" showIcon message={t('修正策略的问题后才能模拟')} />}
      {result && option && (
        <>
          <Table
            size="small"
            pagination={false}
            data-testid="simulate-summary"
            dataSource={summaryRows(result, t)}
            columns={[
              { key: 'label', title: t('指标'), dataIndex: 'label' },
              { key: 'expected', title: t('按策略'), dataIndex: 'expected', align: 'right' },
              { key: 'actual', title: t('实际'), dataIndex: 'actual', align: 'right' },
            ]}
            scroll={{ x: 'max-content' }}
          />
          <EChart option={option} height={300} label={t('模拟一天')} testId="simulate-chart" />
        </>
      )}
    </Card>
  );
}
