import {
  DEMAND_LIVE_STATE_LABELS, DEMAND_OUTCOME_LABELS, demandEndpoints, type DemandDayInfo, type DemandDayRow, type DemandMonthInfo, type DemandMonthRow, type DemandWindowRow,
} from '@ess/contract/demand';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, Segmented, Space, Table, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/number-format.ts';
import { todayIn } from '@ess/contract/time';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { DEMAND_COLORS, demandCurveOption, maximaBarsOption } from './demand.charts.ts';
import { demandKeys } from './demand.keys.ts';
import { kw, money, signedKw } from './demand.model.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { ExceededTag, Figure, Figures, LoadError, MonthField, NoData, StationBar, useStationMonth } from './parts.tsx';

type Mode = 'month' | 'day';

const LIVE_TONES = { normal: 'success', preAlarm: 'warning', exceeding: 'error' } as const;
const OUTCOME_TONES = { normal: 'default', preAlarmed: 'warning', guarded: 'processing', exceeded: 'error' } as const;

/** The summary of a month or a day: its maximum and when, the target and the headroom; the month's demand charge. */
function Summary({ info, mode }: { info: DemandMonthInfo | DemandDayInfo; mode: Mode }) {
  const t = useT();
  const month = mode === 'month' ? (info as DemandMonthInfo) : null;
  const day = mode === 'day' ? (info as DemandDayInfo) : null;
  return (
    <Figures>
      <Figure testId="track-max" title={mode === 'month' ? t('本月最大需量') : t('当日最大需量')} value={kw(info.maxDemandKw)} danger={info.exceeded} />
      <Figure testId="track-max-time" title={t('出现时间')} value={info.maxDemandLocalTime ?? '-'} />
      <Figure testId="track-target" title={t('目标需量')} value={kw(info.targetKw)} />
      <Figure testId="track-headroom" title={t('余量')} value={info.headroomKw === null ? '-' : `${signedKw(info.headroomKw)} kW`} danger={(info.headroomKw ?? 0) < 0} />
      {month && <Figure testId="track-charge" title={t('需量电费')} value={money(month.demandCharge, info.currency)} />}
      {month && <Figure testId="track-price" title={t('需量电价')} value={month.demandPrice === null ? t('未配置两部制电价') : `${money(month.demandPrice, info.currency)}/kW·${t('月')}`} />}
      {day && <Figure testId="track-month-max" title={t('本月最大需量')} value={kw(day.monthMaxDemandKw)} />}
      {day?.live && (
        <Figure
          testId="track-live"
          title={t('当前窗口预测')}
          value={<Space size={4}>{kw(day.live.projectedKw)}<ToneTag tone={LIVE_TONES[day.live.state]}>{t(DEMAND_LIVE_STATE_LABELS[day.live.state])}</ToneTag></Space>}
        />
      )}
    </Figures>
  );
}

/**
 * /demand/track: a station's demand per month and per day in its own calendar — the maximum
 * 15-minute demand and its time, the target, the headroom, the month's demand charge — with the
 * curve of the 15-minute demands; a month lists its days (a day opens it) and the 12 months to it,
 * a day its windows with what the guard did.
 */
