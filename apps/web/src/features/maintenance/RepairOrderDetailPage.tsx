import { AimOutlined, CheckCircleOutlined, EnvironmentOutlined, MinusCircleOutlined, PlusOutlined, ToolOutlined, UserAddOutlined } from '@ant-design/icons';
import { alarmEndpoints } from '@ess/contract/alarm';
import {
  maintenanceEndpoints, REPAIR_ACTION_LABELS, REPAIR_STATE_LABELS, repairHandle, repairMachine, type RepairAction, type RepairDetail, type SourceAction,
} from '@ess/contract/maintenance';
import { monitorEndpoints } from '@ess/contract/monitor';
import { canTransition } from '@ess/contract/state-machine';
import { App, Button, Card, Col, DatePicker, Descriptions, Form, Input, InputNumber, Radio, Result, Row, Space, Spin, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EChart } from '../../components/chart/EChart.tsx';
import { timeChartOption } from '../../components/chart/chart-options.ts';
import { formatDateTime, StatusBadge } from '../../components/crud/index.ts';
import { LevelTag } from '../../components/LevelTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { ActionModal, AssignModal } from './actions.tsx';
import { useAlarmStateRefresh, useMaintRefresh, useRepairOrder } from './maintenance.api.ts';
import { REPAIR_SOURCE_OPTIONS, REPAIR_STATE_OPTIONS, SOURCE_ACTION_OPTIONS } from './maintenance.options.ts';
import { PhotoGallery, PhotoUpload } from './PhotoUpload.tsx';
import { AlarmState } from './repair.resource.tsx';
import { StateTimeline } from './StateTimeline.tsx';
import { idParam } from './WorkOrderDetailPage.tsx';

type Offered = Exclude<RepairAction, 'reject' | 'close'>;

/**
 * The actions the detail offers: dispatch (to be dispatched), check-in and handling (processing,
 * for its repairer), acceptance (to be accepted: accept or reject) — each only where the state,
 * the caller's role toward the order and the caller's permission allow. Repair orders have no
 * close call (decision 0045).
 */
export function repairActions(o: Pick<RepairDetail, 'status' | 'roles'>, can: Record<'allocate' | 'checkIn' | 'handle' | 'accept', boolean>): Offered[] {
  return (['allocate', 'checkIn', 'handle', 'accept'] as const).filter((a) => can[a] && canTransition(repairMachine, o.status, a, o.roles));
}

interface HandleValues {
  workDone: string;
  parts?: { name: string; model?: string; quantity: number; unit?: string }[];
  photos?: string[];
  startAt: Dayjs;
  endAt: Dayjs;
  note?: string;
}

/** The handle request, checked with the contract (end after start, parts, note) before it is sent. */
export function repairHandleBody(id: number, v: HandleValues): { ok: true; body: Record<string, unknown> } | { ok: false; issue: string } {
  const body = {
    id,
    workDone: v.workDone,
    parts: (v.parts ?? []).map((p) => ({ name: p.name, model: p.model ?? null, quantity: p.quantity, unit: p.unit ?? null })),
    photos: v.photos ?? [],
    startAt: v.startAt?.valueOf(),
    endAt: v.endAt?.valueOf(),
    note: v.note ?? null,
  };
  const checked = repairHandle.safeParse(body);
  return checked.success ? { ok: true, body } : { ok: false, issue: checked.error.issues[0]!.message };
}

