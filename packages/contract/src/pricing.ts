import { z } from 'zod';
import { id, idBody, idQuery, optionalText, pageRequest, sortRequest, trimmed } from './common.ts';
import { PRICE_PERIODS } from './constants.ts';
import { created, done, endpoint, isoTime, pageOf } from './endpoint.ts';

/**
 * Time-of-use prices (api-catalogue "Pricing"; product-spec §3 price template and cycle, §9
 * periods and units; DOMAIN.md §2).
 *
 * - A price template (电价模板) belongs to a company and has a currency, an electricity category,
 *   a billing system and a voltage level.
 * - Its operation price cycles (电价周期) each apply to a set of calendar months (1–12, no month in
 *   two cycles of one template) and split the station-local day 00:00–24:00 into bands of the
 *   five period types on 15-minute boundaries, with a price per kWh for each type used and, for
 *   two-part tariffs, a demand price (per kW per month) or a capacity price (per kVA per month).
 *   Months rather than date ranges: the dated part belongs to the station, whose configure price
 *   cycles say from which day to which day it uses a template.
 * - A station's configure price cycles (站点电价) name the template it uses from a station-local
 *   date (to an optional end date) and the charging service fee per kWh; its solar price cycles
 *   (光伏上网电价) the PV feed-in price per kWh, optionally per period type. Date ranges of one
 *   station never overlap.
 */

export type PricePeriod = (typeof PRICE_PERIODS)[number];

/** Short names of the periods, as the meter registers name them. */
export const PRICE_PERIOD_LABELS: Record<PricePeriod, string> = { tip: '尖', peak: '峰', flat: '平', valley: '谷', deepValley: '深谷' };

/** Electricity categories of a tariff (用电类别). */
export const ELECTRICITY_TYPES = ['largeIndustrial', 'generalCommercial', 'residential', 'agricultural', 'other'] as const;
export type ElectricityType = (typeof ELECTRICITY_TYPES)[number];
export const ELECTRICITY_TYPE_LABELS: Record<ElectricityType, string> = {
  largeIndustrial: '大工业',
  generalCommercial: '一般工商业',
  residential: '居民生活',
  agricultural: '农业生产',
  other: '其他',
};

/** Single-part: energy only; two-part: energy plus a monthly demand or capacity charge. */
export const BILLING_SYSTEMS = ['singlePart', 'twoPart'] as const;
export type BillingSystem = (typeof BILLING_SYSTEMS)[number];
export const BILLING_SYSTEM_LABELS: Record<BillingSystem, string> = { singlePart: '单一制', twoPart: '两部制' };

/** The quarter hour: band boundaries lie on it. */
export const BAND_STEP_MINUTES = 15;
export const DAY_MINUTES = 1440;

const HHMM = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** "HH:MM" of the station-local day, 00:00 to 24:00. */
export const hhmm = z.string().regex(HHMM, '时间格式应为 HH:MM（00:00–24:00）');

export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const timeOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const priceBand = z.object({ start: hhmm, end: hhmm, period: z.enum(PRICE_PERIODS) });
export type PriceBand = z.infer<typeof priceBand>;

const decimals = (v: number) => {
  const s = String(v);
  if (s.includes('e')) return Number.isInteger(v) ? 0 : 99;
  return s.split('.')[1]?.length ?? 0;
};
/** A price in the template's currency: not negative, at most 6 decimals. */
export const priceValue = z
  .number()
  .min(0, '价格不能为负数')
  .max(1_000_000, '价格不能超过1000000')
  .refine((v) => decimals(v) <= 6, '价格最多6位小数');
const optionalPrice = priceValue.optional().nullable().transform((v) => v ?? null);
/** JSON ids are numbers; a missing one is reported as "{field}不能为空". */
const ref = z.number().int().positive().max(2 ** 31 - 1);
const currency = z.string().trim().regex(/^[A-Z]{3}$/, '币种应为三位大写字母代码');
const isoDate = z.iso.date('日期格式不正确');
const optionalDate = z.union([isoDate, z.literal('')]).optional().nullable().transform((v) => (v ? v : null));

// Price templates

const templateFields = {
  name: trimmed(64),
  type: z.enum(ELECTRICITY_TYPES),
  billingSystem: z.enum(BILLING_SYSTEMS),
  /** As the utility names it, e.g. "10kV", "1-10kV", "不满1kV". */
  voltageLevel: trimmed(32),
  companyId: ref,
  currency,
  /** Administrative region (dictionary code), optional. */
  regionCode: optionalText(12),
  remark: optionalText(200),
};
export const priceTemplateAdd = z.object(templateFields);
export const priceTemplateEdit = z.object({ id, ...templateFields });
export type PriceTemplateAdd = z.infer<typeof priceTemplateAdd>;
export type PriceTemplateEdit = z.infer<typeof priceTemplateEdit>;

