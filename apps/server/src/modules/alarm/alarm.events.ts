/** The alarm module's domain events (their payloads, as written to the outbox). */

/** An alarm that opened or ended. */
export interface AlarmEventPayload {
  id: number;
  no: string;
  siteId: number;
  deviceId: number;
  level: number;
  description: string;
  /** ISO 8601. */
  startedAt: string;
}

/** A shield on a source was created or cancelled. */
export interface AlarmShieldedPayload {
  shieldId: number;
  siteId: number;
  deviceId: number;
  dictId: number;
  cancelled: boolean;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'alarm.opened': AlarmEventPayload;
    'alarm.ended': AlarmEventPayload;
    'alarm.shielded': AlarmShieldedPayload;
  }
}