function HandleModal({ order, onClose }: { order: RepairDetail; onClose: () => void }) {
  const t = useT();
  const refresh = useMaintRefresh();
  const [issue, setIssue] = useState<string | null>(null);
  const start = order.workStartAt ?? order.checkInAt;
  return (
    <ActionModal<HandleValues>
      title={t('处理维修工单 $1', order.no)}
      okText={t('提交验收')}
      onClose={onClose}
      testId="repair-handle-form"
      initialValues={{ startAt: start ? dayjs(start) : dayjs().subtract(1, 'hour'), endAt: dayjs(), parts: [], photos: [] }}
      submit={async (v) => {
        const checked = repairHandleBody(order.id, v);
        if (!checked.ok) {
          setIssue(t(checked.issue));
          throw new Error(checked.issue);
        }
        setIssue(null);
        await call(maintenanceEndpoints.repairHandle, checked.body as never);
        await refresh();
      }}
    >
      <Form.Item name="workDone" label={t('处理内容')} rules={[{ required: true, whitespace: true, message: t('$1不能为空', t('处理内容')) }]}>
        <Input.TextArea maxLength={500} showCount autoSize={{ minRows: 3, maxRows: 6 }} />
      </Form.Item>
      <Row gutter={8}>
        <Col xs={24} sm={12}>
          <Form.Item name="startAt" label={t('开始时间')} rules={[{ required: true, message: t('$1不能为空', t('开始时间')) }]}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="endAt" label={t('结束时间')} rules={[{ required: true, message: t('$1不能为空', t('结束时间')) }]}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.List name="parts">
        {(fields, { add, remove }) => (
          <Form.Item label={t('更换备件')}>
            {fields.map((f) => (
              <Space key={f.key} align="baseline" wrap className="ess-part-row">
                <Form.Item name={[f.name, 'name']} rules={[{ required: true, message: t('$1不能为空', t('备件名称')) }]} noStyle>
                  <Input placeholder={t('备件名称')} aria-label={t('备件名称')} maxLength={64} />
                </Form.Item>
                <Form.Item name={[f.name, 'model']} noStyle>
                  <Input placeholder={t('型号')} aria-label={t('型号')} maxLength={64} style={{ width: 120 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'quantity']} rules={[{ required: true, message: t('$1不能为空', t('数量')) }]} noStyle>
                  <InputNumber placeholder={t('数量')} aria-label={t('数量')} min={0.001} style={{ width: 90 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'unit']} noStyle>
                  <Input placeholder={t('单位')} aria-label={t('单位')} maxLength={16} style={{ width: 70 }} />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('删除备件')} onClick={() => remove(f.name)} />
              </Space>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })}>
              {t('添加备件')}
            </Button>
          </Form.Item>
        )}
      </Form.List>
      <Form.Item name="photos" label={t('处理照片')}>
        <PhotoUpload />
      </Form.Item>
      {issue && <Typography.Text type="danger" data-testid="repair-handle-issue">{issue}</Typography.Text>}
    </ActionModal>
  );
}

function CheckInModal({ order, onClose }: { order: RepairDetail; onClose: () => void }) {
  const t = useT();
  const refresh = useMaintRefresh();
  const [where, setWhere] = useState<{ longitude: number; latitude: number } | null>(null);
  const [locating, setLocating] = useState(false);
  const locate = () => {
    if (!navigator.geolocation) return;
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setWhere({ longitude: Number(p.coords.longitude.toFixed(6)), latitude: Number(p.coords.latitude.toFixed(6)) });
        setLocating(false);
      },
      () => setLocating(false),
      { timeout: 10_000 },
    );
  };
  return (
    <ActionModal<{ address?: string; note?: string }>
      title={t('到场签到 $1', order.no)}
      okText={t('签到')}
      onClose={onClose}
      testId="repair-checkin-form"
      submit={async (v) => {
        await call(maintenanceEndpoints.repairCheckIn, {
          id: order.id, longitude: where?.longitude ?? null, latitude: where?.latitude ?? null, address: v.address ?? null, note: v.note ?? null,
        });
        await refresh();
      }}
    >
      <Typography.Paragraph type="secondary">{t('签到记录当前时间；位置可不填。')}</Typography.Paragraph>
      <Space wrap className="ess-checkin-location">
        <Button icon={<AimOutlined />} loading={locating} onClick={locate}>
          {t('获取当前位置')}
        </Button>
        {where && <Typography.Text>{`${where.latitude}, ${where.longitude}`}</Typography.Text>}
      </Space>
      <Form.Item name="address" label={t('地址')}>
        <Input maxLength={256} />
      </Form.Item>
    </ActionModal>
  );
}

