import { PRICE_PERIOD_LABELS } from '@ess/contract/pricing';
import { canTransition } from '@ess/contract/state-machine';
import {
  SETTLEMENT_CATEGORY_LABELS, statementMachine, STATEMENT_STATE_LABELS, STATEMENT_STATES,
  type SettlementCategory, type StatementRecord, type StatementState,
} from '@ess/contract/statement';
import type { PricePeriod } from '@ess/contract/pricing';
import type { EnumOption, StatusColor } from '../../components/crud/index.ts';

const STATE_COLOURS: Record<StatementState, StatusColor> = {
  draft: 'default', investor_confirmed: 'processing', power_user_confirmed: 'warning', locked: 'success',
};
export const STATEMENT_STATE_OPTIONS: EnumOption[] = STATEMENT_STATES.map((v) => ({ value: v, label: STATEMENT_STATE_LABELS[v], color: STATE_COLOURS[v] }));

/** The actions a statement screen offers, in this order. recompute is GET /update, the others go through /edit. */
export const OFFERED_ACTIONS = ['recompute', 'confirmInvestor', 'confirmPowerUser', 'lock', 'dispute'] as const;
export type OfferedAction = (typeof OFFERED_ACTIONS)[number];

/**
 * The lifecycle actions offered to the caller on a statement: those the transition table allows
 * from its state to the caller's roles toward it (the investor's or the power user's confirming
 * user), each only with the permission of its call (edit, or update for the recompute).
 */
export function statementActions(s: Pick<StatementRecord, 'state' | 'roles'>, can: { edit: boolean; update: boolean }): OfferedAction[] {
  return OFFERED_ACTIONS.filter((a) => (a === 'recompute' ? can.update : can.edit) && canTransition(statementMachine, s.state, a, s.roles));
}

/** A line's name: its category and, when the price depends on it, its register (储能放电 · 峰). */
export function lineName(category: SettlementCategory, period: PricePeriod | null, t: (s: string) => string): string {
  return period ? `${t(SETTLEMENT_CATEGORY_LABELS[category])} · ${t(PRICE_PERIOD_LABELS[period])}` : t(SETTLEMENT_CATEGORY_LABELS[category]);
}

/** A signed decimal text with its sign always written (+12.30, -4.00, 0.00). */
export const signed = (d: string) => (d.startsWith('-') || /^0(\.0+)?$/.test(d) ? d : `+${d}`);

/** The "statement detail" link of a statement. */
export const statementLink = (id: number) => `/operation/statementDetail?id=${id}`;

/** The id of the ?id= parameter, or null. */
export function idParam(search: URLSearchParams): number | null {
  const raw = search.get('id');
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
