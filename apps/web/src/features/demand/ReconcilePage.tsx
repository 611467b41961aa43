import { EditOutlined } from '@ant-design/icons';
import {
  DEMAND_RECONCILE_STATE_LABELS, DEMAND_RECONCILE_STATES, demandEndpoints, type DemandReconcileRecord, type DemandReconcileState,
} from '@ess/contract/demand';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatDateTime, formatNumber } from '../../components/number-format.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { demandKeys } from './demand.keys.ts';
import { billBody, money, signedKw, type BillValues } from './demand.model.ts';
import { Figure, Figures, LoadError } from './parts.tsx';
import { ToneTag, type Tone } from '../../components/ToneTag.tsx';

const STATE_TONES: Record<DemandReconcileState, Tone> = { matched: 'success', mismatched: 'error', incomplete: 'warning' };
const num = (v: number | null) => (v === null ? '-' : formatNumber(v));

interface Filters {
  siteId?: number;
  months?: [Dayjs, Dayjs] | null;
  state?: DemandReconcileState;
}

/** The request filters of the reconciliation (station, month range, state). */
export function reconcileFilter(f: Filters): Record<string, unknown> {
  return {
    ...(f.siteId ? { siteId: f.siteId } : {}),
    ...(f.months?.[0] ? { monthFrom: f.months[0].format('YYYY-MM') } : {}),
    ...(f.months?.[1] ? { monthTo: f.months[1].format('YYYY-MM') } : {}),
    ...(f.state ? { state: f.state } : {}),
  };
}

/** A difference to the console's figure, red with a warning when beyond the tolerance. */
function Diff({ v, flagged, testId }: { v: number | null; flagged: boolean; testId: string }) {
  const t = useT();
  if (v === null) return <span>-</span>;
  return flagged ? (
    <Tooltip title={t('差异超出容差')}>
      <ToneTag tone="error" testId={testId}>{`${signedKw(v)} kW`}</ToneTag>
    </Tooltip>
  ) : (
    <span data-testid={testId}>{`${signedKw(v)} kW`}</span>
  );
}

/** Enter or correct the utility bill's maximum demand of a station-month. */
export function BillModal({ row, onClose }: { row: DemandReconcileRecord; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<BillValues>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const v = form.getFieldsValue();
    const out = billBody(row, v);
    if (!out.ok) {
      form.setFields([{ name: (out.field === 'note' ? 'note' : 'billMaxKw'), errors: [t(out.issue)] }]);
      return;
    }
    setBusy(true);
    try {
      await call(demandEndpoints.reconcileEdit, out.body as never);
      void message.success(t('保存成功'));
      await qc.invalidateQueries({ queryKey: demandKeys.reconcile });
      onClose();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('录入账单需量')}
      okText={t('保存')}
      cancelText={t('取消')}
      confirmLoading={busy}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ ...({ 'data-testid': 'bill-ok' } as Record<string, string>) }}
    >
      <Typography.Paragraph type="secondary">{`${row.siteName} · ${row.month}`}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ billMaxKw: row.billMaxKw, note: row.billNote }} data-testid="bill-form">
        <Form.Item name="billMaxKw" label={t('账单最大需量 (kW)')} extra={t('清空即删除账单数据')}>
          <InputNumber style={{ width: '100%' }} data-testid="bill-kw" />
        </Form.Item>
        <Form.Item name="note" label={t('备注')}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /demand/reconcile: each station-month's maximum demand three ways — the console's (from the
 * 15-minute windows), the main meter's max-demand register, the utility bill's (entered here) —
 * with the differences beyond the tolerance flagged, and the counts over the filter.
 */