export const priceTemplateFilter = z.object({
  companyId: id.optional(),
  /** Name contains. */
  keyword: z.string().trim().max(64).optional(),
  type: z.enum(ELECTRICITY_TYPES).optional(),
  billingSystem: z.enum(BILLING_SYSTEMS).optional(),
  currency: z.string().trim().max(8).optional(),
});
export const priceTemplateSort = sortRequest(['name', 'companyName', 'type', 'billingSystem', 'currency', 'cycleCount', 'siteCount', 'createdAt']);
export const priceTemplatePage = pageRequest.extend(priceTemplateFilter.shape).extend(priceTemplateSort.shape);
export type PriceTemplateSortField = NonNullable<z.infer<typeof priceTemplateSort>['sortField']>;
export type PriceTemplateFilter = z.infer<typeof priceTemplateFilter>;

export const priceTemplateRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  type: z.enum(ELECTRICITY_TYPES),
  billingSystem: z.enum(BILLING_SYSTEMS),
  voltageLevel: z.string(),
  currency: z.string(),
  regionCode: z.string().nullable(),
  remark: z.string().nullable(),
  cycleCount: z.number(),
  /** Stations whose configure price cycles name this template. */
  siteCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type PriceTemplateRecord = z.infer<typeof priceTemplateRecord>;

// Operation price cycles

const priceFields = {
  /** Per kWh, for each period type the bands use. */
  tipPrice: optionalPrice,
  peakPrice: optionalPrice,
  flatPrice: optionalPrice,
  valleyPrice: optionalPrice,
  deepValleyPrice: optionalPrice,
  /** Per kW of maximum demand per month (two-part). */
  demandPrice: optionalPrice,
  /** Per kVA of transformer capacity per month (two-part). */
  capacityPrice: optionalPrice,
};
export const PRICE_FIELD: Record<PricePeriod, 'tipPrice' | 'peakPrice' | 'flatPrice' | 'valleyPrice' | 'deepValleyPrice'> = {
  tip: 'tipPrice',
  peak: 'peakPrice',
  flat: 'flatPrice',
  valley: 'valleyPrice',
  deepValley: 'deepValleyPrice',
};

const months = z
  .array(z.number().int().min(1, '月份应在1-12之间').max(12, '月份应在1-12之间'))
  .min(1)
  .max(12)
  .refine((v) => new Set(v).size === v.length, '月份重复');

