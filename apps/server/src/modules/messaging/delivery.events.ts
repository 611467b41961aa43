import type { AlarmEventPayload } from '../alarm/index.ts';
import type { DevicePresenceChange } from '../device/index.ts';

/**
 * Domain events the delivery engine emits itself (decision 0046): a condition that held for a
 * rule's number of minutes, judged when its timer came due. They go through the outbox like any
 * other event (so hooks may subscribe too), and each has its own event id, which keeps the
 * reminder apart from the first message in the delivery ledger's deduplication key.
 */

/** An alarm still open and not taken on (no repair order) `minutes` after it opened. */
export interface AlarmUnacknowledgedPayload extends AlarmEventPayload {
  minutes: number;
}

/** A device still offline `minutes` after it went offline. */
export interface DeviceOfflineForPayload extends DevicePresenceChange {
  minutes: number;
}

/** An inspection work order still open `minutes` after its due time. */
export interface WorkOrderOverduePayload {
  id: number;
  no: string;
  siteId: number;
  assigneeId: number | null;
  dueAt: string;
  minutes: number;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'alarm.unacknowledged': AlarmUnacknowledgedPayload;
    'device.offlineFor': DeviceOfflineForPayload;
    'workorder.overdue': WorkOrderOverduePayload;
  }
}
