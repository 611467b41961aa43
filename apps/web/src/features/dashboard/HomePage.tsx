import { ALARM_LEVELS } from '@ess/contract/constants';
import { ALARM_LEVEL_LABELS } from '@ess/contract/alarm';
import type { HomeError, HomeIncome, RevenueMoney } from '@ess/contract/dashboard';
import { SITE_TYPE_LABELS, type SiteType } from '@ess/contract/site';
import { Alert, Card, Col, Descriptions, Empty, Result, Row, Segmented, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../components/crud/crud.cells.tsx';
import { Deferred } from '../../components/Deferred.tsx';
import { PageFallback } from '../../components/PageFallback.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { LevelTag } from '../../components/LevelTag.tsx';
import { levelColour } from '../../components/options/levels.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatEfficiency } from '../../components/format.ts';
import { stationHref } from './comprehensive.api.ts';
import { CompanySelect } from './CompanySelect.tsx';
import { fmt, StateTags } from './parts.tsx';
import { energyBarsOption, formatAmounts, formatMoney, incomeBarsOption, pileBarsOption } from './dashboard.charts.ts';
import { useHomePart } from './dashboard.api.ts';

/** A figure with a unit in the Statistic style; value already formatted. */
function Cell({ title, value, unit, testId, span = 6, money = false }: { title: string; value: string; unit?: string; testId?: string; span?: number; money?: boolean }) {
  const t = useT();
  return (
    // Money (amounts in several currencies) takes the whole row on a phone: in half of it the
    // amounts ran over the next cell.
    <Col xs={money ? 24 : 12} md={8} xl={span} data-testid={testId}>
      <Statistic title={t(title)} value={value} suffix={value === '-' ? undefined : unit} />
    </Col>
  );
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? '-' : formatNumber(v));

function TopFigures({ companyId }: { companyId: number }) {
  const t = useT();
  const top = useHomePart('top', companyId);
  const d = top.data;
  if (!d) return <Card loading size="small" />;
  const types = Object.entries(d.stationsByType).filter(([, n]) => n > 0);
  return (
    <Card size="small" data-testid="home-top">
      <Row gutter={[16, 16]}>
        <Cell title="站点数量" value={String(d.stationCount)} testId="top-stations" span={4} />
        <Cell title="装机容量" value={num(d.installedCapacity)} unit="kWh" testId="top-capacity" span={4} />
        <Cell title="装机功率" value={num(d.installedPower)} unit="kW" testId="top-power" span={4} />
        <Cell title="设备在线" value={`${d.devices.online}/${d.devices.total}`} testId="top-devices" span={4} />
        <Cell title="今日收益" value={formatAmounts(d.todayRevenue)} testId="top-today-revenue" span={8} money />
        <Cell title="累计充电量" value={num(d.totalCharge)} unit="kWh" testId="top-charge" span={4} />
        <Cell title="累计放电量" value={num(d.totalDischarge)} unit="kWh" testId="top-discharge" span={4} />
        <Cell title="累计光伏发电量" value={num(d.totalPv)} unit="kWh" testId="top-pv" span={4} />
        <Cell title="累计充电桩电量" value={num(d.totalPiles)} unit="kWh" testId="top-piles" span={4} />
        <Cell title="累计收益" value={formatAmounts(d.totalRevenue)} testId="top-total-revenue" span={8} money />
      </Row>
      <Space wrap style={{ marginTop: 8 }}>
        {types.map(([type, n]) => <Tag key={type}>{t(SITE_TYPE_LABELS[type as SiteType] ?? type)} {n}</Tag>)}
        {d.operatingDays !== null && <Typography.Text type="secondary">{t('安全运行 $1 天', d.operatingDays)}</Typography.Text>}
        <Typography.Text type="secondary">{t('今日按各站点当地日期计算')}</Typography.Text>
      </Space>
    </Card>
  );
}

const MONEY_ROWS: [keyof Pick<RevenueMoney, 'total' | 'arbitrage' | 'pvRevenue' | 'chargingRevenue'>, string][] = [
  ['total', '总收益'], ['arbitrage', '储能套利'], ['pvRevenue', '光伏收益'], ['chargingRevenue', '充电收益'],
];

type IncomeCurrency = HomeIncome['currencies'][number];

/**
 * The currency the revenue card opens on: the one with the most stations in scope (the server
 * lists them so, ties by revenue); never simply the first that happens to be sorted first.
 */
export function openingCurrency(currencies: readonly IncomeCurrency[]): IncomeCurrency | undefined {
  return currencies.reduce<IncomeCurrency | undefined>((best, c) => (!best || c.stationCount > best.stationCount ? c : best), undefined);
}

export function IncomeCard({ companyId }: { companyId: number }) {
  const t = useT();
  const income = useHomePart('income', companyId);
  const currencies = income.data?.currencies ?? [];
  const [chosen, setChosen] = useState<string | undefined>();
  const [range, setRange] = useState<'days' | 'months'>('days');
  const cur: IncomeCurrency | undefined = currencies.find((c) => c.currency === chosen) ?? openingCurrency(currencies);
  const option = useMemo(() => {
    const rows = cur ? (range === 'days' ? cur.days.map((d) => ({ ...d, label: d.date.slice(5) })) : cur.months.map((m) => ({ ...m, label: m.month }))) : [];
    return incomeBarsOption(rows.map((r) => r.label), {
      arbitrage: rows.map((r) => r.arbitrage), pvRevenue: rows.map((r) => r.pvRevenue), chargingRevenue: rows.map((r) => r.chargingRevenue),
    }, cur?.currency ?? '', t, income.isFetching ? '' : t('暂无收益数据'));
  }, [cur, range, t, income.isFetching]);
  return (
    <Card
      size="small"
      title={t('收益')}
      style={{ height: '100%' }}
      data-testid="home-income"
      extra={currencies.length > 1 && (
        <Segmented size="small" value={cur?.currency} onChange={(v) => setChosen(v)} options={currencies.map((c) => c.currency)} aria-label={t('币种')} />
      )}
    >
      {income.data && currencies.length === 0 ? (
        <Empty description={t('该公司没有可计算收益的站点（需配置电价与电表）')} data-testid="income-empty" />
      ) : (
        <>
          {cur && cur.missingPrices.length > 0 && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="income-prices-missing"
              message={t('部分日期或时段未配置电价，其收益按0计')}
              description={cur.missingPrices.map((m) => `${m.siteName}: ${t('$1天', m.days)}`).join('; ')}
            />
          )}
          <Table
            size="small"
            pagination={false}
            rowKey="key"
            data-testid="income-table"
            dataSource={MONEY_ROWS.map(([key, label]) => ({ key, label }))}
            columns={[
              { title: t('收益（$1）', cur?.currency ?? ''), dataIndex: 'label', render: (v: string) => t(v) },
              ...(['today', 'month', 'year', 'total'] as const).map((p) => ({
                title: t({ today: '今日', month: '本月', year: '本年', total: '累计' }[p]),
                key: p,
                align: 'right' as const,
                render: (_: unknown, r: { key: (typeof MONEY_ROWS)[number][0] }) => (cur ? formatMoney(cur[p][r.key], cur.currency) : '-'),
              })),
            ]}
          />
          <Space style={{ margin: '12px 0 4px', width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{t(range === 'days' ? '近30天收益' : '近12个月收益')}</Typography.Text>
            <Segmented size="small" value={range} onChange={(v) => setRange(v)} options={[{ value: 'days' as const, label: t('日') }, { value: 'months' as const, label: t('月') }]} />
          </Space>
          <EChart option={option} height={260} label={t('收益')} testId="income-chart" />
        </>
      )}
    </Card>
  );
}

function EnergyCard({ companyId }: { companyId: number }) {
  const t = useT();
  const energy = useHomePart('energy', companyId);
  const e = energy.data;
  const option = useMemo(() => {
    // PV and pile bars only where the company's stations have any.
    const parts = { pv: !!e && e.days.some((d) => d.pv > 0), piles: !!e && e.days.some((d) => d.piles > 0) };
    return energyBarsOption(e?.days ?? [], t, energy.isFetching ? '' : t('近30天暂无电量'), parts);
  }, [e, t, energy.isFetching]);
  const rows = (['today', 'month', 'year'] as const).map((p) => ({ key: p, label: { today: '今日', month: '本月', year: '本年' }[p], ...(e ? e[p] : { charge: null, discharge: null, pv: null, piles: null }) }));
  return (
    <Card size="small" title={t('电量')} style={{ height: '100%' }} data-testid="home-energy">
      <Table
        size="small"
        pagination={false}
        rowKey="key"
        loading={!e}
        dataSource={rows}
        columns={[
          { title: '', dataIndex: 'label', render: (v: string) => t(v) },
          { title: t('充电量'), dataIndex: 'charge', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
          { title: t('放电量'), dataIndex: 'discharge', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
          { title: t('光伏发电量'), dataIndex: 'pv', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
          { title: t('充电桩电量'), dataIndex: 'piles', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
        ]}
      />
      <Space split="·" wrap style={{ margin: '8px 0' }}>
        <Typography.Text type="secondary">{t('本月充放电效率 $1', formatEfficiency(e?.efficiencyMonth, e ? e.month.discharge : undefined))}</Typography.Text>
        <Typography.Text type="secondary">{t('本月平均循环次数 $1', num(e?.cyclesMonth))}</Typography.Text>
      </Space>
      <EChart option={option} height={240} label={t('近30天电量')} testId="energy-chart" />
    </Card>
  );
}

function ChargeCard({ companyId }: { companyId: number }) {
  const t = useT();
  const charge = useHomePart('charge', companyId);
  const c = charge.data;
  const option = useMemo(() => pileBarsOption(c?.days ?? [], t, charge.isFetching ? '' : t('近30天暂无充电')), [c, t, charge.isFetching]);
  if (c && c.pileCount === 0) {
    return <Card size="small" title={t('充电桩')} style={{ height: '100%' }}><Empty description={t('该公司的站点没有充电桩')} data-testid="charge-empty" /></Card>;
  }
  return (
    <Card size="small" title={t('充电桩')} style={{ height: '100%' }} data-testid="home-charge" loading={!c}>
      {c && (
        <>
          <Row gutter={[16, 12]}>
            <Cell title="充电桩/充电枪" value={`${c.pileCount}/${c.gunCount}`} span={8} />
            <Cell title="今日充电量" value={num(c.todayEnergy)} unit="kWh" testId="charge-today" span={8} />
            <Cell title="本月充电量" value={num(c.monthEnergy)} unit="kWh" span={8} />
            <Cell title="今日充电收益" value={formatAmounts(c.todayRevenue, true)} span={8} money />
            <Cell title="本月充电收益" value={formatAmounts(c.monthRevenue, true)} span={8} money />
            <Cell title="累计充电量" value={num(c.totalEnergy)} unit="kWh" span={8} />
          </Row>
          <div style={{ margin: '8px 0' }} data-testid="gun-states">
            <StateTags states={c.gunStates} />
          </div>
          <EChart option={option} height={200} label={t('近30天充电量')} testId="charge-chart" />
        </>
      )}
    </Card>
  );
}

type RecentAlarm = HomeError['recent'][number];

function ErrorCard({ companyId }: { companyId: number }) {
  const t = useT();
  const error = useHomePart('error', companyId);
  const linked = useUserStore((s) => s.authPaths.includes('/overview/station'));
  const e = error.data;
  const columns: ColumnsType<RecentAlarm> = [
    { title: t('告警等级'), dataIndex: 'level', width: 96, render: (v: number) => <LevelTag level={v} /> },
    { title: t('告警描述'), dataIndex: 'description', ellipsis: true, render: (v: string) => t(v) },
    { title: t('所属站点'), dataIndex: 'siteName', ellipsis: true, render: (v: string, r) => (linked ? <Link to={stationHref(r.siteId)}>{v}</Link> : v) },
    { title: t('设备'), dataIndex: 'deviceName', ellipsis: true, render: (v: string | null) => v ?? '-' },
    { title: t('开始时间'), dataIndex: 'startTime', width: 158, render: (v: string) => formatDateTime(v) },
  ];
  return (
    <Card size="small" title={t('告警')} style={{ height: '100%' }} data-testid="home-error" loading={!e}>
      {e && (
        <>
          <Row gutter={[12, 12]}>
            {ALARM_LEVELS.map((level) => (
              <Col key={level} flex="1 1 90px">
                <Statistic title={t(ALARM_LEVEL_LABELS[level])} value={e.openByLevel[String(level) as '1'] ?? 0} valueStyle={{ color: levelColour(level) }} />
              </Col>
            ))}
          </Row>
          <Descriptions size="small" column={3} style={{ marginTop: 8 }}>
            <Descriptions.Item label={t('进行中')}>{e.open}</Descriptions.Item>
            <Descriptions.Item label={t('24小时内新增')}>{e.raised24h}</Descriptions.Item>
            <Descriptions.Item label={t('24小时内结束')}>{e.ended24h}</Descriptions.Item>
            <Descriptions.Item label={t('有告警的站点')}>{e.stationsWithAlarms}</Descriptions.Item>
          </Descriptions>
          <Table<RecentAlarm>
            size="small"
            rowKey="id"
            data-testid="recent-alarms"
            pagination={false}
            columns={columns}
            dataSource={e.recent}
            locale={{ emptyText: t('没有进行中的告警') }}
            scroll={{ x: 560 }}
          />
        </>
      )}
    </Card>
  );
}

/**
 * /home/index: the home page of a company (picked from the caller's company tree): stations,
 * installed capacity, devices online, lifetime energy and revenue; revenue per currency (today,
 * month, year, total; 30 days or 12 months); storage and PV energy; charging piles; alarms.
 * Money is per currency, never added across currencies. Live: the figures are read again
 * every 15 s (devices, alarms, piles) or every minute (energy and money).
 */
export function HomePage() {
  const t = useT();
  const own = useUserStore((s) => s.info?.companyId);
  const [picked, setPicked] = useState<number | undefined>();
  const companyId = picked ?? own;
  const top = useHomePart('top', companyId);
  // Every card's figures are asked for at once (the cards read the same queries).
  useHomePart('income', companyId);
  useHomePart('energy', companyId);
  useHomePart('charge', companyId);
  useHomePart('error', companyId);
  if (companyId === undefined) return <Result status="info" title={t('未加载用户信息')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="home-page">
      <Card size="small">
        <Space wrap>
          <CompanySelect value={companyId} onChange={setPicked} />
          <Typography.Text type="secondary">{t('含下级公司的站点；只统计您有权查看的站点')}</Typography.Text>
        </Space>
      </Card>
      {top.isError && !top.data && <Alert type="warning" showIcon message={t('数据加载失败')} />}
      {/* The cards are drawn once the top figures are in: drawn before, the figures' card grew
          from a placeholder and pushed every card under it down (layout shift, worst on a phone). */}
      {!top.data && !top.isError ? (
        <PageFallback />
      ) : top.data && top.data.stationCount === 0 ? (
        <Card><Empty description={t('该公司没有您可查看的站点')} data-testid="home-empty" /></Card>
      ) : (
        <>
          <TopFigures companyId={companyId} />
          {/* The cards under the figures drawn in turns (components/Deferred.tsx), each row under the last. */}
          <Deferred>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={12}><IncomeCard companyId={companyId} /></Col>
              <Col xs={24} xl={12}><EnergyCard companyId={companyId} /></Col>
            </Row>
          </Deferred>
          <Deferred>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={12}><ChargeCard companyId={companyId} /></Col>
              <Col xs={24} xl={12}><ErrorCard companyId={companyId} /></Col>
            </Row>
          </Deferred>
        </>
      )}
    </Space>
  );
}
