import { CheckOutlined, CloseCircleOutlined, SaveOutlined, UserAddOutlined } from '@ant-design/icons';
import {
  CHECK_TYPE_LABELS, DEFECT_STATE_LABELS, maintenanceEndpoints, WORK_ORDER_ACTION_LABELS, WORK_ORDER_STATE_LABELS,
  workOrderMachine, type WorkOrderDetail, type WorkOrderItemRecord,
} from '@ess/contract/maintenance';
import { canTransition } from '@ess/contract/state-machine';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, InputNumber, List, Radio, Result, Row, Space, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { formatDateTime, StatusBadge } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { NoteInput, noteRule } from './actions.tsx';
import { draftsOf, handleBody, outOfRange, type ResultDraft } from './handle.ts';
import { useMaintRefresh, useOrderDefects, useWorkOrder, useWorkOrderLog } from './maintenance.api.ts';
import { ORDER_STATE_OPTIONS, RESULT_OPTIONS } from './maintenance.options.ts';
import { PhotoGallery, PhotoUpload } from './PhotoUpload.tsx';
import { StateTimeline } from './StateTimeline.tsx';
import { OrderActionModal, orderListActions } from './WorkOrderPage.tsx';

/** The positive integer id of `?id=`, or null. */
export function idParam(search: URLSearchParams): number | null {
  const raw = search.get('id');
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

const rangeText = (i: Pick<WorkOrderItemRecord, 'min' | 'max' | 'unit'>) =>
  i.min === null && i.max === null ? null : `${i.min ?? '-∞'} ~ ${i.max ?? '+∞'}${i.unit ? ` ${i.unit}` : ''}`;

/** Whether the caller may record results on the order now: the state, being its assignee, and the permission. */
export const canHandle = (o: Pick<WorkOrderDetail, 'status' | 'roles'>, allowed: boolean) => allowed && canTransition(workOrderMachine, o.status, 'handle', o.roles);

/** One item as recorded (read-only). */
function ItemResultView({ item }: { item: WorkOrderItemRecord }) {
  const t = useT();
  const result = RESULT_OPTIONS.find((o) => o.value === item.result);
  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap>
        {result ? <StatusBadge options={RESULT_OPTIONS} value={item.result} t={t} /> : <Typography.Text type="secondary">{t('未检查')}</Typography.Text>}
        {item.value !== null && (
          <Typography.Text type={item.outOfRange ? 'danger' : undefined}>
            {item.value}
            {item.unit ? ` ${item.unit}` : ''}
            {item.outOfRange ? ` (${t('超出允许范围')})` : ''}
          </Typography.Text>
        )}
        {item.checkedAt && <Typography.Text type="secondary">{formatDateTime(item.checkedAt)}</Typography.Text>}
      </Space>
      {item.text && <Typography.Paragraph>{item.text}</Typography.Paragraph>}
      {item.photos.length > 0 && <PhotoGallery photos={item.photos.map((p) => p.suffix)} />}
    </Space>
  );
}

/** The inputs of one item's result, by its check type. */
function ItemResultEditor({ item, draft, onChange, missing }: { item: WorkOrderItemRecord; draft: ResultDraft; onChange: (d: ResultDraft) => void; missing: boolean }) {
  const t = useT();
  const set = (patch: Partial<ResultDraft>) => onChange({ ...draft, ...patch });
  const out = item.checkType === 'number' && outOfRange(item, draft.value);
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid={`item-editor-${item.id}`}>
      {item.checkType !== 'number' && (
        <Radio.Group
          aria-label={t('检查结果')}
          optionType="button"
          buttonStyle="solid"
          value={draft.result}
          onChange={(e) => set({ result: e.target.value as ResultDraft['result'] })}
          options={RESULT_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))}
        />
      )}
      {item.checkType === 'number' && (
        <Space wrap>
          <InputNumber
            aria-label={t('测量值')}
            value={draft.value}
            onChange={(v) => set({ value: typeof v === 'number' ? v : null })}
            addonAfter={item.unit ?? undefined}
            status={out ? 'error' : undefined}
          />
          {out && <Typography.Text type="danger">{t('超出允许范围，将记为异常并生成缺陷')}</Typography.Text>}
        </Space>
      )}
      {(item.checkType === 'text' || draft.result === 'fail' || draft.result === 'flag' || out) && (
        <Input.TextArea
          aria-label={t('检查记录')}
          placeholder={item.checkType === 'text' ? t('检查记录') : t('异常情况说明')}
          value={draft.text ?? ''}
          maxLength={500}
          autoSize={{ minRows: 2, maxRows: 5 }}
          onChange={(e) => set({ text: e.target.value })}
        />
      )}
      <PhotoUpload value={draft.photos} onChange={(photos) => set({ photos })} />
      {draft.result === 'fail' && <Typography.Text type="warning">{t('记为异常时将自动生成缺陷记录')}</Typography.Text>}
      {missing && <Typography.Text type="danger">{t('请填写检查结果')}</Typography.Text>}
    </Space>
  );
}

