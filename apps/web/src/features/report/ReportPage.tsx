import {
  REPORT_EXPORT_STATE_LABELS, REPORT_TEMPLATE_LABELS, REPORT_TEMPLATE_PARAMS, reportEndpoints as api,
  type ReportExportRecord, type ReportFormat, type ReportPreview, type ReportTable, type ReportTemplate,
} from '@ess/contract/report';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, DatePicker, Empty, Form, Progress, Row, Segmented, Select, Space, Statistic, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatDateTime, formatNumber } from '../../components/number-format.ts';
import { useOptionSource } from '../../components/crud/index.ts';
import { currencySource, siteLabel, siteListQuery } from '../../components/options/sites.ts';
import { toast } from '../../platform/feedback/toast.ts';
import { translateBuiltIn } from '../../platform/i18n/translate.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call, callFile } from '../../platform/request.ts';
import { reportChartOption } from './report.chart.ts';
import { reportKeys } from './report.keys.ts';
import { ReportEmbed } from './ReportEmbed.tsx';
import { ReportSchedules } from './ReportSchedules.tsx';

const PAGE_SIZE = 10;
const POLL_MS = 1000;

interface Params {
  template: ReportTemplate;
  siteIds: number[];
  start: string;
  end: string;
  granularity: 'day' | 'month';
  currency: string | null;
}

const defaultParams = (): Params => ({
  template: 'operations',
  siteIds: [],
  start: dayjs().subtract(29, 'day').format('YYYY-MM-DD'),
  end: dayjs().format('YYYY-MM-DD'),
  granularity: 'day',
  currency: null,
});

/** The fields the template reads (the rest take their defaults). */
function bodyOf(p: Params) {
  const reads = REPORT_TEMPLATE_PARAMS[p.template];
  return {
    template: p.template, siteIds: p.siteIds, start: p.start, end: p.end,
    granularity: reads.includes('granularity') ? p.granularity : 'day' as const,
    currency: reads.includes('currency') ? p.currency : null,
  };
}

function usePreview(p: Params | null, current: number) {
  const body = p ? { ...bodyOf(p), current, pageSize: PAGE_SIZE } : null;
  return useQuery({
    queryKey: reportKeys.preview(body ?? {}),
    queryFn: () => call(api.preview, body!),
    enabled: !!body,
    placeholderData: keepPreviousData,
  });
}

const cellText = (v: number | string | null | undefined, c: ReportTable['columns'][number], t: (s: string) => string) => {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'number') return formatNumber(v, c.decimals === null ? {} : { decimals: c.decimals });
  if (c.kind === 'label') return t(v);
  if (c.kind === 'name') return translateBuiltIn(v);
  return v;
};

