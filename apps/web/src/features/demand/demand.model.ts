import { demandReconcileEdit, demandSettingAdd, type DemandReconcileRecord } from '@ess/contract/demand';
import { todayIn } from '@ess/contract/time';
import { formatMoney, formatNumber } from '../../components/number-format.ts';

/** A demand in kW as the screens write it ("-" when there is none). */
export const kw = (v: number | null | undefined) => (v === null || v === undefined ? '-' : `${formatNumber(v)} kW`);
/** Money (decimal text from the server) with its currency, to the currency's minor units ("-" when there is none). */
export const money = (v: string | null | undefined, currency: string) => (v === null || v === undefined ? '-' : formatMoney(Number(v), currency));
/** A signed kW difference: "+1.5", "-0.25", "0". */
export const signedKw = (v: number | null | undefined) => (v === null || v === undefined ? '-' : `${v > 0 ? '+' : ''}${formatNumber(v)}`);

/** The station's current month (YYYY-MM) in its own zone. */
export const currentMonth = (timeZone: string, now = new Date()) => todayIn(timeZone, now).slice(0, 7);

/** A request checked against its contract schema: the body, or the first issue (source text) and its field. */
export type Checked = { ok: true; body: Record<string, unknown> } | { ok: false; issue: string; field: string };

function check(schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } } }, body: Record<string, unknown>): Checked {
  const r = schema.safeParse(body);
  if (r.success) return { ok: true, body };
  const issue = r.error!.issues[0]!;
  return { ok: false, issue: issue.message, field: String(issue.path[0] ?? '') };
}

export interface BillValues {
  billMaxKw: number | null | undefined;
  note?: string | null;
}

/** The bill's figure of a station-month as the reconciliation's edit call takes it (null clears it). */
export function billBody(row: Pick<DemandReconcileRecord, 'siteId' | 'month'>, v: BillValues): Checked {
  return check(demandReconcileEdit, { siteId: row.siteId, month: row.month, billMaxKw: v.billMaxKw ?? null, note: v.note?.trim() ? v.note.trim() : null });
}

export interface SettingValues {
  siteId: number;
  /** YYYY-MM, or empty for the standing target. */
  month?: string | null;
  targetKw: number;
  marginKw: number;
  allowDischarge?: boolean;
  alarmLevel?: number;
}

/** A target as the setting's add call takes it (no month: the standing target). */
export function settingBody(v: SettingValues): Checked {
  return check(demandSettingAdd, {
    siteId: v.siteId, month: v.month ? v.month : null, targetKw: v.targetKw, marginKw: v.marginKw, allowDischarge: !!v.allowDischarge, alarmLevel: v.alarmLevel ?? 2,
  });
}
