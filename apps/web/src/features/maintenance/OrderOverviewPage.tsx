import { maintenanceEndpoints, type MttRecord, type OverviewSiteRecord, type ServiceRecord } from '@ess/contract/maintenance';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Card, Col, Row, Space, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EChart } from '../../components/chart/EChart.tsx';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { maintKeys } from './maintenance.keys.ts';
import { MonthCalendar } from './MonthCalendar.tsx';
import { minutesText, mttRows, statisticOption } from './overview.ts';

const quiet = { loading: false } as const;

/**
 * /overview/order: what maintenance work is due and done — open, overdue, due today and completed
 * this month for inspections and repairs, created and completed work per day, a month calendar of
 * due and done work, each assignee's load and on-time rate, each station's open work, and MTTA and
 * MTTR of alarm repairs per station and month.
 */
export function OrderOverviewPage() {
  const t = useT();
  const navigate = useNavigate();
  const [siteId, setSiteId] = useState<number | undefined>();
  const q = siteId ? { siteId } : {};
  const today = dayjs().format('YYYY-MM-DD');
  const [month, setMonth] = useState(today.slice(0, 7));
  const from = dayjs().subtract(29, 'day').format('YYYY-MM-DD');
  const monthStart = `${today.slice(0, 7)}-01`;
  const mttFrom = dayjs().subtract(5, 'month').startOf('month').format('YYYY-MM-DD');

  const summary = useQuery({ queryKey: maintKeys.overview('summary', q), queryFn: () => call(maintenanceEndpoints.overviewSummary, q, quiet), placeholderData: keepPreviousData });
  const statistic = useQuery({
    queryKey: maintKeys.overview('statistic', { ...q, from, to: today }),
    queryFn: () => call(maintenanceEndpoints.overviewStatistic, { ...q, from, to: today, bucket: 'day' }, quiet),
    placeholderData: keepPreviousData,
  });
  const mtt = useQuery({
    queryKey: maintKeys.overview('mtt', { ...q, from: mttFrom, to: today }),
    queryFn: () => call(maintenanceEndpoints.overviewStatistic, { ...q, from: mttFrom, to: today, bucket: 'month' }, quiet),
    placeholderData: keepPreviousData,
  });
  const calendar = useQuery({
    queryKey: maintKeys.overview('calendar', { ...q, month }),
    queryFn: () => call(maintenanceEndpoints.overviewCalendar, { ...q, month }, quiet),
    placeholderData: keepPreviousData,
  });
  const service = useQuery({
    queryKey: maintKeys.overview('service', { ...q, from: monthStart, to: today }),
    queryFn: () => call(maintenanceEndpoints.overviewService, { ...q, from: monthStart, to: today }, quiet),
    placeholderData: keepPreviousData,
  });
  const sites = useQuery({ queryKey: maintKeys.overview('sites', q), queryFn: () => call(maintenanceEndpoints.overviewSiteList, q, quiet), placeholderData: keepPreviousData });

  const chart = useMemo(() => statisticOption(statistic.data, t), [statistic.data, t]);
  const days = useMemo(
    () =>
      (calendar.data?.days ?? []).map((d) => ({ date: d.date, due: d.inspectionDue + d.repairDue, done: d.inspectionDone + d.repairDone, overdue: d.overdue })),
    [calendar.data],
  );
  const s = summary.data;

  const serviceColumns: ColumnsType<ServiceRecord> = [
    { title: t('执行人'), dataIndex: 'name', width: 120 },
    { title: t('当前负荷'), dataIndex: 'load', width: 90, align: 'right' },
    { title: t('逾期未完成'), dataIndex: 'overdueOpen', width: 100, align: 'right' },
    { title: t('本月完成'), dataIndex: 'completed', width: 90, align: 'right' },
    { title: t('按时完成率'), dataIndex: 'onTimeRate', width: 110, align: 'right', render: (v: number | null) => (v === null ? '-' : `${Math.round(v * 1000) / 10}%`) },
  ];
  const siteColumns: ColumnsType<OverviewSiteRecord> = [
    { title: t('站点'), dataIndex: 'siteName', width: 150, render: (v: string, r) => <Link to={`/patrol/order?siteId=${r.siteId}`}>{v}</Link> },
    { title: t('未完成巡检'), dataIndex: 'openInspection', width: 100, align: 'right' },
    { title: t('未完成维修'), dataIndex: 'openRepair', width: 100, align: 'right' },
    { title: t('逾期'), dataIndex: 'overdue', width: 70, align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : v) },
    { title: t('今日到期'), dataIndex: 'dueToday', width: 90, align: 'right' },
    { title: t('未处理缺陷'), dataIndex: 'openDefects', width: 100, align: 'right' },
  ];
  const mttColumns: ColumnsType<MttRecord> = [
    { title: t('月份'), dataIndex: 'month', width: 90 },
    { title: t('站点'), dataIndex: 'siteName', width: 150 },
    { title: t('告警维修工单'), dataIndex: 'orders', width: 110, align: 'right' },
    { title: t('平均响应时间 (MTTA)'), dataIndex: 'mttaMinutes', width: 150, align: 'right', render: (v: number | null) => minutesText(v, t) },
    { title: t('平均修复时间 (MTTR)'), dataIndex: 'mttrMinutes', width: 150, align: 'right', render: (v: number | null) => minutesText(v, t) },
  ];

  const figure = (title: string, value: number | string | undefined, testId: string, danger = false) => (
    <Col xs={12} sm={8} lg={6} xl={3} key={testId}>
      <Card size="small" data-testid={testId}>
        <Statistic title={title} value={value ?? '-'} valueStyle={danger && value ? { color: '#cf1322' } : undefined} />
      </Card>
    </Col>
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="order-overview">
      <Card size="small">
        <StationPicker value={siteId} onChange={setSiteId} onClear={() => setSiteId(undefined)} />
      </Card>
      <Row gutter={[12, 12]}>
        {figure(t('未完成巡检'), s?.inspection.open, 'sum-inspection-open')}
        {figure(t('逾期巡检'), s?.inspection.overdue, 'sum-inspection-overdue', true)}
        {figure(t('今日到期巡检'), s?.inspection.dueToday, 'sum-inspection-today')}
        {figure(t('本月完成巡检'), s?.inspection.completedThisMonth, 'sum-inspection-done')}
        {figure(t('未完成维修'), s?.repair.open, 'sum-repair-open')}
        {figure(t('逾期维修'), s?.repair.overdue, 'sum-repair-overdue', true)}
        {figure(t('未处理缺陷'), s?.openDefects, 'sum-defects')}
        <Col xs={12} sm={8} lg={6} xl={3}>
          <Card size="small" data-testid="sum-mtt">
            <Statistic title={t('本月 MTTA / MTTR')} value={`${minutesText(s?.mttaMinutes, t)} / ${minutesText(s?.mttrMinutes, t)}`} valueStyle={{ fontSize: 16 }} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('近30天工单统计')}>
            <EChart option={chart} height={300} label={t('近30天工单统计')} testId="overview-statistic" />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('工单日历')}>
            <MonthCalendar month={month} days={days} today={today} onMonth={setMonth} onDay={() => void navigate('/patrol/order')} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('人员工作量（本月）')}>
            <Table<ServiceRecord> rowKey="userId" size="small" columns={serviceColumns} dataSource={service.data ?? []} loading={service.isLoading} pagination={false} scroll={{ x: 510 }} data-testid="overview-service" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('站点工单')}>
            <Table<OverviewSiteRecord> rowKey="siteId" size="small" columns={siteColumns} dataSource={sites.data ?? []} loading={sites.isLoading} pagination={false} scroll={{ x: 610 }} data-testid="overview-sites" />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('告警维修 MTTA / MTTR（按站点和月份）')}>
        <Table<MttRecord>
          rowKey={(r) => `${r.siteId}-${r.month}`}
          size="small"
          columns={mttColumns}
          dataSource={mttRows(mtt.data?.mtt ?? [])}
          loading={mtt.isLoading}
          pagination={{ pageSize: 12, hideOnSinglePage: true, showSizeChanger: false }}
          scroll={{ x: 650 }}
          data-testid="overview-mtt"
        />
      </Card>
    </Space>
  );
}
