import { EyeOutlined, SyncOutlined } from '@ant-design/icons';
import {
  registerLabel, REMETER_HINT, reMeterBody, SUBSYSTEM_ENDPOINTS, type MeterSegment, type PeriodReadingDetail, type PeriodReadingRecord, type PeriodRegisterLine,
  type ReadingSubsystem,
} from '@ess/contract/meter-reading';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Drawer, Form, Grid, Modal, Select, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { formatDateTime, ResourceTable, useOptionSource, type Translate } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { meteringKeys } from './metering.keys.ts';
import { meterSourceOf } from './metering.options.ts';
import { QualityTag, QualityTags } from './quality.tsx';
import { kwh } from './registers.tsx';
import { ReMeterButton, TaskCell, useReMeter } from './remeter.tsx';
import { periodText, SUBSYSTEM_PURPOSE, SUBSYSTEM_RESOURCES } from './subsystem.resource.tsx';

/** The re-meter request of a meter and a range of station-local dates, checked with the contract; or what is wrong. */
export function reMeterRequest(deviceId: number | null, range: [Dayjs, Dayjs] | null): { ok: true; body: { deviceId: number; periodStart: string; periodEnd: string } } | { ok: false; issue: string } {
  if (!deviceId) return { ok: false, issue: '请选择电表' };
  if (!range) return { ok: false, issue: '请选择抄表周期' };
  const body = { deviceId, periodStart: range[0].format('YYYY-MM-DD'), periodEnd: range[1].format('YYYY-MM-DD') };
  const checked = reMeterBody.safeParse(body);
  return checked.success ? { ok: true, body } : { ok: false, issue: checked.error.issues[0]!.message };
}

