/**
 * The demand module's domain events: a target set (added or replacing the station and month's
 * previous one). Whoever acts on the target (the strategy's synchronisation to the EMS) may
 * subscribe; the live guard reads the targets itself.
 */
export interface DemandTargetSetPayload {
  settingId: number;
  siteId: number;
  /** YYYY-MM, null: the standing target. */
  month: string | null;
  targetKw: number;
  marginKw: number;
  allowDischarge: boolean;
  version: number;
  userId: number;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'demand.targetSet': DemandTargetSetPayload;
  }
}
