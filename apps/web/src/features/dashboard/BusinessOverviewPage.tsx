import { PRICE_PERIODS } from '@ess/contract/constants';
import { PRICE_PERIOD_LABELS, type PricePeriod } from '@ess/contract/pricing';
import type { ArbitrageDetail, ArbitrageSummary, PeriodValues } from '@ess/contract/dashboard';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Col, DatePicker, Empty, Row, Segmented, Select, Space, Statistic, Table, Tag, theme, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { siteQuery } from '../../components/options/sites.ts';
import { arbitrageBody, defaultRange, rangeProblem, type ArbitrageFilters } from './arbitrage.ts';
import { CompanySelect } from './CompanySelect.tsx';
import { fmt } from './parts.tsx';
import { formatEfficiency } from '../../components/format.ts';
import { revenueApi, useArbitrage, useArbitrageDetail, type ArbitrageBody } from './dashboard.api.ts';
import { feeCurveOption, formatMoney, PERIOD_COLOURS, quantityCurveOption } from './dashboard.charts.ts';

const PAGE_SIZE = 10;

/** The stations of the chosen company (every station in scope without one). */
function StationsSelect({ companyId, value, onChange }: { companyId: number | undefined; value: number[]; onChange: (ids: number[]) => void }) {
  const t = useT();
  const sites = useQuery(siteQuery(companyId));
  const { token } = theme.useToken();
  return (
    <Select
      mode="multiple"
      aria-label={t('站点')}
      data-testid="sites-select"
      value={value}
      onChange={onChange}
      options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      loading={sites.isFetching}
      optionFilterProp="label"
      maxTagCount="responsive"
      allowClear
      // antd's faint placeholder fails 4.5:1 contrast: the secondary text colour instead.
      placeholder={<span style={{ color: token.colorTextSecondary }}>{t('全部站点')}</span>}
      style={{ minWidth: 260 }}
    />
  );
}

const kwh = (v: number | null | undefined) => fmt(v, 'kWh');

/** Energy and money of the range; money per currency (never added across currencies). */
function SummaryCard({ s }: { s: ArbitrageSummary | undefined }) {
  const t = useT();
  const cell = (title: string, value: string, testId: string) => (
    <Col xs={12} md={8} xl={4} data-testid={testId}>
      <Statistic title={t(title)} value={value} />
    </Col>
  );
  return (
    <Card size="small" title={t('套利概览')} data-testid="arbitrage-summary" loading={!s}
      extra={s && <Typography.Text type="secondary">{t('$1 至 $2（各站点当地日期）', s.start, s.end)}</Typography.Text>}>
      {s && (
        <>
          <Row gutter={[16, 16]}>
            {cell('站点数量', String(s.stationCount), 'sum-stations')}
            {cell('充电量', kwh(s.charge), 'sum-charge')}
            {cell('放电量', kwh(s.discharge), 'sum-discharge')}
            {cell('充放电效率', formatEfficiency(s.efficiency, s.discharge), 'sum-efficiency')}
            {cell('等效循环次数', s.cycles === null ? '-' : formatNumber(s.cycles), 'sum-cycles')}
          </Row>
          {s.money.length === 0 ? (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>{t('所选范围内没有收益数据')}</Typography.Paragraph>
          ) : (
            s.money.map((m) => (
              <Row gutter={[16, 16]} key={m.currency} style={{ marginTop: 16 }} data-testid="sum-money" data-currency={m.currency}>
                {cell('充电成本', formatMoney(m.chargeCost, m.currency), 'sum-charge-cost')}
                {cell('放电收入', formatMoney(m.dischargeIncome, m.currency), 'sum-discharge-income')}
                <Col xs={12} md={8} xl={4} data-testid="sum-arbitrage">
                  <Statistic title={t('套利收益')} value={formatMoney(m.arbitrage, m.currency)} valueStyle={{ color: m.arbitrage >= 0 ? '#237804' : '#a8071a' }} />
                </Col>
              </Row>
            ))
          )}
        </>
      )}
    </Card>
  );
}

