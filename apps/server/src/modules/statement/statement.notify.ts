import { STATEMENT_EVENTS, STATEMENT_STATE_LABELS, type StatementState } from '@ess/contract/statement';
import { fillText } from '@ess/contract/pack-text';
import { subscriber, type DomainEventType } from '../../platform/events/outbox.ts';
import { deliver, notifyUsers, type Delivery } from '../system/index.ts';
import './statement.events.ts';

/** Source texts of the notices (translated by the language packs; `$n` filled here). */
export const STATEMENT_NOTICE_TITLE = '结算单通知';
export const STATEMENT_NOTICE_TEXT = '结算单 $1（$2）当前状态：$3';
export const STATEMENT_NOTICE_NOTE = '（备注：$1）';

const EVENTS = Object.values(STATEMENT_EVENTS) as DomainEventType[];

/**
 * A draft made by the job, and every lifecycle step, tells the investor's and the power user's
 * confirming users (not the one who acted): a notification in their list, the popup and the
 * unread count (issue 18 item 10; mail when messaging lands).
 */
export const statementNotifySubscriber = subscriber({
  name: 'statement.notify',
  events: EVENTS as 'statement.generated'[],
  handle: async (events, tx, ctx) => {
    const deliveries: Delivery[] = [];
    for (const e of events) {
      const p = e.payload;
      const to = [p.investorUserId, p.powerUserUserId].filter((u) => u !== p.userId);
      const content =
        fillText(STATEMENT_NOTICE_TEXT, [`#${p.id}`, p.month, STATEMENT_STATE_LABELS[p.to as StatementState] ?? p.to], 'zh-CN') +
        (p.note ? fillText(STATEMENT_NOTICE_NOTE, [p.note], 'zh-CN') : '');
      deliveries.push(...(await notifyUsers(tx, to, STATEMENT_NOTICE_TITLE, content)));
    }
    await deliver(ctx, deliveries, tx);
  },
});