export function ReconcilePage() {
  const t = useT();
  const canEdit = useCan(demandEndpoints.reconcileEdit);
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [editing, setEditing] = useState<DemandReconcileRecord | null>(null);
  const header = useQuery({
    queryKey: demandKeys.reconcileHeader(filters),
    queryFn: () => call(demandEndpoints.reconcileHeader, filters, { loading: false }),
    placeholderData: keepPreviousData,
  });
  const body = { ...filters, current: page.current, pageSize: page.pageSize };
  const list = useQuery({
    queryKey: demandKeys.reconcilePage(body),
    queryFn: () => call(demandEndpoints.reconcilePage, body, { loading: false }),
    placeholderData: keepPreviousData,
  });
  const h = header.data;
  const search = () => {
    setFilters(reconcileFilter(form.getFieldsValue()));
    setPage((p) => ({ ...p, current: 1 }));
  };
  const columns: TableColumnsType<DemandReconcileRecord> = [
    { key: 'month', title: t('月份'), width: 90, fixed: 'left', dataIndex: 'month' },
    { key: 'site', title: t('站点'), width: 140, ellipsis: true, dataIndex: 'siteName' },
    {
      key: 'console', title: t('平台最大需量 (kW)'), width: 150, align: 'right',
      render: (_, r) => <Tooltip title={r.consoleMaxTime ? formatDateTime(r.consoleMaxTime) : undefined}>{num(r.consoleMaxKw)}</Tooltip>,
    },
    {
      key: 'meter', title: t('电表需量寄存器 (kW)'), width: 170, align: 'right',
      render: (_, r) => <Tooltip title={r.meterMaxTime ? formatDateTime(r.meterMaxTime) : undefined}>{num(r.meterMaxKw)}</Tooltip>,
    },
    { key: 'meterDiff', title: t('电表差异'), width: 120, align: 'right', render: (_, r) => <Diff v={r.meterDiffKw} flagged={r.meterFlagged} testId="meter-diff" /> },
    { key: 'bill', title: t('账单需量 (kW)'), width: 130, align: 'right', render: (_, r) => (r.billMaxKw === null ? <Typography.Text type="secondary">{t('未录入')}</Typography.Text> : num(r.billMaxKw)) },
    { key: 'billDiff', title: t('账单差异'), width: 120, align: 'right', render: (_, r) => <Diff v={r.billDiffKw} flagged={r.billFlagged} testId="bill-diff" /> },
    { key: 'state', title: t('状态'), width: 100, render: (_, r) => <ToneTag tone={STATE_TONES[r.state]}>{t(DEMAND_RECONCILE_STATE_LABELS[r.state])}</ToneTag> },
    { key: 'consoleCharge', title: t('平台需量电费'), width: 140, align: 'right', render: (_, r) => money(r.consoleCharge, r.currency) },
    { key: 'billCharge', title: t('账单需量电费'), width: 140, align: 'right', render: (_, r) => money(r.billCharge, r.currency) },
    { key: 'note', title: t('备注'), width: 160, ellipsis: true, render: (_, r) => r.billNote ?? '' },
    ...(canEdit
      ? [{
          key: 'actions', title: t('操作'), width: 110,
          render: (_: unknown, r: DemandReconcileRecord) => (
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(r)} data-testid="bill-edit">{t('录入账单')}</Button>
          ),
        }]
      : []),
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="demand-reconcile">
      <Card size="small">
        <Form form={form} layout="inline" style={{ rowGap: 12 }} onFinish={search}>
          <Form.Item name="siteId" label={t('站点')} htmlFor="reconcile-site">
            <StationPicker id="reconcile-site" value={undefined} onChange={(id) => form.setFieldValue('siteId', id)} onClear={() => form.setFieldValue('siteId', undefined)} width={200} />
          </Form.Item>
          <Form.Item name="months" label={t('月份')}>
            <DatePicker.RangePicker picker="month" aria-label={t('月份')} disabledDate={(d) => d.isAfter(dayjs().endOf('month'))} />
          </Form.Item>
          <Form.Item name="state" label={t('状态')}>
            <Select
              aria-label={t('状态')}
              allowClear
              style={{ width: 140 }}
              placeholder={t('全部')}
              options={DEMAND_RECONCILE_STATES.map((s) => ({ value: s, label: t(DEMAND_RECONCILE_STATE_LABELS[s]) }))}
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" data-testid="reconcile-search">{t('查询')}</Button>
              <Button onClick={() => { form.resetFields(); search(); }}>{t('重置')}</Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <LoadError error={header.error ?? list.error} />
      <Card size="small" loading={!h && header.isFetching} data-testid="reconcile-header">
        {h && (
          <Figures>
            <Figure title={t('站点月份')} value={String(h.total)} />
            <Figure title={t('一致')} value={String(h.matched)} />
            <Figure title={t('不一致')} value={String(h.mismatched)} danger={h.mismatched > 0} testId="reconcile-mismatched" />
            <Figure title={t('待补录')} value={String(h.incomplete)} />
          </Figures>
        )}
        {/* Money per currency (stations bill in their own), never added across currencies. */}
        {(h?.charges ?? []).map((c) => (
          <div key={c.currency} style={{ marginTop: 16 }} data-testid="reconcile-charges" data-currency={c.currency}>
            <Figures>
              <Figure title={t('平台需量电费')} value={money(c.consoleCharge, c.currency)} />
              <Figure title={t('账单需量电费')} value={money(c.billCharge, c.currency)} />
            </Figures>
          </div>
        ))}
        {h && (
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
            {t('容差：平台需量的 $1% 或 $2 kW，取较大者', h.tolerancePercent, h.toleranceMinKw)}
          </Typography.Text>
        )}
      </Card>
      <Card size="small">
        <Table<DemandReconcileRecord>
          rowKey={(r) => `${r.siteId}-${r.month}`}
          size="small"
          data-testid="reconcile-table"
          loading={list.isFetching}
          dataSource={list.data?.records ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('没有需量对账数据') }}
          pagination={{ current: page.current, pageSize: page.pageSize, total: list.data?.total ?? 0, showSizeChanger: true, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
        />
      </Card>
      {editing && <BillModal row={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}
