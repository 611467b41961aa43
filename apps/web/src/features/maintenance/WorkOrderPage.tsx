import { CloseCircleOutlined, EyeOutlined, UserAddOutlined } from '@ant-design/icons';
import { localDateOf, maintenanceEndpoints, WORK_ORDER_STATE_LABELS, workOrderMachine, type WorkOrderRecord } from '@ess/contract/maintenance';
import { canTransition } from '@ess/contract/state-machine';
import { App, Button, Card, Empty, Grid, List, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatDateTime, ResourceTable } from '../../components/crud/index.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { ActionModal, AssignModal } from './actions.tsx';
import { useMaintRefresh, useOrderList } from './maintenance.api.ts';
import { orderLink, orderResource } from './order.resource.tsx';

type Pending = { kind: 'allocate' | 'close'; order: Pick<WorkOrderRecord, 'id' | 'no'> } | null;

/** The actions the list offers on an order: allocation and close, each only where the state and the caller's permissions allow. */
export function orderListActions(o: Pick<WorkOrderRecord, 'status'>, can: { allocate: boolean; close: boolean }): ('allocate' | 'close')[] {
  return (['allocate', 'close'] as const).filter((a) => can[a] && canTransition(workOrderMachine, o.status, a));
}

/** The forms of allocation and close, for the list and the detail. */
export function OrderActionModal({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const t = useT();
  const refresh = useMaintRefresh();
  if (!pending) return null;
  const { order } = pending;
  if (pending.kind === 'allocate') {
    return (
      <AssignModal
        title={t('分配工单 $1', order.no)}
        onClose={onClose}
        submit={async (v) => {
          await call(maintenanceEndpoints.orderAllocation, { id: order.id, assigneeId: v.assigneeId, note: v.note ?? null });
          await refresh();
        }}
      />
    );
  }
  return (
    <ActionModal<{ note?: string }>
      title={t('关闭工单 $1', order.no)}
      okText={t('关闭工单')}
      danger
      onClose={onClose}
      testId="close-form"
      submit={async (v) => {
        await call(maintenanceEndpoints.orderClose, { id: order.id, note: v.note ?? null });
        await refresh();
      }}
    >
      <Typography.Paragraph type="secondary">{t('关闭后工单不再处理，已记录的结果保留。')}</Typography.Paragraph>
    </ActionModal>
  );
}

/** Today's orders of the signed-in user as cards (the phone's first view): open one to record results. */
function TodayOrders() {
  const t = useT();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [now] = useState(() => Date.now());
  const today = localDateOf(now, zone);
  const start = dayjs(today).startOf('day').valueOf();
  const q = { mine: true, start, end: start + 86_400_000 };
  const orders = useOrderList(q);
  const rows = orders.data ?? [];
  return (
    <Card size="small" title={t('我的今日工单')} className="ess-resource-card" data-testid="today-orders">
      {rows.length === 0 ? (
        <Empty description={t('今天没有分配给您的工单')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          dataSource={rows}
          renderItem={(o) => (
            <List.Item key={o.id} data-order-no={o.no}>
              <Link to={orderLink(o.id)} className="ess-order-card">
                <Space direction="vertical" size={2}>
                  <Space wrap>
                    <Typography.Text strong>{o.title}</Typography.Text>
                    <ToneTag tone={o.overdue ? 'error' : 'processing'}>{o.overdue ? t('已逾期') : t(WORK_ORDER_STATE_LABELS[o.status])}</ToneTag>
                  </Space>
                  <Typography.Text type="secondary">
                    {o.siteName} · {t('截止 $1', formatDateTime(o.dueAt))} · {o.doneCount}/{o.itemCount}
                  </Typography.Text>
                </Space>
              </Link>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/**
 * /patrol/order: inspection work orders, filtered by station, status, assignee and date;
 * allocation and close where the state and the caller's permissions allow; the detail page
 * records results. On a phone, the user's own orders of today come first, as cards.
 */
export function WorkOrderPage() {
  const t = useT();
  const navigate = useNavigate();
  const phone = Grid.useBreakpoint().md === false;
  const can = { allocate: useCan(maintenanceEndpoints.orderAllocation), close: useCan(maintenanceEndpoints.orderClose) };
  const [pending, setPending] = useState<Pending>(null);
  App.useApp();
  return (
    <>
      {phone && <TodayOrders />}
      <ResourceTable
        def={orderResource}
        rowActions={(row) => {
          const out: ReactNode[] = [
            <Button key="open" type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(orderLink(row.id))}>
              {t('详情')}
            </Button>,
          ];
          for (const a of orderListActions(row, can)) {
            out.push(
              a === 'allocate' ? (
                <Button key="allocate" type="link" size="small" icon={<UserAddOutlined />} data-testid="order-allocate" onClick={() => setPending({ kind: 'allocate', order: row })}>
                  {t('分配')}
                </Button>
              ) : (
                <Button key="close" type="link" size="small" danger icon={<CloseCircleOutlined />} data-testid="order-close" onClick={() => setPending({ kind: 'close', order: row })}>
                  {t('关闭')}
                </Button>
              ),
            );
          }
          return out;
        }}
      />
      <OrderActionModal pending={pending} onClose={() => setPending(null)} />
    </>
  );
}