function AcceptModal({ order, onClose }: { order: RepairDetail; onClose: () => void }) {
  const t = useT();
  const refresh = useMaintRefresh();
  const { message } = App.useApp();
  const canShield = useCan(alarmEndpoints.createShield);
  const canReset = useCan(monitorEndpoints.faultRecover);
  const sourceOptions = SOURCE_ACTION_OPTIONS.filter((o) => o.value === 'none' || (o.value === 'shield' ? canShield : canReset && order.deviceId !== null));
  return (
    <ActionModal<{ pass: boolean; reason?: string; sourceAction?: SourceAction; password?: string; note?: string }>
      title={t('验收维修工单 $1', order.no)}
      okText={t('确定')}
      onClose={onClose}
      testId="repair-accept-form"
      initialValues={{ pass: true, sourceAction: 'none' }}
      submit={async (v) => {
        const reason = v.reason?.trim() ? v.reason : v.note?.trim() ? v.note : null;
        const sourceAction = order.alarmId !== null && v.pass ? (v.sourceAction ?? 'none') : undefined;
        // A reset is a critical command: the secondary password is checked before anything is accepted.
        if (sourceAction === 'reset' && order.deviceId !== null && v.password) await call(monitorEndpoints.checkPassword, { deviceId: order.deviceId, password: v.password });
        await call(maintenanceEndpoints.repairAcceptance, { id: order.id, pass: v.pass, reason, ...(sourceAction ? { sourceAction } : {}) });
        if (sourceAction === 'shield' && order.alarmId !== null) {
          await call(alarmEndpoints.createShield, { alarmId: order.alarmId, end: Date.now() + 24 * 3_600_000, remark: order.no });
          void message.success(t('已屏蔽告警源24小时'));
        }
        if (sourceAction === 'reset' && order.deviceId !== null) {
          await call(monitorEndpoints.faultRecover, { deviceId: order.deviceId });
          void message.success(t('已发送复位指令'));
        }
        await refresh();
      }}
    >
      <Form.Item name="pass" label={t('验收结果')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={[
            { value: true, label: t(REPAIR_ACTION_LABELS.accept) },
            { value: false, label: t(REPAIR_ACTION_LABELS.reject) },
          ]}
        />
      </Form.Item>
      <Form.Item
        noStyle
        shouldUpdate={(a: { pass?: boolean; sourceAction?: SourceAction }, b: { pass?: boolean; sourceAction?: SourceAction }) => a.pass !== b.pass || a.sourceAction !== b.sourceAction}
      >
        {({ getFieldValue }) =>
          getFieldValue('pass') === false ? (
            <Form.Item
              name="reason"
              label={t('驳回原因')}
              extra={t('驳回后工单退回维修人重新处理')}
              rules={[{ required: true, whitespace: true, message: t('驳回时须填写原因') }, { max: 200, message: t('备注不能超过$1个字符', 200) }]}
            >
              <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
            </Form.Item>
          ) : order.alarmId !== null ? (
            <>
              <Form.Item name="sourceAction" label={t('告警源处理')} extra={t('维修完成后，可屏蔽或复位产生告警的设备故障')}>
                <Radio.Group options={sourceOptions.map((o) => ({ value: o.value as string, label: t(o.label) }))} />
              </Form.Item>
              {getFieldValue('sourceAction') === 'reset' && (
                <Form.Item name="password" label={t('二级密码')} extra={t('请输入您的登录密码')} rules={[{ required: true, message: t('二级密码不能为空') }]}>
                  <Input.Password autoComplete="current-password" data-testid="secondary-password" />
                </Form.Item>
              )}
            </>
          ) : null
        }
      </Form.Item>
    </ActionModal>
  );
}

/**
 * /repair/order-detail?id=…: one repair order — its state timeline, the device, the source alarm's
 * state live and the telemetry of the hour before it, the repairer's check-in and work (parts,
 * photos, start and end) — and only the actions the state and the caller allow.
 */
export function RepairOrderDetailPage() {
  const t = useT();
  const [search] = useSearchParams();
  const id = idParam(search);
  const order = useRepairOrder(id);
  useAlarmStateRefresh(id);
  const refresh = useMaintRefresh();
  const can = {
    allocate: useCan(maintenanceEndpoints.repairAllocation),
    checkIn: useCan(maintenanceEndpoints.repairCheckIn),
    handle: useCan(maintenanceEndpoints.repairHandle),
    accept: useCan(maintenanceEndpoints.repairAcceptance),
  };
  const [open, setOpen] = useState<Offered | null>(null);
  const o = order.data;
  const snapshot = useMemo(() => {
    const s = o?.telemetrySnapshot;
    // The series that have values, at most six (one axis per unit).
    const series = (s?.series ?? []).filter((x) => x.points.some((p) => p[1] !== null)).slice(0, 6);
    if (!s || !series.length) return null;
    return timeChartOption(
      series.map((x) => ({ key: x.identifier, name: t(x.name), unit: x.unit ?? '', points: x.points })),
      { zoom: false, min: Date.parse(s.from), max: Date.parse(s.to), emptyText: t('没有遥测数据') },
    );
  }, [o, t]);

  if (id === null) return <Result status="warning" title={t('缺少工单编号')} />;
  if (order.isError) return <Result status="error" title={t('工单加载失败')} subTitle={order.error.message} />;
  if (!o) return <Spin style={{ display: 'block', margin: '64px auto' }} />;

  const actions = repairActions(o, can);
  const icons: Record<Offered, React.ReactNode> = {
    allocate: <UserAddOutlined />, checkIn: <EnvironmentOutlined />, handle: <ToolOutlined />, accept: <CheckCircleOutlined />,
  };
  const labels: Record<Offered, string> = { allocate: '派单', checkIn: '签到', handle: '处理', accept: '验收' };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="repair-detail">
      <Card
        size="small"
        title={
          <Space wrap>
            <span data-testid="repair-no">{o.no}</span>
            <StatusBadge options={REPAIR_STATE_OPTIONS} value={o.status} t={t} />
            <LevelTag level={o.level} />
            {o.overdue && <Tag color="error">{t('已逾期')}</Tag>}
          </Space>
        }
        extra={
          <Space wrap>
            {actions.map((a) => (
              <Button key={a} type={a === 'accept' || a === 'handle' || a === 'checkIn' ? 'primary' : 'default'} icon={icons[a]} data-testid={`repair-${a}`} onClick={() => setOpen(a)}>
                {t(labels[a])}
              </Button>
            ))}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('工单标题')}>{t(o.title)}</Descriptions.Item>
          <Descriptions.Item label={t('来源')}>
            <StatusBadge options={REPAIR_SOURCE_OPTIONS} value={o.source} t={t} />
          </Descriptions.Item>
          <Descriptions.Item label={t('站点')}>{o.siteName}</Descriptions.Item>
          <Descriptions.Item label={t('设备')}>{o.deviceName ? `${o.deviceName} (${o.deviceCode})` : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('维修人')}>{o.assigneeName ?? t('待派单')}</Descriptions.Item>
          <Descriptions.Item label={t('截止时间')}>{o.dueAt ? formatDateTime(o.dueAt) : '-'}</Descriptions.Item>
          {o.defectId !== null && (
            <Descriptions.Item label={t('关联缺陷')}>
              <Link to={`/patrol/flaw?no=${o.defectNo}`}>{o.defectNo}</Link>
            </Descriptions.Item>
          )}
          {o.alarmId !== null && (
            <Descriptions.Item label={t('关联告警')} span={2}>
              <AlarmState r={o} t={t} />
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('故障描述')} span={3}>
            {o.description ? t(o.description) : '-'}
          </Descriptions.Item>
          {o.lastRejectReason && o.status === 'processing' && (
            <Descriptions.Item label={t('驳回原因')} span={3}>
              <Typography.Text type="danger" data-testid="reject-reason">{o.lastRejectReason}</Typography.Text>
            </Descriptions.Item>
          )}
        </Descriptions>
        {o.photos.length > 0 && <PhotoGallery photos={o.photos.map((p) => p.suffix)} />}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card size="small" title={t('维修记录')} data-testid="repair-work">
              <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
                <Descriptions.Item label={t('签到时间')}>{o.checkInAt ? formatDateTime(o.checkInAt) : '-'}</Descriptions.Item>
                <Descriptions.Item label={t('签到位置')}>
                  {o.checkInLocation
                    ? o.checkInLocation.address ?? `${o.checkInLocation.latitude ?? ''}, ${o.checkInLocation.longitude ?? ''}`
                    : '-'}
                </Descriptions.Item>
                <Descriptions.Item label={t('开始时间')}>{o.workStartAt ? formatDateTime(o.workStartAt) : '-'}</Descriptions.Item>
                <Descriptions.Item label={t('结束时间')}>{o.workEndAt ? formatDateTime(o.workEndAt) : '-'}</Descriptions.Item>
                <Descriptions.Item label={t('处理内容')} span={2}>
                  {o.workDone ?? '-'}
                </Descriptions.Item>
                <Descriptions.Item label={t('更换备件')} span={2}>
                  {o.parts.length ? o.parts.map((p) => `${p.name}${p.model ? ` ${p.model}` : ''} × ${p.quantity}${p.unit ?? ''}`).join('; ') : '-'}
                </Descriptions.Item>
                {o.completedAt && <Descriptions.Item label={t('完成时间')}>{formatDateTime(o.completedAt)}</Descriptions.Item>}
                {o.rejectCount > 0 && <Descriptions.Item label={t('驳回次数')}>{o.rejectCount}</Descriptions.Item>}
              </Descriptions>
              {o.handlePhotos.length > 0 && <PhotoGallery photos={o.handlePhotos.map((p) => p.suffix)} />}
            </Card>
            {snapshot && (
              <Card size="small" title={t('告警前一小时遥测')}>
                <EChart option={snapshot} height={280} label={t('告警前一小时遥测')} testId="repair-snapshot" />
              </Card>
            )}
          </Space>
        </Col>
        <Col xs={24} xl={8}>
          <Card size="small" title={t('状态记录')}>
            <StateTimeline log={o.timeline} stateLabels={REPAIR_STATE_LABELS} actionLabels={REPAIR_ACTION_LABELS} />
          </Card>
        </Col>
      </Row>
      {open === 'allocate' && (
        <AssignModal
          title={t('派单 $1', o.no)}
          onClose={() => setOpen(null)}
          submit={async (v) => {
            await call(maintenanceEndpoints.repairAllocation, { id: o.id, assigneeId: v.assigneeId, note: v.note ?? null });
            await refresh();
          }}
        />
      )}
      {open === 'checkIn' && <CheckInModal order={o} onClose={() => setOpen(null)} />}
      {open === 'handle' && <HandleModal order={o} onClose={() => setOpen(null)} />}
      {open === 'accept' && <AcceptModal order={o} onClose={() => setOpen(null)} />}
    </Space>
  );
}