const cycleFields = {
  name: trimmed(32),
  /** Calendar months (station-local) the cycle applies to. */
  months,
  /** The 24 h partition; its rules (coverage, overlaps, 15-minute steps) are checked by `cycleIssues`. */
  periods: z.array(priceBand).min(1).max(DAY_MINUTES / BAND_STEP_MINUTES),
  ...priceFields,
};
export const priceCycleInput = z.object(cycleFields);
export const priceCycleEdit = z.object({ id, ...cycleFields });
export const priceCycleAddBatch = z.object({ templateId: ref, cycles: z.array(priceCycleInput).min(1).max(12) });
export const priceCycleListQuery = z.object({ templateId: ref });
export const priceCycleTemplatesQuery = z.object({
  companyId: id.optional(),
  /** Only templates this station may use: of its company or a company above it, in its currency. */
  siteId: id.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type PriceCycleInput = z.infer<typeof priceCycleInput>;
export type PriceCycleEdit = z.infer<typeof priceCycleEdit>;
export type PriceCycleAddBatch = z.infer<typeof priceCycleAddBatch>;

/** Prices as the numeric columns hold them, as numbers (null: not set). */
const storedPrice = z.number().nullable();

export const priceCycleRecord = z.object({
  id: z.number(),
  templateId: z.number(),
  name: z.string(),
  months: z.array(z.number()),
  periods: z.array(priceBand),
  tipPrice: storedPrice,
  peakPrice: storedPrice,
  flatPrice: storedPrice,
  valleyPrice: storedPrice,
  deepValleyPrice: storedPrice,
  demandPrice: storedPrice,
  capacityPrice: storedPrice,
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type PriceCycleRecord = z.infer<typeof priceCycleRecord>;

export const priceTemplateUse = z.object({
  configId: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  /** Station-local dates (YYYY-MM-DD). */
  startDate: z.string(),
  endDate: z.string().nullable(),
});
export type PriceTemplateUse = z.infer<typeof priceTemplateUse>;

/** `query/one` of a template: with its cycles and the stations using it. */
export const priceTemplateDetail = priceTemplateRecord.extend({
  cycles: z.array(priceCycleRecord),
  uses: z.array(priceTemplateUse),
});
export type PriceTemplateDetail = z.infer<typeof priceTemplateDetail>;

/** `cycle/query/templates`: templates with their cycles (station pickers). */
export const priceTemplateWithCycles = priceTemplateRecord.extend({
  cycles: z.array(priceCycleRecord),
});
export type PriceTemplateWithCycles = z.infer<typeof priceTemplateWithCycles>;

/** `cycle/add/batch`: the new cycles' ids, in the order sent. */
export const priceCyclesCreated = z.object({ ids: z.array(z.number()) });

// Station price configuration

const dateRangeOk = (v: { startDate: string; endDate: string | null }) => !v.endDate || v.endDate >= v.startDate;
export const END_BEFORE_START = '结束日期不能早于开始日期';

const sitePriceFields = {
  siteId: ref,
  templateId: ref,
  /** Station-local calendar date from which the template applies. */
  startDate: isoDate,
  /** Last station-local date it applies (inclusive); empty: until further notice. */
  endDate: optionalDate,
  /** Charging service fee per kWh in the template's currency (charging revenue). */
  serviceFee: optionalPrice,
  remark: optionalText(200),
};
export const sitePriceCycleAdd = z.object(sitePriceFields).refine(dateRangeOk, { message: END_BEFORE_START, path: ['endDate'] });
export const sitePriceCycleEdit = z.object({ id, ...sitePriceFields }).refine(dateRangeOk, { message: END_BEFORE_START, path: ['endDate'] });
export const sitePriceCycleSort = sortRequest(['templateName', 'billingSystem', 'startDate', 'endDate', 'serviceFee', 'siteName', 'updatedAt']);
export type SitePriceCycleSortField = NonNullable<z.infer<typeof sitePriceCycleSort>['sortField']>;
export const sitePriceCycleFilter = z.object({ siteId: id.optional(), companyId: id.optional(), templateId: id.optional() }).extend(sitePriceCycleSort.shape);
export type SitePriceCycleAdd = z.infer<typeof sitePriceCycleAdd>;
export type SitePriceCycleEdit = z.infer<typeof sitePriceCycleEdit>;
export type SitePriceCycleFilter = z.infer<typeof sitePriceCycleFilter>;

export const sitePriceCycleRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  templateId: z.number(),
  templateName: z.string(),
  billingSystem: z.enum(BILLING_SYSTEMS),
  currency: z.string(),
  /** Station-local dates (YYYY-MM-DD). */
  startDate: z.string(),
  endDate: z.string().nullable(),
  serviceFee: storedPrice,
  remark: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SitePriceCycleRecord = z.infer<typeof sitePriceCycleRecord>;

const periodPrices = z
  .object({ tip: priceValue.optional(), peak: priceValue.optional(), flat: priceValue.optional(), valley: priceValue.optional(), deepValley: priceValue.optional() })
  .strict()
  .optional()
  .nullable()
  .transform((v) => {
    if (!v) return null;
    const kept = Object.fromEntries(Object.entries(v).filter(([, p]) => p !== undefined)) as Partial<Record<PricePeriod, number>>;
    return Object.keys(kept).length ? kept : null;
  });

const solarFields = {
  siteId: ref,
  startDate: isoDate,
  endDate: optionalDate,
  /** Feed-in price per kWh in the station's currency. */
  price: priceValue,
  /** Per period type where the feed-in price differs from `price`. */
  periodPrices,
  remark: optionalText(200),
};
export const solarPriceCycleAdd = z.object(solarFields).refine(dateRangeOk, { message: END_BEFORE_START, path: ['endDate'] });
export const solarPriceCycleEdit = z.object({ id, ...solarFields }).refine(dateRangeOk, { message: END_BEFORE_START, path: ['endDate'] });
export const solarPriceCycleSort = sortRequest(['startDate', 'endDate', 'price', 'siteName', 'updatedAt']);
export type SolarPriceCycleSortField = NonNullable<z.infer<typeof solarPriceCycleSort>['sortField']>;
export const solarPriceCyclePage = pageRequest.extend({ siteId: id.optional(), companyId: id.optional() }).extend(solarPriceCycleSort.shape);
export type SolarPriceCycleAdd = z.infer<typeof solarPriceCycleAdd>;
export type SolarPriceCycleEdit = z.infer<typeof solarPriceCycleEdit>;

export const solarPriceCycleRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  currency: z.string(),
  /** Station-local dates (YYYY-MM-DD). */
  startDate: z.string(),
  endDate: z.string().nullable(),
  price: z.number(),
  periodPrices: z.partialRecord(z.enum(PRICE_PERIODS), z.number()).nullable(),
  remark: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SolarPriceCycleRecord = z.infer<typeof solarPriceCycleRecord>;

// The rules of a cycle, shared by the server (406) and the editor (checked before saving)

/** A broken rule: source text with `$1`… placeholders and their values (translated by the pack). */
export interface PriceIssue {
  text: string;
  args: (string | number)[];
}

/** Source text with its placeholders filled (the server's tipMsg). */
export const issueMessage = (i: PriceIssue): string =>
  i.text.replace(/\$(\d+)/g, (whole, n: string) => {
    const v = i.args[Number(n) - 1];
    return v === undefined ? whole : String(v);
  });

export const PRICE_MISSING: Record<PricePeriod, string> = {
  tip: '尖时段未设置电价',
  peak: '峰时段未设置电价',
  flat: '平时段未设置电价',
  valley: '谷时段未设置电价',
  deepValley: '深谷时段未设置电价',
};
export const PARTITION_TEXTS = {
  gap: '$1–$2 未设置时段',
  overlap: '$1–$2 时段重叠',
  step: '$1 不是15分钟的整数倍',
  order: '$1–$2 结束时间应晚于开始时间',
  twoPartCharge: '两部制电价需设置需量电价或容量电价',
  singlePartCharge: '单一制电价不设需量电价或容量电价',
  monthTaken: '$1月已属于周期「$2」',
} as const;

/**
 * The 24 h partition's rules: every boundary on a quarter hour, each band ending after it
 * starts, 00:00–24:00 covered exactly once (a gap or overlap is named by its times).
 */
export function partitionIssues(bands: readonly PriceBand[]): PriceIssue[] {
  const issues: PriceIssue[] = [];
  const seenStep = new Set<string>();
  for (const b of bands) {
    for (const time of [b.start, b.end]) {
      if (minutesOf(time) % BAND_STEP_MINUTES !== 0 && !seenStep.has(time)) {
        seenStep.add(time);
        issues.push({ text: PARTITION_TEXTS.step, args: [time] });
      }
    }
    if (minutesOf(b.end) <= minutesOf(b.start)) issues.push({ text: PARTITION_TEXTS.order, args: [b.start, b.end] });
  }
  const sorted = bands.filter((b) => minutesOf(b.end) > minutesOf(b.start)).sort((a, b) => minutesOf(a.start) - minutesOf(b.start) || minutesOf(a.end) - minutesOf(b.end));
  let cursor = 0;
  for (const b of sorted) {
    const s = minutesOf(b.start);
    const e = minutesOf(b.end);
    if (s > cursor) issues.push({ text: PARTITION_TEXTS.gap, args: [timeOf(cursor), b.start] });
    else if (s < cursor) issues.push({ text: PARTITION_TEXTS.overlap, args: [b.start, timeOf(Math.min(cursor, e))] });
    cursor = Math.max(cursor, e);
  }
  if (cursor < DAY_MINUTES) issues.push({ text: PARTITION_TEXTS.gap, args: [timeOf(cursor), '24:00'] });
  return issues;
}

/** Period types a partition uses, in the order of PRICE_PERIODS. */
export const usedPeriods = (bands: readonly PriceBand[]): PricePeriod[] => PRICE_PERIODS.filter((p) => bands.some((b) => b.period === p));

type CyclePrices = Pick<PriceCycleInput, 'periods' | 'tipPrice' | 'peakPrice' | 'flatPrice' | 'valleyPrice' | 'deepValleyPrice' | 'demandPrice' | 'capacityPrice'>;

/** Prices: one for each period type used; the demand or capacity charge exactly for two-part tariffs. */
export function priceIssues(cycle: CyclePrices, billingSystem: BillingSystem): PriceIssue[] {
  const issues: PriceIssue[] = usedPeriods(cycle.periods)
    .filter((p) => cycle[PRICE_FIELD[p]] === null || cycle[PRICE_FIELD[p]] === undefined)
    .map((p) => ({ text: PRICE_MISSING[p], args: [] }));
  const charged = (cycle.demandPrice ?? null) !== null || (cycle.capacityPrice ?? null) !== null;
  if (billingSystem === 'twoPart' && !charged) issues.push({ text: PARTITION_TEXTS.twoPartCharge, args: [] });
  if (billingSystem === 'singlePart' && charged) issues.push({ text: PARTITION_TEXTS.singlePartCharge, args: [] });
  return issues;
}

/** Months of this cycle that another cycle of the template already covers. */
export function monthIssues(cycleMonths: readonly number[], others: readonly { name: string; months: readonly number[] }[]): PriceIssue[] {
  const issues: PriceIssue[] = [];
  for (const m of [...cycleMonths].sort((a, b) => a - b)) {
    const owner = others.find((o) => o.months.includes(m));
    if (owner) issues.push({ text: PARTITION_TEXTS.monthTaken, args: [m, owner.name] });
  }
  return issues;
}

/** Every rule of one cycle against its template and the template's other cycles. */
export function cycleIssues(
  cycle: CyclePrices & { months: readonly number[] },
  billingSystem: BillingSystem,
  others: readonly { name: string; months: readonly number[] }[],
): PriceIssue[] {
  return [...partitionIssues(cycle.periods), ...priceIssues(cycle, billingSystem), ...monthIssues(cycle.months, others)];
}

/**
 * The partition as stored: sorted, with neighbouring bands of one type joined (the editor may
 * leave two "peak" bands side by side; they are one period).
 */
export function normalizeBands(bands: readonly PriceBand[]): PriceBand[] {
  const sorted = [...bands].sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  const out: PriceBand[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && last.period === b.period && last.end === b.start) last.end = b.end;
    else out.push({ ...b });
  }
  return out;
}

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const priceTemplateEndpoints = {
  list: endpoint({ method: 'POST', path: '/operation/price/template/query/list', body: priceTemplateFilter, response: z.array(priceTemplateRecord) }),
  page: endpoint({ method: 'POST', path: '/operation/price/template/query/page', body: priceTemplatePage, response: pageOf(priceTemplateRecord) }),
  one: endpoint({ method: 'POST', path: '/operation/price/template/query/one', body: idBody, response: priceTemplateDetail }),
  add: endpoint({ method: 'POST', path: '/operation/price/template/add', body: priceTemplateAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/operation/price/template/edit', body: priceTemplateEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/operation/price/template/delete', query: idQuery, response: done }),
};

export const priceCycleEndpoints = {
  list: endpoint({ method: 'POST', path: '/operation/price/cycle/query/list', body: priceCycleListQuery, response: z.array(priceCycleRecord) }),
  one: endpoint({ method: 'POST', path: '/operation/price/cycle/query/one', body: idBody, response: priceCycleRecord }),
  edit: endpoint({ method: 'POST', path: '/operation/price/cycle/edit', body: priceCycleEdit, response: done }),
  addBatch: endpoint({ method: 'POST', path: '/operation/price/cycle/add/batch', body: priceCycleAddBatch, response: priceCyclesCreated }),
  templates: endpoint({ method: 'POST', path: '/operation/price/cycle/query/templates', body: priceCycleTemplatesQuery, response: z.array(priceTemplateWithCycles) }),
  delete: endpoint({ method: 'GET', path: '/operation/price/cycle/delete', query: idQuery, response: done }),
};

/** A station's configure price cycles (which template from when, and the service fee). */
export const sitePriceEndpoints = {
  list: endpoint({ method: 'POST', path: '/configure/price/cycle/query/list', body: sitePriceCycleFilter, response: z.array(sitePriceCycleRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/price/cycle/query/one', body: idBody, response: sitePriceCycleRecord }),
  add: endpoint({ method: 'POST', path: '/configure/price/cycle/add', body: sitePriceCycleAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/price/cycle/edit', body: sitePriceCycleEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/price/cycle/delete', query: idQuery, response: done }),
};

/** A station's solar (PV feed-in) price cycles. */
export const solarPriceEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/solar/price/cycle/query/page', body: solarPriceCyclePage, response: pageOf(solarPriceCycleRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/solar/price/cycle/query/one', body: idBody, response: solarPriceCycleRecord }),
  add: endpoint({ method: 'POST', path: '/configure/solar/price/cycle/add', body: solarPriceCycleAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/solar/price/cycle/edit', body: solarPriceCycleEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/solar/price/cycle/delete', query: idQuery, response: done }),
};
