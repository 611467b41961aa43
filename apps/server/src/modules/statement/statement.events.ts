/**
 * The statements module's domain events (contract STATEMENT_EVENTS): a draft made, confirmed by
 * either party, locked, disputed. The notification subscriber tells the parties.
 */
export interface StatementEventPayload {
  id: number;
  siteId: number;
  month: string;
  from: string | null;
  to: string;
  /** Null for the generation job. */
  userId: number | null;
  investorUserId: number;
  powerUserUserId: number;
  note: string | null;
}

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'statement.generated': StatementEventPayload;
    'statement.investorConfirmed': StatementEventPayload;
    'statement.powerUserConfirmed': StatementEventPayload;
    'statement.locked': StatementEventPayload;
    'statement.disputed': StatementEventPayload;
  }
}
