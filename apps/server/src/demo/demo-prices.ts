import { PRICE_PERIODS, normalizeBands, type BillingSystem, type ElectricityType, type PriceBand, type PricePeriod } from '@ess/contract';
import type { StationDef } from '@ess/simulator';
import { priceCycle, priceTemplate, sitePriceCycle, solarPriceCycle } from '../db/schema/pricing.ts';
import type { DbOrTx } from '../platform/db/database.ts';

/**
 * Tariff terms of the demo's places that the simulator does not carry (it has the day's
 * partition and the energy prices): billing system, monthly demand charge, feed-in prices and the
 * charging service fee, in the station's currency. Figures are of the order the local utilities
 * publish: Shanghai 10 kV large industry (two-part, ≈40 CNY/kW·month), a German commercial
 * customer (single-part) with an EEG feed-in tariff for a ~120 kWp roof, a Southern California
 * commercial TOU tariff (demand ≈20 USD/kW·month) with export credits highest in the evening.
 */
interface Terms {
  type: ElectricityType;
  billingSystem: BillingSystem;
  regionCode: string | null;
  demandPrice: number | null;
  feedIn: { price: number; periodPrices: Partial<Record<PricePeriod, number>> | null } | null;
  /** For stations with charging piles. */
  serviceFee: number | null;
}

const TERMS_BY_CURRENCY: Record<string, Omit<Terms, 'serviceFee' | 'feedIn'> & { feedIn: Terms['feedIn']; serviceFee: number }> = {
  CNY: { type: 'largeIndustrial', billingSystem: 'twoPart', regionCode: '310000', demandPrice: 40.8, feedIn: { price: 0.4155, periodPrices: null }, serviceFee: 0.8 },
  EUR: { type: 'generalCommercial', billingSystem: 'singlePart', regionCode: null, demandPrice: null, feedIn: { price: 0.0712, periodPrices: null }, serviceFee: 0.19 },
  USD: {
    type: 'generalCommercial', billingSystem: 'twoPart', regionCode: null, demandPrice: 19.85,
    feedIn: { price: 0.075, periodPrices: { tip: 0.312, peak: 0.184 } }, serviceFee: 0.18,
  },
};
const FALLBACK_TERMS = { type: 'generalCommercial', billingSystem: 'singlePart', regionCode: null, demandPrice: null, feedIn: null, serviceFee: 0 } as const;

/** The simulator's schedule (segment starts) as the 24 h bands of a price cycle. */
export function bandsOfSchedule(schedule: readonly { start: string; period: PricePeriod }[]): PriceBand[] {
  return normalizeBands(schedule.map((s, i) => ({ start: s.start, end: schedule[i + 1]?.start ?? '24:00', period: s.period })));
}

/**
 * A demo station's prices: a template of its company with one all-year cycle that matches the
 * simulator's time-of-use schedule and prices (so meter registers and prices agree), the station's
 * price configuration from its commissioning date (with a service fee where it has charging
 * piles), and a feed-in price where it has PV.
 */
export async function seedStationPrices(db: DbOrTx, siteId: number, companyId: number, st: StationDef): Promise<void> {
  const terms = TERMS_BY_CURRENCY[st.currency] ?? FALLBACK_TERMS;
  const [template] = await db
    .insert(priceTemplate)
    .values({
      companyId,
      name: `${st.name}分时电价`,
      type: terms.type,
      billingSystem: terms.billingSystem,
      voltageLevel: st.voltageLevel,
      currency: st.currency,
      regionCode: terms.regionCode,
      remark: '演示数据：与模拟器的分时时段和电价一致',
    })
    .returning({ id: priceTemplate.id });
  const periods = bandsOfSchedule(st.touSchedule);
  const used = new Set(periods.map((b) => b.period));
  const price = (p: PricePeriod) => (used.has(p) ? String(st.prices[p]) : null);
  const [tip, peak, flat, valley, deepValley] = PRICE_PERIODS.map(price);
  await db.insert(priceCycle).values({
    templateId: template!.id,
    name: '全年',
    months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    periods,
    tipPrice: tip,
    peakPrice: peak,
    flatPrice: flat,
    valleyPrice: valley,
    deepValleyPrice: deepValley,
    demandPrice: terms.billingSystem === 'twoPart' && terms.demandPrice !== null ? String(terms.demandPrice) : null,
  });
  await db.insert(sitePriceCycle).values({
    siteId,
    templateId: template!.id,
    startDate: st.commissioningDate,
    serviceFee: st.charging ? String(terms.serviceFee) : null,
  });
  if (st.pv && terms.feedIn) {
    await db.insert(solarPriceCycle).values({
      siteId,
      startDate: st.commissioningDate,
      price: String(terms.feedIn.price),
      periodPrices: terms.feedIn.periodPrices,
    });
  }
}