export function TrackPage() {
  const t = useT();
  const { site, onSite, month, setMonth } = useStationMonth();
  const [mode, setMode] = useState<Mode>('month');
  const [date, setDate] = useState<string | null>(null);
  const day = date ?? (site ? todayIn(site.timeZone) : null);
  const monthQ = useQuery({
    queryKey: demandKeys.month(site?.id ?? 0, month ?? ''),
    queryFn: () => call(demandEndpoints.monthlyInfo, { siteId: site!.id, month: month! }, { loading: false }),
    enabled: mode === 'month' && !!site && !!month,
    placeholderData: keepPreviousData,
  });
  const dayQ = useQuery({
    queryKey: demandKeys.day(site?.id ?? 0, day ?? ''),
    queryFn: () => call(demandEndpoints.dailyInfo, { siteId: site!.id, date: day! }, { loading: false }),
    enabled: mode === 'day' && !!site && !!day,
    placeholderData: keepPreviousData,
  });
  const q = mode === 'month' ? monthQ : dayQ;
  const info = q.data;
  const curve = useMemo(
    () => demandCurveOption(info?.curve ?? [], t, { targetKw: info?.targetKw, emptyText: q.isFetching ? '' : t('暂无需量数据') }),
    [info, t, q.isFetching],
  );

  const openDay = (d: string) => {
    setDate(d);
    setMode('day');
  };

  const dayColumns: TableColumnsType<DemandDayRow> = [
    { key: 'date', title: t('日期'), width: 120, fixed: 'left', render: (_, r) => <Typography.Link onClick={() => openDay(r.date)} data-testid="track-day-link">{r.date}</Typography.Link> },
    { key: 'max', title: t('最大需量 (kW)'), width: 130, align: 'right', render: (_, r) => (r.maxDemandKw === null ? '-' : formatNumber(r.maxDemandKw)) },
    { key: 'time', title: t('出现时间'), width: 150, render: (_, r) => r.maxDemandLocalTime ?? '-' },
    { key: 'target', title: t('目标需量 (kW)'), width: 130, align: 'right', render: (_, r) => (r.targetKw === null ? '-' : formatNumber(r.targetKw)) },
    { key: 'headroom', title: t('余量 (kW)'), width: 110, align: 'right', render: (_, r) => signedKw(r.headroomKw) },
    { key: 'state', title: t('状态'), width: 110, render: (_, r) => <ExceededTag exceeded={r.exceeded} hasTarget={r.targetKw !== null} hasData={r.maxDemandKw !== null} /> },
    { key: 'estimated', title: t('估算窗口'), width: 100, align: 'right', render: (_, r) => `${r.estimatedWindows}/${r.windows}` },
    { key: 'preAlarms', title: t('预警次数'), width: 100, align: 'right', dataIndex: 'preAlarms' },
  ];
  const monthColumns: TableColumnsType<DemandMonthRow> = [
    { key: 'month', title: t('月份'), width: 100, fixed: 'left', dataIndex: 'month' },
    { key: 'max', title: t('最大需量 (kW)'), width: 130, align: 'right', render: (_, r) => (r.maxDemandKw === null ? '-' : formatNumber(r.maxDemandKw)) },
    { key: 'time', title: t('出现时间'), width: 150, render: (_, r) => r.maxDemandLocalTime ?? '-' },
    { key: 'target', title: t('目标需量 (kW)'), width: 130, align: 'right', render: (_, r) => (r.targetKw === null ? '-' : formatNumber(r.targetKw)) },
    { key: 'headroom', title: t('余量 (kW)'), width: 110, align: 'right', render: (_, r) => signedKw(r.headroomKw) },
    { key: 'charge', title: t('需量电费'), width: 140, align: 'right', render: (_, r) => money(r.demandCharge, info?.currency ?? '') },
    { key: 'state', title: t('状态'), width: 110, render: (_, r) => <ExceededTag exceeded={r.exceeded} hasTarget={r.targetKw !== null} hasData={r.maxDemandKw !== null} /> },
  ];
  const windowColumns: TableColumnsType<DemandWindowRow> = [
    { key: 'time', title: t('时间'), width: 90, fixed: 'left', dataIndex: 'localTime' },
    { key: 'demand', title: t('需量 (kW)'), width: 110, align: 'right', render: (_, r) => formatNumber(r.demandKw) },
    { key: 'cf', title: t('无储能需量 (kW)'), width: 150, align: 'right', render: (_, r) => (r.counterfactualKw === null ? '-' : formatNumber(r.counterfactualKw)) },
    { key: 'granted', title: t('放电响应 (kW)'), width: 130, align: 'right', render: (_, r) => (r.guardGrantedKw === null ? '-' : formatNumber(r.guardGrantedKw)) },
    { key: 'outcome', title: t('结果'), width: 120, render: (_, r) => <ToneTag tone={OUTCOME_TONES[r.outcome]}>{t(DEMAND_OUTCOME_LABELS[r.outcome])}</ToneTag> },
    { key: 'estimated', title: t('数据质量'), width: 100, render: (_, r) => (r.estimated ? <ToneTag tone="warning">{t('估算')}</ToneTag> : t('实测')) },
  ];

  const monthInfo = mode === 'month' ? monthQ.data : undefined;
  const dayInfo = mode === 'day' ? dayQ.data : undefined;
  const trend = useMemo(
    () => maximaBarsOption(
      (monthInfo?.months ?? []).map((m) => m.month),
      [
        { name: t('最大需量'), values: (monthInfo?.months ?? []).map((m) => m.maxDemandKw), color: DEMAND_COLORS.demand },
        { name: t('目标需量'), values: (monthInfo?.months ?? []).map((m) => m.targetKw), color: DEMAND_COLORS.target },
      ],
      t,
    ),
    [monthInfo, t],
  );
  // A month counts its windows; a day lists them.
  const empty = !!info && (Array.isArray(info.windows) ? info.windows.length === 0 : info.windows === 0);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="demand-track">
      <StationBar site={site} onSite={onSite}>
        <Form.Item label={t('查看方式')}>
          <Segmented<Mode>
            aria-label={t('查看方式')}
            value={mode}
            onChange={(v) => setMode(v)}
            options={[{ value: 'month', label: t('按月') }, { value: 'day', label: t('按日') }]}
          />
        </Form.Item>
        {mode === 'month' ? (
          <Form.Item label={t('月份')} htmlFor="demand-month">
            <MonthField value={month} onChange={setMonth} />
          </Form.Item>
        ) : (
          <Form.Item label={t('日期')} htmlFor="demand-date">
            <DatePicker
              id="demand-date"
              aria-label={t('日期')}
              allowClear={false}
              value={day ? dayjs(day) : null}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
              onChange={(v) => v && setDate(v.format('YYYY-MM-DD'))}
            />
          </Form.Item>
        )}
      </StationBar>
      <LoadError error={q.error} />
      <Card
        size="small"
        title={info ? `${info.siteName} · ${mode === 'month' ? month : day}` : t('需量跟踪')}
        loading={!info && q.isFetching}
      >
        {/* The zone note in the body, not beside the title: on a phone it cut the title (390 px). */}
        {info && (
          <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 12 }} data-testid="track-zone-note">
            {t('站点当地时间（$1），15分钟需量', info.timeZone)}
          </Typography.Text>
        )}
        {info && <Summary info={info} mode={mode} />}
        {!info && !q.isFetching && !q.isError && <NoData text={t('请选择站点')} />}
      </Card>
      <Card size="small" title={t('15分钟需量曲线')}>
        {empty ? <NoData text={t('暂无需量数据：需要站点关口表的电量数据')} /> : <EChart option={curve} height={300} label={t('15分钟需量曲线')} testId="track-curve" />}
      </Card>
      {mode === 'month' && (
        <>
          <Card size="small" title={t('每日最大需量')}>
            <Table<DemandDayRow>
              rowKey="date" size="small" data-testid="track-days" loading={monthQ.isFetching} dataSource={monthInfo?.days ?? []} columns={dayColumns}
              pagination={false} scroll={{ x: 'max-content', y: 400 }}
            />
          </Card>
          <Card size="small" title={t('近12个月')}>
            <EChart option={trend} height={240} label={t('近12个月最大需量')} testId="track-months-chart" />
            <Table<DemandMonthRow>
              rowKey="month" size="small" data-testid="track-months" dataSource={monthInfo?.months ?? []} columns={monthColumns} pagination={false} scroll={{ x: 'max-content' }}
            />
          </Card>
        </>
      )}
      {mode === 'day' && (
        <Card size="small" title={t('15分钟窗口')}>
          <Table<DemandWindowRow>
            rowKey="id" size="small" data-testid="track-windows" loading={dayQ.isFetching} dataSource={dayInfo?.windows ?? []} columns={windowColumns}
            pagination={{ pageSize: 24, showSizeChanger: false, hideOnSinglePage: true }} scroll={{ x: 'max-content' }}
          />
        </Card>
      )}
    </Space>
  );
}