/** One of the report's tables: paged by the server (its own page), the whole table's sums in a total row. */
function ReportTableCard({ params, tableKey, first }: { params: Params; tableKey: string; first: ReportTable }) {
  const t = useT();
  const [current, setCurrent] = useState(1);
  const q = usePreview(current === 1 ? null : params, current);
  const table = current === 1 ? first : (q.data?.tables.find((x) => x.key === tableKey) ?? first);
  const columns: ColumnsType<Record<string, number | string | null>> = table.columns.map((c, i) => ({
    key: c.key,
    dataIndex: c.key,
    title: c.unit ? `${t(c.title)} (${t(c.unit)})` : t(c.title),
    align: c.kind === 'number' ? ('right' as const) : ('left' as const),
    ...(i === 0 ? { fixed: 'left' as const } : {}),
    render: (v: number | string | null) => cellText(v, c, t),
  }));
  const hasTotals = Object.keys(table.totals).length > 0;
  return (
    <Card size="small" title={t(table.title)} data-testid={`report-table-${tableKey}`}>
      <Table
        size="small"
        rowKey={(_r, i) => String(i)}
        columns={columns}
        dataSource={table.rows}
        loading={current !== 1 && q.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('所选范围内没有数据') }}
        pagination={{ current, pageSize: PAGE_SIZE, total: table.total, onChange: setCurrent, showSizeChanger: false, hideOnSinglePage: true }}
        summary={() =>
          hasTotals && table.total > 0 ? (
            <Table.Summary.Row>
              {table.columns.map((c, i) => (
                <Table.Summary.Cell key={c.key} index={i} align={c.kind === 'number' ? 'right' : 'left'}>
                  <Typography.Text strong>{i === 0 ? t('合计') : c.key in table.totals ? cellText(table.totals[c.key], c, t) : ''}</Typography.Text>
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  );
}

function PreviewView({ params, data }: { params: Params; data: ReportPreview }) {
  const t = useT();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="report-preview">
      <Card size="small" title={t(data.title)}
        extra={<Typography.Text type="secondary">{t('$1 至 $2（各站点当地日期）', data.start, data.end)}</Typography.Text>}>
        <Row gutter={[16, 16]}>
          {data.figures.map((f) => (
            <Col xs={12} md={8} xl={4} key={f.key} data-testid={`report-figure-${f.key}`}>
              <Statistic title={t(f.label, ...f.args)} value={f.value === null ? '-' : `${formatNumber(f.value, { decimals: f.decimals })}${f.unit ? ` ${t(f.unit)}` : ''}`} />
            </Col>
          ))}
        </Row>
      </Card>
      {data.charts.map((c) => (
        <Card size="small" key={c.key} title={t(c.title, ...c.series.map((s) => s.unit ?? ''))}>
          <EChart option={reportChartOption(c, t, translateBuiltIn)} label={t(c.title, ...c.series.map((s) => s.unit ?? ''))} height={300} testId={`report-chart-${c.key}`} />
        </Card>
      ))}
      {data.tables.map((tb) => <ReportTableCard key={`${tb.key}|${JSON.stringify(bodyOf(params))}`} params={params} tableKey={tb.key} first={tb} />)}
    </Space>
  );
}

/** The caller's exports with their progress, read again while one is being made; downloads. */
function ExportList() {
  const t = useT();
  const [current, setCurrent] = useState(1);
  const page = useQuery({
    queryKey: reportKeys.exportPage(current),
    queryFn: () => call(api.exportPage, { current, pageSize: PAGE_SIZE }),
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.state === 'queued' || r.state === 'running') ? POLL_MS : false),
  });
  const download = (r: ReportExportRecord) => {
    void callFile(api.exportDownload, { id: r.id }, { fileName: r.fileName ?? undefined }).catch(() => undefined);
  };
  const columns: ColumnsType<ReportExportRecord> = [
    { title: t('报表模板'), dataIndex: 'template', render: (v: ReportTemplate) => t(REPORT_TEMPLATE_LABELS[v]) },
    { title: t('格式'), dataIndex: 'format', render: (v: string) => v.toUpperCase() },
    { title: t('统计周期'), key: 'period', render: (_v, r) => `${r.params.start} ~ ${r.params.end}` },
    { title: t('提交时间'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('进度'), key: 'progress', width: 200,
      render: (_v, r) => r.state === 'failed'
        ? <Tag color="error">{`${t(REPORT_EXPORT_STATE_LABELS.failed)}${r.error ? `: ${t(r.error)}` : ''}`}</Tag>
        : <Progress percent={r.progress} size="small" status={r.state === 'done' ? 'success' : 'active'} aria-label={`${t('进度')} ${t(REPORT_EXPORT_STATE_LABELS[r.state])}`} />,
    },
    {
      title: t('操作'), key: 'actions', fixed: 'right',
      render: (_v, r) => <Button size="small" type="link" disabled={r.state !== 'done'} onClick={() => download(r)} data-testid="report-download">{t('下载')}</Button>,
    },
  ];
  return (
    <Card size="small" title={t('导出记录')} data-testid="report-exports">
      <Table<ReportExportRecord>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={page.data?.records ?? []}
        loading={page.isLoading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('暂无导出记录') }}
        pagination={{ current, pageSize: PAGE_SIZE, total: page.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, hideOnSinglePage: true }}
      />
    </Card>
  );
}

/**
 * /report/jimu: the report centre in three tabs — the reports (preview and files), the schedules
 * that mail them, and the external report tool (when the installation has one).
 */
export function ReportPage() {
  const t = useT();
  const [tab, setTab] = useState('reports');
  return (
    <Tabs activeKey={tab} onChange={setTab} destroyOnHidden data-testid="report-tabs" items={[
      { key: 'reports', label: t('报表'), children: <ReportCentre /> },
      { key: 'schedules', label: t('计划发送'), children: <ReportSchedules /> },
      { key: 'embed', label: t('外部报表'), children: <ReportEmbed /> },
    ]} />
  );
}

/**
 * The reports tab — a shipped template, the stations (within the caller's scope),
 * the period in station-local dates, the granularity and currency where the template reads them;
 * the preview's figures, charts and paged tables; xlsx and PDF files made in the background.
 */
function ReportCentre() {
  const t = useT();
  const client = useQueryClient();
  const templates = useQuery({ queryKey: reportKeys.templates, queryFn: () => call(api.templates, undefined) });
  const sites = useQuery(siteListQuery);
  const [draft, setDraft] = useState<Params>(defaultParams);
  const [shown, setShown] = useState<Params | null>(null);
  const [exporting, setExporting] = useState<ReportFormat | null>(null);
  const preview = usePreview(shown, 1);
  const reads = REPORT_TEMPLATE_PARAMS[draft.template];
  // The enabled currencies of /globalization/currency, loaded only for a template that reads one.
  const currencies = useOptionSource(reads.includes('currency') ? currencySource : null);
  const problem = draft.siteIds.length === 0 ? t('请选择至少一个站点') : null;
  const range: [Dayjs, Dayjs] = [dayjs(draft.start), dayjs(draft.end)];
  const templateOptions = useMemo(
    () => (templates.data ?? []).map((x) => ({ value: x.template, label: t(x.name) })),
    [templates.data, t],
  );

  const exportFile = (format: ReportFormat) => {
    setExporting(format);
    call(api.exportAdd, { params: bodyOf(draft), format })
      .then(() => {
        toast('success', t('已提交，报表将在后台生成'));
        return client.invalidateQueries({ queryKey: reportKeys.exports });
      })
      .catch(() => undefined)
      .finally(() => setExporting(null));
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="report-page">
      <Card size="small">
        <Form layout="vertical" requiredMark={false}>
          <Row gutter={16}>
            <Col xs={24} md={12} xl={6}>
              <Form.Item label={t('报表模板')} htmlFor="report-template">
                <Select id="report-template" data-testid="report-template" value={draft.template} options={templateOptions}
                  onChange={(template: ReportTemplate) => setDraft((d) => ({ ...d, template }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item label={t('站点')} htmlFor="report-sites">
                <Select id="report-sites" data-testid="report-sites" mode="multiple" value={draft.siteIds} allowClear optionFilterProp="label" maxTagCount="responsive"
                  loading={sites.isFetching} placeholder={t('请选择站点')} notFoundContent={t('暂无可访问的站点')}
                  options={(sites.data ?? []).map((s) => ({ value: s.id, label: siteLabel(s) }))}
                  onChange={(siteIds: number[]) => setDraft((d) => ({ ...d, siteIds }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={6}>
              <Form.Item label={t('统计周期')} htmlFor="report-range">
                <DatePicker.RangePicker id={{ start: 'report-range' }} value={range} allowClear={false} style={{ width: '100%' }}
                  disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                  presets={[
                    { label: t('本月'), value: [dayjs().startOf('month'), dayjs()] },
                    { label: t('上月'), value: [dayjs().subtract(1, 'month').startOf('month'), dayjs().subtract(1, 'month').endOf('month')] },
                    { label: t('近30天'), value: [dayjs().subtract(29, 'day'), dayjs()] },
                    { label: t('本年'), value: [dayjs().startOf('year'), dayjs()] },
                  ]}
                  onChange={(v) => v?.[0] && v[1] && setDraft((d) => ({ ...d, start: v[0]!.format('YYYY-MM-DD'), end: v[1]!.format('YYYY-MM-DD') }))} />
              </Form.Item>
            </Col>
            {reads.includes('granularity') && (
              <Col xs={12} md={6} xl={2}>
                <Form.Item label={t('统计粒度')}>
                  <Segmented aria-label={t('统计粒度')} value={draft.granularity} data-testid="report-granularity"
                    options={[{ value: 'day', label: t('按日') }, { value: 'month', label: t('按月') }]}
                    onChange={(v) => setDraft((d) => ({ ...d, granularity: v as 'day' | 'month' }))} />
                </Form.Item>
              </Col>
            )}
            {reads.includes('currency') && (
              <Col xs={12} md={6} xl={2}>
                <Form.Item label={t('币种')} htmlFor="report-currency">
                  <Select id="report-currency" value={draft.currency ?? undefined} allowClear placeholder={t('全部')} loading={currencies.isLoading} options={currencies.data ?? []} data-testid="report-currency"
                    onChange={(v: string | undefined) => setDraft((d) => ({ ...d, currency: v ?? null }))} />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Space wrap>
            <Button type="primary" disabled={!!problem} onClick={() => setShown({ ...draft })} data-testid="report-preview-button">{t('预览')}</Button>
            <Button disabled={!!problem} loading={exporting === 'xlsx'} onClick={() => exportFile('xlsx')} data-testid="report-export-xlsx">{t('导出 Excel')}</Button>
            <Button disabled={!!problem} loading={exporting === 'pdf'} onClick={() => exportFile('pdf')} data-testid="report-export-pdf">{t('导出 PDF')}</Button>
            {problem && <Typography.Text type="secondary">{problem}</Typography.Text>}
          </Space>
        </Form>
      </Card>
      {preview.isError && <Alert type="error" showIcon message={t('报表生成失败')} />}
      {shown && preview.data ? <PreviewView params={shown} data={preview.data} /> : shown && preview.isFetching ? <Card loading /> : !shown && <Card size="small"><Empty description={t('选择模板、站点和统计周期后预览报表')} /></Card>}
      <ExportList />
    </Space>
  );
}