/** Re-meter any meter and period (also one without a reading yet): the meter, the dates, then the same rules as a row's button. */
function ReMeterModal({ subsystem, reMeter, onClose }: { subsystem: ReadingSubsystem; reMeter: ReturnType<typeof useReMeter>; onClose: () => void }) {
  const t = useT();
  const meters = useOptionSource(meterSourceOf(null, SUBSYSTEM_PURPOSE[subsystem]));
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => {
    const last = dayjs().subtract(1, 'month');
    return [last.startOf('month'), last.endOf('month')];
  });
  const out = reMeterRequest(deviceId, range);
  const blocked = out.ok && reMeter.blocked({ ...out.body, task: null });
  return (
    <Modal
      open
      title={t('重新抄表')}
      okText={t('确定')}
      cancelText={t('取消')}
      okButtonProps={{ disabled: !out.ok || blocked, ...({ 'data-testid': 'remeter-form-ok' } as Record<string, string>) }}
      onOk={() => {
        if (!out.ok) return;
        void reMeter.request(out.body);
        onClose();
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={t(REMETER_HINT)} style={{ marginBottom: 16 }} />
      <Form layout="vertical">
        <Form.Item label={t('电表')} required>
          <Select
            showSearch
            optionFilterProp="label"
            options={meters.data ?? []}
            loading={meters.isLoading}
            value={deviceId ?? undefined}
            onChange={(v: number) => setDeviceId(v)}
            placeholder={t('请选择电表')}
            data-testid="remeter-meter"
          />
        </Form.Item>
        <Form.Item label={t('抄表周期')} required validateStatus={deviceId && !out.ok ? 'error' : undefined} help={deviceId && !out.ok ? t(out.issue) : undefined}>
          <DatePicker.RangePicker
            value={range}
            onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            disabledDate={(d) => d.isAfter(dayjs().subtract(1, 'day').endOf('day'))}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Money as the server gives it (decimal text, to the cent) with the currency; '-' without a price. */
export const moneyText = (amount: string | null | undefined, currency?: string | null) => (amount === null || amount === undefined ? '-' : currency ? `${amount} ${currency}` : amount);

/** The registers side by side: start, end, difference, price, amount, with each register's flags. */
export function registerLineColumns(t: Translate, currency: string | null): TableColumnsType<PeriodRegisterLine> {
  return [
    { key: 'register', title: t('寄存器'), width: 190, fixed: 'left', render: (_, l) => t(registerLabel(l.register)) },
    { key: 'start', title: t('起始读数 (kWh)'), width: 130, align: 'right', render: (_, l) => kwh(l.start) },
    { key: 'end', title: t('结束读数 (kWh)'), width: 130, align: 'right', render: (_, l) => kwh(l.end) },
    { key: 'difference', title: t('电量差 (kWh)'), width: 120, align: 'right', render: (_, l) => kwh(l.difference) },
    {
      key: 'price', title: currency ? t('电价 ($1/kWh)', currency) : t('电价'), width: 130, align: 'right',
      render: (_, l) => (l.price === null ? '-' : l.priceChanged ? `${l.price} *` : l.price),
    },
    { key: 'amount', title: currency ? t('金额 ($1)', currency) : t('金额'), width: 120, align: 'right', render: (_, l) => moneyText(l.amount) },
    { key: 'flags', title: t('数据质量'), width: 200, render: (_, l) => <QualityTags flags={l.flags} t={t} /> },
  ];
}

function SegmentTable({ segments, t }: { segments: MeterSegment[]; t: Translate }) {
  return (
    <Table<MeterSegment>
      size="small"
      rowKey={(s) => `${s.code}-${s.startAt}`}
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={segments}
      data-testid="period-segments"
      columns={[
        { key: 'code', title: t('表计编号'), dataIndex: 'code', width: 140 },
        { key: 'from', title: t('开始时间'), width: 170, render: (_, s) => formatDateTime(s.startAt) },
        { key: 'to', title: t('结束时间'), width: 170, render: (_, s) => formatDateTime(s.endAt) },
        { key: 'fwd', title: t('正向电量 (kWh)'), width: 130, align: 'right', render: (_, s) => kwh(s.difference.forwardActiveEnergy) },
        { key: 'rev', title: t('反向电量 (kWh)'), width: 130, align: 'right', render: (_, s) => kwh(s.difference.reverseActiveEnergy) },
      ]}
    />
  );
}

/** The period detail: what was read, the registers side by side, the meter's segments across a replacement, the days it is built from. */
export function PeriodDetail({ detail, t, action }: { detail: PeriodReadingDetail; t: Translate; action?: React.ReactNode }) {
  const columns = useMemo(() => registerLineColumns(t, detail.currency), [t, detail.currency]);
  const changed = detail.lines.some((l) => l.priceChanged);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="period-detail">
      <Descriptions size="small" bordered column={{ xs: 1, sm: 1, md: 2 }}>
        <Descriptions.Item label={t('站点')}>{detail.siteName}</Descriptions.Item>
        <Descriptions.Item label={t('电表')}>{`${detail.deviceName} (${detail.deviceCode})`}</Descriptions.Item>
        <Descriptions.Item label={t('抄表周期')}>{periodText(detail)}</Descriptions.Item>
        <Descriptions.Item label={t('时区')}>{detail.timeZone}</Descriptions.Item>
        <Descriptions.Item label={t('数据质量')}>
          <QualityTag flag={detail.quality} t={t} />
        </Descriptions.Item>
        <Descriptions.Item label={t('抄表时间')}>{formatDateTime(detail.readAt)}</Descriptions.Item>
        <Descriptions.Item label={t('合计金额')}>
          <Typography.Text strong data-testid="period-amount">{moneyText(detail.amount, detail.currency)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('重抄任务')}>
          <Space wrap>
            <TaskCell task={detail.task} subsystem={detail.subsystem} />
            {action}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Table<PeriodRegisterLine>
        size="small"
        rowKey="register"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={detail.lines}
        columns={columns}
        data-testid="period-lines"
      />
      {changed && <Typography.Text type="secondary">{t('* 周期内电价有变化，显示按电量加权的平均电价')}</Typography.Text>}
      {detail.segments.length > 1 && (
        <>
          <Typography.Title level={5}>{t('换表分段')}</Typography.Title>
          <SegmentTable segments={detail.segments} t={t} />
        </>
      )}
      <Typography.Title level={5}>{t('每日读数')}</Typography.Title>
      <Table
        size="small"
        rowKey="date"
        pagination={{ pageSize: 31, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        dataSource={detail.days}
        columns={[
          { key: 'date', title: t('日期'), dataIndex: 'date', width: 110 },
          { key: 'quality', title: t('数据质量'), width: 110, render: (_, d) => <QualityTag flag={d.quality} t={t} /> },
          { key: 'fwd', title: t('正向电量 (kWh)'), width: 130, align: 'right', render: (_, d) => kwh(d.difference.forwardActiveEnergy) },
          { key: 'rev', title: t('反向电量 (kWh)'), width: 130, align: 'right', render: (_, d) => kwh(d.difference.reverseActiveEnergy) },
        ]}
      />
    </Space>
  );
}

function PeriodDrawer({ subsystem, row, onClose, reMeter }: {
  subsystem: ReadingSubsystem;
  row: PeriodReadingRecord;
  onClose: () => void;
  reMeter: ReturnType<typeof useReMeter> & { can: boolean };
}) {
  const t = useT();
  const phone = Grid.useBreakpoint().md === false;
  const one = useQuery({
    queryKey: meteringKeys.period(subsystem, row.id),
    queryFn: () => call(SUBSYSTEM_ENDPOINTS[subsystem].one, { id: row.id }, { loading: false }),
  });
  const body = { deviceId: row.deviceId, periodStart: row.periodStart, periodEnd: row.periodEnd };
  return (
    <Drawer open width={phone ? '100%' : 980} title={`${row.deviceName} · ${periodText(row)}`} onClose={onClose} destroyOnHidden>
      {one.isError && <Alert type="error" showIcon message={one.error.message} />}
      {one.data ? (
        <PeriodDetail
          detail={one.data}
          t={t}
          action={reMeter.can ? <ReMeterButton body={body} blocked={reMeter.blocked({ ...body, task: one.data.task })} onConfirm={reMeter.request} type="default" /> : null}
        />
      ) : (
        !one.isError && <Spin />
      )}
    </Drawer>
  );
}

/**
 * A subsystem's reading and settlement screen: the period readings with filters, the detail with
 * every register side by side, and re-meter (slow: the user is told to look again after 5–10
 * minutes; the same meter and period cannot be asked twice while it runs).
 */
export function SubsystemReadingPage({ subsystem }: { subsystem: ReadingSubsystem }) {
  const t = useT();
  const def = SUBSYSTEM_RESOURCES[subsystem];
  const can = useCan(SUBSYSTEM_ENDPOINTS[subsystem].reMeter);
  const reMeter = useReMeter(subsystem);
  const [open, setOpen] = useState<PeriodReadingRecord | null>(null);
  const [asking, setAsking] = useState(false);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {can && <Alert type="info" showIcon message={t(REMETER_HINT)} data-testid="remeter-hint" />}
      <ResourceTable
        def={def}
        toolbar={() =>
          can
            ? [
              <Button key="remeter" icon={<SyncOutlined />} onClick={() => setAsking(true)} data-testid="remeter-open">
                {t('重新抄表')}
              </Button>,
            ]
            : []}
        rowActions={(row) => {
          const body = { deviceId: row.deviceId, periodStart: row.periodStart, periodEnd: row.periodEnd };
          return [
            <Button key="open" type="link" size="small" icon={<EyeOutlined />} onClick={() => setOpen(row)} data-testid="period-open">
              {t('详情')}
            </Button>,
            ...(can ? [<ReMeterButton key="remeter" body={body} blocked={reMeter.blocked(row)} onConfirm={reMeter.request} />] : []),
          ];
        }}
      />
      {asking && <ReMeterModal subsystem={subsystem} reMeter={reMeter} onClose={() => setAsking(false)} />}
      {open && <PeriodDrawer subsystem={subsystem} row={open} onClose={() => setOpen(null)} reMeter={{ ...reMeter, can }} />}
    </Space>
  );
}

export const StorageMeterPage = () => <SubsystemReadingPage subsystem="storage" />;
export const PvMeterPage = () => <SubsystemReadingPage subsystem="pv" />;
export const PileMeterPage = () => <SubsystemReadingPage subsystem="pile" />;