/**
 * /patrol/order-detail?id=…: one inspection work order — its state and the state timeline, each
 * item with its standard and result (photos), the defects it raised, and only the actions the
 * state and the caller allow: allocation, close, and (for its assignee) recording the results
 * with photos, saved or submitted to complete it.
 */
export function WorkOrderDetailPage() {
  const t = useT();
  const { message } = App.useApp();
  const [search] = useSearchParams();
  const id = idParam(search);
  const order = useWorkOrder(id);
  const log = useWorkOrderLog(id);
  const defects = useOrderDefects(id);
  const refresh = useMaintRefresh();
  const can = {
    allocate: useCan(maintenanceEndpoints.orderAllocation),
    close: useCan(maintenanceEndpoints.orderClose),
    handle: useCan(maintenanceEndpoints.orderHandle),
  };
  const [pending, setPending] = useState<{ kind: 'allocate' | 'close'; order: WorkOrderDetail } | null>(null);
  // The results being recorded start from what the order holds, and again whenever it is read anew.
  const [edits, setEdits] = useState<{ at: number; drafts: Record<number, ResultDraft> } | null>(null);
  const [note, setNote] = useState('');
  const [issue, setIssue] = useState<{ text: string; itemId?: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const o = order.data;
  const recorded = useMemo(() => (o ? draftsOf(o.items) : {}), [o]);
  const drafts = edits && edits.at === order.dataUpdatedAt ? edits.drafts : recorded;
  const setDrafts = (f: (all: Record<number, ResultDraft>) => Record<number, ResultDraft>) => setEdits({ at: order.dataUpdatedAt, drafts: f(drafts) });

  if (id === null) return <Result status="warning" title={t('缺少工单编号')} />;
  if (order.isError) return <Result status="error" title={t('工单加载失败')} subTitle={order.error.message} />;
  if (!o) return <Spin style={{ display: 'block', margin: '64px auto' }} />;

  const handling = canHandle(o, can.handle);
  const listActions = orderListActions(o, can);
  const submit = async (complete: boolean) => {
    const checked = handleBody(o.id, o.items, drafts, complete, note.trim() ? note : null);
    if (!checked.ok) {
      setIssue({ text: t(checked.issue), itemId: checked.itemId });
      return;
    }
    setIssue(null);
    setBusy(true);
    try {
      await call(maintenanceEndpoints.orderHandle, checked.body as never);
      void message.success(complete ? t('工单已完成') : t('已保存'));
      setNote('');
      await refresh();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="order-detail">
      <Card
        size="small"
        title={
          <Space wrap>
            <span data-testid="order-no">{o.no}</span>
            <StatusBadge options={ORDER_STATE_OPTIONS} value={o.status} t={t} />
            {o.overdue && <Tag color="error">{t('已逾期')}</Tag>}
          </Space>
        }
        extra={
          <Space wrap>
            {listActions.includes('allocate') && (
              <Button icon={<UserAddOutlined />} data-testid="order-allocate" onClick={() => setPending({ kind: 'allocate', order: o })}>
                {t(WORK_ORDER_ACTION_LABELS.allocate)}
              </Button>
            )}
            {listActions.includes('close') && (
              <Button danger icon={<CloseCircleOutlined />} data-testid="order-close" onClick={() => setPending({ kind: 'close', order: o })}>
                {t(WORK_ORDER_ACTION_LABELS.close)}
              </Button>
            )}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('工单标题')}>{t(o.title)}</Descriptions.Item>
          <Descriptions.Item label={t('站点')}>{o.siteName}</Descriptions.Item>
          <Descriptions.Item label={t('巡检计划')}>{o.planName ? t(o.planName) : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('执行人')}>{o.assigneeName ?? t('待分配')}</Descriptions.Item>
          <Descriptions.Item label={t('计划开始')}>{formatDateTime(o.startAt)}</Descriptions.Item>
          <Descriptions.Item label={t('截止时间')}>{formatDateTime(o.dueAt)}</Descriptions.Item>
          <Descriptions.Item label={t('进度')}>
            {o.doneCount}/{o.itemCount}
            {o.failCount > 0 && <Typography.Text type="danger"> · {t('$1项异常', o.failCount)}</Typography.Text>}
          </Descriptions.Item>
          {o.completedAt && <Descriptions.Item label={t('完成时间')}>{formatDateTime(o.completedAt)}</Descriptions.Item>}
          {o.note && <Descriptions.Item label={t('备注')}>{o.note}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card size="small" title={t('巡检项')} data-testid="order-items">
            <List
              dataSource={o.items}
              renderItem={(item, index) => (
                <List.Item key={item.id} data-item-name={item.name}>
                  <Space direction="vertical" size={6} style={{ width: '100%' }}>
                    <Space wrap>
                      <Typography.Text strong>
                        {index + 1}. {t(item.name)}
                      </Typography.Text>
                      <Tag>{t(CHECK_TYPE_LABELS[item.checkType])}</Tag>
                      {rangeText(item) && <Typography.Text type="secondary">{t('允许范围 $1', rangeText(item))}</Typography.Text>}
                      {item.deviceName && <Typography.Text type="secondary">{item.deviceName}</Typography.Text>}
                    </Space>
                    {item.standard && <Typography.Text type="secondary">{t('标准：$1', t(item.standard))}</Typography.Text>}
                    {handling ? (
                      <ItemResultEditor
                        item={item}
                        draft={drafts[item.id] ?? { result: null, value: null, text: null, photos: [] }}
                        onChange={(d) => setDrafts((all) => ({ ...all, [item.id]: d }))}
                        missing={issue?.itemId === item.id}
                      />
                    ) : (
                      <ItemResultView item={item} />
                    )}
                  </Space>
                </List.Item>
              )}
            />
            {handling && (
              <Form layout="vertical" className="ess-handle-footer">
                <Form.Item label={t('备注')} htmlFor="handle-note" rules={[noteRule(t)]}>
                  <NoteInput id="handle-note" value={note} onChange={(e) => setNote((e as { target: { value: string } }).target.value)} />
                </Form.Item>
                {issue && <Alert type="error" showIcon message={issue.text} data-testid="handle-issue" />}
                <Space wrap>
                  <Button icon={<SaveOutlined />} loading={busy} onClick={() => void submit(false)} data-testid="handle-save">
                    {t('保存结果')}
                  </Button>
                  <Button type="primary" icon={<CheckOutlined />} loading={busy} onClick={() => void submit(true)} data-testid="handle-complete">
                    {t('提交并完成')}
                  </Button>
                </Space>
              </Form>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card size="small" title={t('状态记录')}>
              <StateTimeline log={log.data ?? []} stateLabels={WORK_ORDER_STATE_LABELS} actionLabels={WORK_ORDER_ACTION_LABELS} />
            </Card>
            <Card size="small" title={t('缺陷记录')} data-testid="order-defects">
              {(defects.data ?? []).length === 0 ? (
                <Typography.Text type="secondary">{t('无缺陷')}</Typography.Text>
              ) : (
                <List
                  size="small"
                  dataSource={defects.data}
                  renderItem={(d) => (
                    <List.Item key={d.id}>
                      <Space direction="vertical" size={0}>
                        <Link to={`/patrol/flaw?no=${d.no}`}>{d.no}</Link>
                        <Typography.Text>{t(d.description)}</Typography.Text>
                        <Typography.Text type="secondary">
                          {t(DEFECT_STATE_LABELS[d.status])}
                          {d.repairOrderId !== null && (
                            <>
                              {' · '}
                              <Link to={`/repair/order-detail?id=${d.repairOrderId}`}>{d.repairOrderNo}</Link>
                            </>
                          )}
                        </Typography.Text>
                      </Space>
                    </List.Item>
                  )}
                />
              )}
            </Card>
          </Space>
        </Col>
      </Row>
      <OrderActionModal pending={pending} onClose={() => setPending(null)} />
    </Space>
  );
}


