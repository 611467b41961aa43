/**
 * The maintenance module's domain events (their payloads, as written to the outbox). Every state
 * change of a plan, work order or repair order emits the event its contract table names
 * (PLAN_EVENTS, WORK_ORDER_EVENTS, REPAIR_EVENTS) besides the transition helper's state.changed;
 * a defect's status set by hand emits defect.resolved or defect.reopened.
 */

/** A plan changed state (started, stopped, activated, paused by the generator, expired). */
export interface PlanEventPayload {
  id: number;
  name: string;
  companyId: number;
  from: string;
  to: string;
  /** Null for the generator. */
  userId: number | null;
  ownerId: number | null;
  note: string | null;
}

/** An inspection work order or a repair order was created or changed state. */
export interface OrderEventPayload {
  id: number;
  no: string;
  siteId: number;
  from: string | null;
  to: string;
  /** Null for the generator and automatic creation. */
  userId: number | null;
  assigneeId: number | null;
  note: string | null;
}

/** A repair order tied to an alarm (the alarm → repair loop). */
export interface RepairAlarmEventPayload extends OrderEventPayload {
  alarmId: number | null;
}

/** A defect was recorded (by hand, or from a failed result). */
export interface DefectEventPayload {
  id: number;
  no: string;
  siteId: number;
  deviceId: number | null;
  level: number;
  workOrderId: number | null;
  userId: number | null;
}

/** A defect's status was set by hand (open → resolved, resolved → open); under repair it follows the repair order's events. */
export interface DefectStatusEventPayload {
  id: number;
  no: string;
  siteId: number;
  from: string;
  to: string;
  userId: number;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'plan.started': PlanEventPayload;
    'plan.stopped': PlanEventPayload;
    'plan.activated': PlanEventPayload;
    'plan.paused': PlanEventPayload;
    'plan.expired': PlanEventPayload;
    'workorder.created': OrderEventPayload;
    'workorder.assigned': OrderEventPayload;
    'workorder.handled': OrderEventPayload;
    'workorder.completed': OrderEventPayload;
    'workorder.closed': OrderEventPayload;
    'defect.recorded': DefectEventPayload;
    'defect.resolved': DefectStatusEventPayload;
    'defect.reopened': DefectStatusEventPayload;
    'repair.created': RepairAlarmEventPayload;
    'repair.assigned': RepairAlarmEventPayload;
    'repair.checkedIn': RepairAlarmEventPayload;
    'repair.handled': RepairAlarmEventPayload;
    'repair.accepted': RepairAlarmEventPayload;
    'repair.rejected': RepairAlarmEventPayload;
    'repair.closed': RepairAlarmEventPayload;
  }
}