/** kWh by price period, charge and discharge (periods that never occur are left out). */
function PeriodTable({ s }: { s: ArbitrageSummary | undefined }) {
  const t = useT();
  const used = PRICE_PERIODS.filter((p) => s && (s.chargeByPeriod[p] !== 0 || s.dischargeByPeriod[p] !== 0));
  const rows = s ? [{ key: 'charge', label: '充电量', v: s.chargeByPeriod }, { key: 'discharge', label: '放电量', v: s.dischargeByPeriod }] : [];
  return (
    <Card size="small" title={t('分时电量')} style={{ height: '100%' }} data-testid="period-table">
      {s && used.length === 0 ? <Empty description={t('所选范围内没有充放电')} /> : (
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={rows}
          columns={[
            { title: '', dataIndex: 'label', render: (v: string) => t(v) },
            ...used.map((p) => ({
              title: <span><span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: PERIOD_COLOURS[p], marginInlineEnd: 4 }} />{t(PRICE_PERIOD_LABELS[p])}</span>,
              key: p, align: 'right' as const,
              render: (_: unknown, r: { v: PeriodValues }) => kwh(r.v[p]),
            })),
          ]}
        />
      )}
    </Card>
  );
}

function periodsText(v: PeriodValues, t: (s: string) => string): string {
  return PRICE_PERIODS.filter((p: PricePeriod) => v[p] !== 0).map((p) => `${t(PRICE_PERIOD_LABELS[p])} ${formatNumber(v[p])}`).join(' / ') || '0';
}

function DetailTable({ body }: { body: ArbitrageBody }) {
  const t = useT();
  const [current, setCurrent] = useState(1);
  const [exporting, setExporting] = useState(false);
  // The detail call takes no bucket (arbitragePage).
  const { bucket: _bucket, ...filter } = body;
  const page = useArbitrageDetail({ ...filter, current, pageSize: PAGE_SIZE });
  const columns: ColumnsType<ArbitrageDetail> = [
    { title: t('日期'), dataIndex: 'date', width: 100, fixed: 'left' },
    { title: t('站点'), dataIndex: 'siteName', width: 130, ellipsis: true },
    { title: t('充电量'), dataIndex: 'charge', width: 105, align: 'right', render: (v: number, r) => <Tooltip title={periodsText(r.chargeByPeriod, t)}>{kwh(v)}</Tooltip> },
    { title: t('放电量'), dataIndex: 'discharge', width: 105, align: 'right', render: (v: number, r) => <Tooltip title={periodsText(r.dischargeByPeriod, t)}>{kwh(v)}</Tooltip> },
    { title: t('充电成本'), dataIndex: 'chargeCost', width: 115, align: 'right', render: (v: number, r) => formatMoney(v, r.currency) },
    { title: t('放电收入'), dataIndex: 'dischargeIncome', width: 115, align: 'right', render: (v: number, r) => formatMoney(v, r.currency) },
    { title: t('套利收益'), dataIndex: 'arbitrage', width: 115, align: 'right', render: (v: number, r) => <Typography.Text strong>{formatMoney(v, r.currency)}</Typography.Text> },
    { title: t('等效循环次数'), dataIndex: 'cycles', width: 100, align: 'right', render: (v: number | null) => (v === null ? '-' : formatNumber(v)) },
    { title: t('充放电效率'), dataIndex: 'efficiency', width: 120, align: 'right', render: (v: number | null, r) => formatEfficiency(v, r.discharge) },
    {
      title: t('电价'), dataIndex: 'pricesComplete', width: 100,
      render: (v: boolean) => (v ? <Badge status="success" text={t('完整')} /> : <Tooltip title={t('当日有时段未配置电价，按0计')}><Badge status="warning" text={t('缺电价')} /></Tooltip>),
    },
  ];
  const exportXlsx = () => {
    setExporting(true);
    void revenueApi.exportDetail(body, `${t('储能套利明细')}.xlsx`).catch(() => undefined).finally(() => setExporting(false));
  };
  return (
    <Card size="small" title={t('套利明细（按站点与日）')} data-testid="arbitrage-detail"
      extra={<Button onClick={exportXlsx} loading={exporting} data-testid="arbitrage-export" disabled={!page.data?.total}>{t('导出')}</Button>}>
      <Table<ArbitrageDetail>
        size="small"
        rowKey={(r) => `${r.siteId}-${r.date}`}
        columns={columns}
        dataSource={page.data?.records ?? []}
        loading={page.isLoading}
        // The columns' widths: the whole table in view at 1440 px (German included); narrower, it scrolls in its card.
        scroll={{ x: 1105 }}
        locale={{ emptyText: t('所选范围内没有已计算的站点日数据') }}
        pagination={{ current, pageSize: PAGE_SIZE, total: page.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, hideOnSinglePage: true }}
      />
    </Card>
  );
}

