import {
  DEMAND_OUTCOME_LABELS, DEMAND_PRICE_KIND_LABELS, demandEndpoints, type DemandMeasureRecord, type DemandSavingRow,
} from '@ess/contract/demand';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Drawer, Form, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatDateTime, formatNumber } from '../../components/number-format.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { demandCurveOption } from './demand.charts.ts';
import { demandKeys } from './demand.keys.ts';
import { kw, money } from './demand.model.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { Figure, Figures, LoadError, MonthField, NoData, StationBar, useStationMonth } from './parts.tsx';

const OUTCOME_TONES = { normal: 'default', preAlarmed: 'warning', guarded: 'processing', exceeded: 'error' } as const;
const num = (v: number | null | undefined) => (v === null || v === undefined ? '-' : formatNumber(v));

/** A measure (a window where storage acted) in detail: the energies, the guard's command and answer, the windows around it. */
export function MeasureDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useT();
  const q = useQuery({ queryKey: demandKeys.measure(id), queryFn: () => call(demandEndpoints.measureOne, { id }, { loading: false }) });
  const d = q.data;
  const option = useMemo(() => demandCurveOption(d?.around ?? [], t, { targetKw: d?.targetKw, counterfactual: true }), [d, t]);
  return (
    <Drawer open onClose={onClose} width={640} title={d ? t('需量措施 $1', d.localTime) : t('需量措施')} destroyOnHidden loading={q.isLoading} data-testid="measure-detail">
      <LoadError error={q.error} />
      {d && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
            <Descriptions.Item label={t('站点')}>{d.siteName}</Descriptions.Item>
            <Descriptions.Item label={t('窗口')}>{`${d.localTime} (${d.timeZone})`}</Descriptions.Item>
            <Descriptions.Item label={t('实际需量')}>{kw(d.demandKw)}</Descriptions.Item>
            <Descriptions.Item label={t('无储能需量')}>{kw(d.counterfactualKw)}</Descriptions.Item>
            <Descriptions.Item label={t('削减需量')}>{kw(d.shavedKw)}</Descriptions.Item>
            <Descriptions.Item label={t('目标需量')}>{kw(d.targetKw)}</Descriptions.Item>
            <Descriptions.Item label={t('关口表输入电量')}>{`${num(d.importKwh)} kWh`}</Descriptions.Item>
            <Descriptions.Item label={t('起止读数')}>{`${num(d.startRegisterKwh)} → ${num(d.endRegisterKwh)} kWh`}</Descriptions.Item>
            <Descriptions.Item label={t('储能放电量')}>{`${num(d.dischargeKwh)} kWh`}</Descriptions.Item>
            <Descriptions.Item label={t('储能充电量')}>{`${num(d.chargeKwh)} kWh`}</Descriptions.Item>
            <Descriptions.Item label={t('结果')}><ToneTag tone={OUTCOME_TONES[d.outcome]}>{t(DEMAND_OUTCOME_LABELS[d.outcome])}</ToneTag></Descriptions.Item>
            <Descriptions.Item label={t('本月最大')}>{d.isMonthMax ? t('是') : t('否')}</Descriptions.Item>
            <Descriptions.Item label={t('预警时预测')}>{kw(d.projectedKw)}</Descriptions.Item>
            <Descriptions.Item label={t('预警时间')}>{d.preAlarmAt ? formatDateTime(d.preAlarmAt) : '-'}</Descriptions.Item>
          </Descriptions>
          <Card size="small" title={t('放电请求')}>
            {d.guard ? (
              <Descriptions size="small" column={{ xs: 1, sm: 2 }} data-testid="measure-guard">
                <Descriptions.Item label={t('设备编码')}>{d.guard.deviceCode}</Descriptions.Item>
                <Descriptions.Item label={t('请求时间')}>{formatDateTime(d.guard.requestedAt)}</Descriptions.Item>
                <Descriptions.Item label={t('请求放电功率')}>{kw(d.guard.dischargeKw)}</Descriptions.Item>
                <Descriptions.Item label={t('响应功率')}>{kw(d.guard.grantedKw)}</Descriptions.Item>
                <Descriptions.Item label={t('持续至')}>{formatDateTime(d.guard.until)}</Descriptions.Item>
                <Descriptions.Item label={t('状态')}>{d.guard.status}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('该窗口没有放电请求')}</Typography.Text>
            )}
          </Card>
          <Card size="small" title={t('前后一小时的需量')}>
            <EChart option={option} height={240} label={t('前后一小时的需量')} testId="measure-around" />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}

