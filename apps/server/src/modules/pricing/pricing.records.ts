import type { PriceCycleRecord } from '@ess/contract';
import type { priceCycle } from '../../db/schema/pricing.ts';

/** numeric columns come back as text: exact in the database, numbers in the contract. */
export const money = (v: string | null): number | null => (v === null ? null : Number(v));
/** Numbers into numeric columns (String keeps every digit the contract allowed). */
export const moneyIn = (v: number | null): string | null => (v === null ? null : String(v));

export function toCycleRecord(r: typeof priceCycle.$inferSelect): PriceCycleRecord {
  return {
    id: r.id,
    templateId: r.templateId,
    name: r.name,
    months: [...r.months].sort((a, b) => a - b),
    periods: r.periods,
    tipPrice: money(r.tipPrice),
    peakPrice: money(r.peakPrice),
    flatPrice: money(r.flatPrice),
    valleyPrice: money(r.valleyPrice),
    deepValleyPrice: money(r.deepValleyPrice),
    demandPrice: money(r.demandPrice),
    capacityPrice: money(r.capacityPrice),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Cycles in calendar order (by their first month). */
export const byFirstMonth = (a: PriceCycleRecord, b: PriceCycleRecord) => (a.months[0] ?? 13) - (b.months[0] ?? 13) || a.id - b.id;
