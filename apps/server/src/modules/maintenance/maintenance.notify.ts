import {
  REPAIR_ACTION_LABELS, REPAIR_EVENTS, REPAIR_STATE_LABELS, WORK_ORDER_ACTION_LABELS, WORK_ORDER_EVENTS, WORK_ORDER_STATE_LABELS,
  type RepairAction, type RepairState, type WorkOrderAction, type WorkOrderState,
} from '@ess/contract';
import { subscriber, type DomainEventType } from '../../platform/events/outbox.ts';
import { translatorOf } from '../i18n/index.ts';
import { deliver, noticeLanguageOf, notifyUsers, type Delivery } from '../system/index.ts';
import './maintenance.events.ts';

/** Source texts of the notices (translated by the language packs; `$n` filled here). */
export const WORK_ORDER_NOTICE_TITLE = '巡检工单通知';
export const REPAIR_NOTICE_TITLE = '维修工单通知';
export const ORDER_NOTICE_TEXT = '工单 $1：$2，当前状态：$3';
export const ORDER_NOTICE_NOTE = '（备注：$1）';

const actionOfEvent = new Map<string, { kind: 'workOrder'; action: WorkOrderAction } | { kind: 'repair'; action: RepairAction }>([
  ...(Object.entries(WORK_ORDER_EVENTS) as [WorkOrderAction, string][]).map(([action, type]) => [type, { kind: 'workOrder' as const, action }] as const),
  ...(Object.entries(REPAIR_EVENTS) as [RepairAction, string][]).map(([action, type]) => [type, { kind: 'repair' as const, action }] as const),
]);

const EVENTS = [...actionOfEvent.keys()] as DomainEventType[];

/**
 * Every state change of a work order or repair order tells its assignee (when someone else took
 * the action): a notification in their message list, with the popup and the new unread count, in
 * the assignee's language. The rows are written in the delivery's transaction, so each event
 * notifies once.
 */
export const maintenanceNotifySubscriber = subscriber({
  name: 'maintenance.notify',
  events: EVENTS as ('workorder.assigned' | 'repair.assigned')[],
  handle: async (events, tx, ctx) => {
    const deliveries: Delivery[] = [];
    for (const e of events) {
      const p = e.payload;
      const what = actionOfEvent.get(e.type);
      if (!what || p.assigneeId === null || p.assigneeId === p.userId) continue;
      const [title, actionLabel, stateLabel] =
        what.kind === 'workOrder'
          ? [WORK_ORDER_NOTICE_TITLE, WORK_ORDER_ACTION_LABELS[what.action], WORK_ORDER_STATE_LABELS[p.to as WorkOrderState] ?? p.to]
          : [REPAIR_NOTICE_TITLE, REPAIR_ACTION_LABELS[what.action], REPAIR_STATE_LABELS[p.to as RepairState] ?? p.to];
      const { t } = await translatorOf(await noticeLanguageOf(tx, p.assigneeId));
      const content = t(ORDER_NOTICE_TEXT, p.no, t(actionLabel), t(stateLabel)) + (p.note ? t(ORDER_NOTICE_NOTE, p.note) : '');
      deliveries.push(...(await notifyUsers(tx, [p.assigneeId], t(title), content)));
    }
    await deliver(ctx, deliveries, tx);
  },
});