/** The windows where storage acted in the month, by page, with their detail. */
function Measures({ siteId, month }: { siteId: number; month: string }) {
  const t = useT();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [shavedOnly, setShavedOnly] = useState(true);
  const [open, setOpen] = useState<number | null>(null);
  const body = { siteId, month, shavedOnly, current: page.current, pageSize: page.pageSize };
  const q = useQuery({
    queryKey: demandKeys.measures(body),
    queryFn: () => call(demandEndpoints.measure, body, { loading: false }),
    placeholderData: keepPreviousData,
  });
  const columns: TableColumnsType<DemandMeasureRecord> = [
    { key: 'time', title: t('窗口'), width: 150, fixed: 'left', dataIndex: 'localTime' },
    { key: 'demand', title: t('实际需量 (kW)'), width: 130, align: 'right', render: (_, r) => formatNumber(r.demandKw) },
    { key: 'cf', title: t('无储能需量 (kW)'), width: 150, align: 'right', render: (_, r) => formatNumber(r.counterfactualKw) },
    { key: 'shaved', title: t('削减需量 (kW)'), width: 130, align: 'right', render: (_, r) => formatNumber(r.shavedKw) },
    { key: 'discharge', title: t('放电量 (kWh)'), width: 120, align: 'right', render: (_, r) => formatNumber(r.dischargeKwh) },
    { key: 'outcome', title: t('结果'), width: 120, render: (_, r) => <ToneTag tone={OUTCOME_TONES[r.outcome]}>{t(DEMAND_OUTCOME_LABELS[r.outcome])}</ToneTag> },
    { key: 'max', title: t('本月最大'), width: 90, render: (_, r) => (r.isMonthMax ? <ToneTag tone="processing">{t('是')}</ToneTag> : '') },
    {
      key: 'actions', title: t('操作'), width: 80,
      render: (_, r) => <Typography.Link onClick={() => setOpen(r.id)} data-testid="measure-open">{t('详情')}</Typography.Link>,
    },
  ];
  return (
    <Card
      size="small"
      title={t('需量措施（储能动作的窗口）')}
      extra={
        <Space>
          <Typography.Text id="shaved-only-label">{t('只看削减需量的窗口')}</Typography.Text>
          <Switch size="small" aria-labelledby="shaved-only-label" checked={shavedOnly} onChange={(v) => { setShavedOnly(v); setPage((p) => ({ ...p, current: 1 })); }} />
        </Space>
      }
    >
      <LoadError error={q.error} />
      <Table<DemandMeasureRecord>
        rowKey="id" size="small" data-testid="analysis-measures" loading={q.isFetching} dataSource={q.data?.records ?? []} columns={columns} scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('本月储能没有削减需量的窗口') }}
        pagination={{ current: page.current, pageSize: page.pageSize, total: q.data?.total ?? 0, showSizeChanger: true, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
      />
      {open !== null && <MeasureDetail id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}

/**
 * /demand/analysis: what storage shaved off a station's demand in a month — the measured maximum
 * beside the counterfactual without storage (import + discharge − charge) and the saving in money
 * per month — the curve of both, and the measures (windows where storage acted) with their detail.
 */
export function AnalysisPage() {
  const t = useT();
  const { site, onSite, month, setMonth } = useStationMonth();
  const q = useQuery({
    queryKey: demandKeys.analysis(site?.id ?? 0, month ?? ''),
    queryFn: () => call(demandEndpoints.analysisInfo, { siteId: site!.id, month: month! }, { loading: false }),
    enabled: !!site && !!month,
    placeholderData: keepPreviousData,
  });
  const a = q.data;
  const curve = useMemo(() => demandCurveOption(a?.curve ?? [], t, { counterfactual: true, emptyText: q.isFetching ? '' : t('暂无需量数据') }), [a, t, q.isFetching]);
  const monthColumns: TableColumnsType<DemandSavingRow> = [
    { key: 'month', title: t('月份'), width: 100, fixed: 'left', dataIndex: 'month' },
    { key: 'measured', title: t('实际最大需量 (kW)'), width: 150, align: 'right', render: (_, r) => num(r.measuredMaxKw) },
    { key: 'cf', title: t('无储能最大需量 (kW)'), width: 170, align: 'right', render: (_, r) => num(r.counterfactualMaxKw) },
    { key: 'shaved', title: t('削减需量 (kW)'), width: 130, align: 'right', render: (_, r) => num(r.shavedKw) },
    { key: 'saving', title: t('节省需量电费'), width: 150, align: 'right', render: (_, r) => money(r.saving, a?.currency ?? '') },
    { key: 'measures', title: t('措施次数'), width: 100, align: 'right', dataIndex: 'measures' },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="demand-analysis">
      <StationBar site={site} onSite={onSite}>
        <Form.Item label={t('月份')} htmlFor="demand-month">
          <MonthField value={month} onChange={setMonth} />
        </Form.Item>
      </StationBar>
      <LoadError error={q.error} />
      <Card size="small" title={a ? `${a.siteName} · ${month}` : t('需量分析')} loading={!a && q.isFetching}>
        {a && !a.hasStorageMeter && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('该站点没有储能电表：无储能需量与实际需量相同')} />}
        {a && !a.price && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('该站点未配置两部制电价：不计算需量电费')} />}
        {a && (
          <Figures>
            <Figure testId="analysis-measured" title={t('实际最大需量')} value={kw(a.measuredMaxKw)} />
            <Figure testId="analysis-counterfactual" title={t('无储能最大需量')} value={kw(a.counterfactualMaxKw)} />
            <Figure testId="analysis-shaved" title={t('削减需量')} value={kw(a.shavedKw)} />
            <Figure testId="analysis-saving" title={t('节省需量电费')} value={money(a.saving, a.currency)} />
            <Figure testId="analysis-measure-count" title={t('措施次数')} value={String(a.measures)} />
            <Figure
              testId="analysis-price"
              title={a.price ? t(DEMAND_PRICE_KIND_LABELS[a.price.kind]) : t('需量电价')}
              value={a.price ? `${money(a.price.price, a.currency)}/kW·${t('月')}` : '-'}
            />
          </Figures>
        )}
        {!a && !q.isFetching && !q.isError && <NoData text={t('请选择站点')} />}
      </Card>
      <Card size="small" title={t('实际需量与无储能需量')}>
        <EChart option={curve} height={300} label={t('实际需量与无储能需量')} testId="analysis-curve" />
      </Card>
      <Card size="small" title={t('每月节省')}>
        <Table<DemandSavingRow> rowKey="month" size="small" data-testid="analysis-months" dataSource={a?.months ?? []} columns={monthColumns} pagination={false} scroll={{ x: 'max-content' }} />
      </Card>
      {site && month && <Measures siteId={site.id} month={month} />}
    </Space>
  );
}
