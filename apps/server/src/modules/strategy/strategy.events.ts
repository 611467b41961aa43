/**
 * The strategy module's domain events (contract STRATEGY_EVENTS): the EMS confirmed a
 * synchronised strategy; the EMS runs something else than the last synchronised one.
 */
export interface StrategySyncEventPayload {
  strategyId: number;
  siteId: number;
  deviceCode: string;
  /** The hash synchronised (sent and confirmed). */
  hash: string;
  /** What the EMS answered or reports running. */
  emsHash: string;
  at: string;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'strategy.synchronised': StrategySyncEventPayload;
    'strategy.drifted': StrategySyncEventPayload;
  }
}