/**
 * /synthesis/businessOverview: energy arbitrage of a company's stations (or chosen stations) over
 * a range of station-local dates — energy and money in sum, by price period, per day or month
 * (fee and quantity curves), and per station-day with an xlsx export. Money is per currency.
 */
export function BusinessOverviewPage() {
  const t = useT();
  const [filters, setFilters] = useState<ArbitrageFilters>(() => ({ siteIds: [], ...defaultRange() }));
  const problem = rangeProblem(filters.start, filters.end);
  const body = useMemo(() => (problem ? null : arbitrageBody(filters)), [filters, problem]);
  const summary = useArbitrage('summary', body);
  const fee = useArbitrage('fee', body);
  const quantity = useArbitrage('quantity', body);
  const currencies = fee.data?.currencies.map((c) => c.currency) ?? [];
  const [currency, setCurrency] = useState<string | undefined>();
  const feeOption = useMemo(() => feeCurveOption(fee.data, currency, t, fee.isFetching ? '' : t('所选范围内没有收益数据')), [fee.data, fee.isFetching, currency, t]);
  const quantityOption = useMemo(() => quantityCurveOption(quantity.data, t, quantity.isFetching ? '' : t('所选范围内没有充放电')), [quantity.data, quantity.isFetching, t]);
  const range: [Dayjs, Dayjs] = [dayjs(filters.start), dayjs(filters.end)];
  const bucket = body?.bucket === 'month' ? t('按月') : t('按日');

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="business-overview">
      <Card size="small">
        <Space wrap>
          <CompanySelect allowClear value={filters.companyId} onChange={(companyId) => setFilters((f) => ({ ...f, companyId, siteIds: [] }))} />
          <StationsSelect companyId={filters.companyId} value={filters.siteIds} onChange={(siteIds) => setFilters((f) => ({ ...f, siteIds }))} />
          <DatePicker.RangePicker
            aria-label={t('日期范围')}
            value={range}
            allowClear={false}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            presets={[
              { label: t('本月'), value: [dayjs().startOf('month'), dayjs()] },
              { label: t('上月'), value: [dayjs().subtract(1, 'month').startOf('month'), dayjs().subtract(1, 'month').endOf('month')] },
              { label: t('近30天'), value: [dayjs().subtract(29, 'day'), dayjs()] },
              { label: t('本年'), value: [dayjs().startOf('year'), dayjs()] },
            ]}
            onChange={(v) => v?.[0] && v[1] && setFilters((f) => ({ ...f, start: v[0]!.format('YYYY-MM-DD'), end: v[1]!.format('YYYY-MM-DD') }))}
          />
          <Tag>{bucket}</Tag>
        </Space>
      </Card>
      {problem && <Alert type="warning" showIcon message={t(problem)} />}
      <SummaryCard s={summary.data} />
      {/* Side by side only from 1600 px: the period table's four columns of kWh need more than 10/24 of 1440 px in German. */}
      <Row gutter={[16, 16]}>
        <Col xs={24} xxl={14}>
          <Card size="small" title={t('充放电费用')} style={{ height: '100%' }}
            extra={currencies.length > 1 && <Segmented size="small" value={currency ?? currencies[0]} onChange={(v) => setCurrency(v)} options={currencies} aria-label={t('币种')} />}>
            <EChart option={feeOption} height={300} label={t('充放电费用')} testId="fee-curve" />
          </Card>
        </Col>
        <Col xs={24} xxl={10}>
          <PeriodTable s={summary.data} />
        </Col>
      </Row>
      <Card size="small" title={t('分时充放电量与效率')}>
        <EChart option={quantityOption} height={320} label={t('分时充放电量与效率')} testId="quantity-curve" />
      </Card>
      {/* A new filter starts the table on its first page. */}
      {body && <DetailTable key={JSON.stringify(body)} body={body} />}
    </Space>
  );
}
