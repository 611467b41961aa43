import { z } from 'zod';
import { id, idQuery, optionalPhone, optionalText, pageRequest, sortRequest, trimmed } from './common.ts';
import { NOTE_MAX_LENGTH, PRICE_PERIODS } from './constants.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { defineStateMachine } from './state-machine.ts';
import { QUALITY_FLAG_LABELS, QUALITY_FLAGS, type QualityFlag } from './meter-reading.ts';

/**
 * Statements (api-catalogue "Statements"; product-spec §3 station, §5 share ratio; DOMAIN.md §3;
 * issue 18 items 5–10): the monthly settlement between a station's investor and its power user
 * (the host), computed from the meters' normalised readings and the prices in force on each day.
 * One domain: server module modules/statement, web feature features/metering (its statement screens).
 *
 * Money and energy travel as decimal strings ("1234.56"), never as binary floating point: the
 * server computes them with exact decimal arithmetic and the console shows them as they come.
 * Decisions: docs/decisions/0035-statement-lifecycle.md.
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** JSON ids are numbers (no coercion of a missing one). */
const ref = z.number().int().positive().max(2 ** 31 - 1);
const monthKey = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式不正确，应为YYYY-MM');
const localDate = z.iso.date('日期格式不正确，应为YYYY-MM-DD');

/** A decimal number as text: money to the cent ("-12.30"), energy to the watt-hour ("105.250"). */
export const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);
export type DecimalText = z.infer<typeof decimalText>;
/** Decimal places of money (to the cent) and of energy (kWh to the watt-hour) in statements. */
export const MONEY_DECIMALS = 2;
export const ENERGY_DECIMALS = 3;
/** Decimal places of a unit price (per kWh) as the price tables hold them. */
export const PRICE_DECIMALS = 4;

/**
 * Quality of a reading (the metering contract's flags, issue 18 item 4), carried onto the lines
 * of a statement: the worst of the readings a line was computed from is shown beside it.
 */
export const STATEMENT_QUALITY_FLAGS = QUALITY_FLAGS;
export type StatementQualityFlag = QualityFlag;
/** The same words as on the reading screens (one label per flag across the product). */
export const STATEMENT_QUALITY_LABELS: Record<StatementQualityFlag, string> = QUALITY_FLAG_LABELS;

// ── Site statement settings (/configure/site/statement) ───────────────────────────────

/** product-spec §5: the investor share ratio is 0 to 100. */
export const SHARE_RATIO_RANGE = '投资方分成比例应在0-100之间';
/** A billing day is 1–28 (every month has it). */
export const BILLING_DAY_RANGE = '结算日应为每月1-28日';
export const PARTIES_DIFFER = '投资方确认人与电力用户确认人不能是同一用户';

/**
 * The settlement terms of a station. The parties are named twice: as the text printed on the
 * statement (the legal party, e.g. a company name) and as the user account that confirms for it.
 * A confirming user must see the station (its data scope); decision 0035.
 */
const settingFields = {
  /** The investor's name as printed on the statement. */
  investorName: trimmed(128),
  /** The user who confirms for the investor. */
  investorUserId: ref,
  /** The power user's (host's) name as printed on the statement. */
  powerUserName: trimmed(128),
  /** The user who confirms for the power user. */
  powerUserUserId: ref,
  /** The investor's share of the total revenue, 0–100 %, at most two decimals. */
  investorShareRatio: z
    .number({ error: SHARE_RATIO_RANGE })
    .min(0, SHARE_RATIO_RANGE)
    .max(100, SHARE_RATIO_RANGE)
    .refine((v) => Math.round(v * 100) === v * 100, '投资方分成比例最多两位小数'),
  /**
   * The day of the month a billing period starts on (1 = the calendar month). The statement of
   * month M covers M-billingDay 00:00 to (M+1)-billingDay 00:00, station-local time.
   */
  billingDay: z.number({ error: BILLING_DAY_RANGE }).int(BILLING_DAY_RANGE).min(1, BILLING_DAY_RANGE).max(28, BILLING_DAY_RANGE),
  reconciliationContact: optionalText(64),
  reconciliationPhone: optionalPhone,
  /** Whether the statement settles the station's PV and its charging piles besides storage. */
  includePv: z.boolean().default(false),
  includePiles: z.boolean().default(false),
};
const partiesDiffer = (v: { investorUserId: number; powerUserUserId: number }) => v.investorUserId !== v.powerUserUserId;
export const siteStatementAdd = z.object({ siteId: ref, ...settingFields }).refine(partiesDiffer, { message: PARTIES_DIFFER, path: ['powerUserUserId'] });
export const siteStatementEdit = z.object({ id: ref, ...settingFields }).refine(partiesDiffer, { message: PARTIES_DIFFER, path: ['powerUserUserId'] });
export const siteStatementUnique = z.object({ siteId: ref });
export type SiteStatementAdd = z.input<typeof siteStatementAdd>;
export type SiteStatementEdit = z.input<typeof siteStatementEdit>;

export const siteStatementRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  companyId: z.number(),
  investorName: z.string(),
  investorUserId: z.number(),
  /** The confirming user's display name. */
  investorUserName: z.string(),
  powerUserName: z.string(),
  powerUserUserId: z.number(),
  powerUserUserName: z.string(),
  investorShareRatio: z.number(),
  billingDay: z.number(),
  reconciliationContact: z.string().nullable(),
  reconciliationPhone: z.string().nullable(),
  includePv: z.boolean(),
  includePiles: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SiteStatementRecord = z.infer<typeof siteStatementRecord>;

// ── Lifecycle ─────────────────────────────────────────────────────────────────────────

/** draft → confirmed by the investor → confirmed by the power user → locked (DOMAIN.md §3). */
export const STATEMENT_STATES = ['draft', 'investor_confirmed', 'power_user_confirmed', 'locked'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];
export const STATEMENT_STATE_LABELS: Record<StatementState, string> = {
  draft: '草稿',
  investor_confirmed: '投资方已确认',
  power_user_confirmed: '电力用户已确认',
  locked: '已锁定',
};

/**
 * Actions on a statement. The catalogue has no confirm call: the lifecycle actions go through
 * POST /operation/statement/edit `{ id, action, note }` (decision 0035). `recompute` is
 * GET /operation/statement/update?id= and `generate` the add or the generation job; both are
 * in the table so that the journal and the refusals name them like the others.
 */
export const STATEMENT_ACTIONS = ['generate', 'recompute', 'confirmInvestor', 'confirmPowerUser', 'lock', 'dispute'] as const;
export type StatementAction = (typeof STATEMENT_ACTIONS)[number];
/** The actions a caller sends through /operation/statement/edit. */
export const STATEMENT_EDIT_ACTIONS = ['confirmInvestor', 'confirmPowerUser', 'lock', 'dispute'] as const;
export type StatementEditAction = (typeof STATEMENT_EDIT_ACTIONS)[number];
export const STATEMENT_ACTION_LABELS: Record<StatementAction, string> = {
  generate: '生成',
  recompute: '重新计算',
  confirmInvestor: '投资方确认',
  confirmPowerUser: '电力用户确认',
  lock: '锁定',
  dispute: '退回',
};

/** Roles of a user toward a statement: the confirming user of either party (from the settings). */
export const INVESTOR_ROLE = 'investor';
export const POWER_USER_ROLE = 'powerUser';
/** The generation job. */
export const STATEMENT_SYSTEM_ROLE = 'system';

export const STATEMENT_LOCKED = '结算单已锁定，不能修改';

export const statementMachine = defineStateMachine<StatementState, StatementAction>({
  name: 'statement',
  states: STATEMENT_STATES,
  stateLabels: STATEMENT_STATE_LABELS,
  actionLabels: STATEMENT_ACTION_LABELS,
  transitions: {
    /** Made as a draft (add or the job); the journal's first row. */
    generate: { from: [], to: 'draft' },
    /** Only a draft is computed again: a confirmed statement stays what its parties confirmed. */
    recompute: { from: ['draft'], to: 'same' },
    confirmInvestor: { from: ['draft'], to: 'investor_confirmed', who: [INVESTOR_ROLE] },
    confirmPowerUser: { from: ['investor_confirmed'], to: 'power_user_confirmed', who: [POWER_USER_ROLE] },
    /** Either party locks the statement both have confirmed; anyone with the permission may too. */
    lock: { from: ['power_user_confirmed'], to: 'locked' },
    /** A party that disagrees sends it back to draft, with a reason (the note is required). */
    dispute: { from: ['investor_confirmed', 'power_user_confirmed'], to: 'draft', who: [INVESTOR_ROLE, POWER_USER_ROLE] },
  },
  refusal: (state, action) =>
    state === 'locked' ? STATEMENT_LOCKED
    : action === 'recompute' ? `当前状态为「${STATEMENT_STATE_LABELS[state]}」，只有草稿可以重新计算`
    : `当前状态为「${STATEMENT_STATE_LABELS[state]}」，不能${STATEMENT_ACTION_LABELS[action]}`,
});
export const NOT_INVESTOR = '只有该站点的投资方确认人可以进行投资方确认';
export const NOT_POWER_USER = '只有该站点的电力用户确认人可以进行电力用户确认';
export const NOT_A_PARTY = '只有投资方或电力用户的确认人可以退回结算单';
export const DISPUTE_NEEDS_NOTE = '退回结算单须填写原因';

/** Domain events of statements (the module's events file declares their payloads). */
export const STATEMENT_EVENTS: Record<Exclude<StatementAction, 'recompute'>, string> = {
  generate: 'statement.generated',
  confirmInvestor: 'statement.investorConfirmed',
  confirmPowerUser: 'statement.powerUserConfirmed',
  lock: 'statement.locked',
  dispute: 'statement.disputed',
};

/** One row of a statement's journal. */
export const statementLogRecord = z.object({
  id: z.number(),
  statementId: z.number(),
  action: z.enum(STATEMENT_ACTIONS),
  fromState: z.string(),
  toState: z.enum(STATEMENT_STATES),
  note: z.string().nullable(),
  userId: z.number().nullable(),
  /** The user's name, or 系统 for the generation job. */
  username: z.string(),
  /** A recompute's effect on the total revenue (new − old), else null. */
  difference: decimalText.nullable(),
  createdAt: isoTime,
});
export type StatementLogRecord = z.infer<typeof statementLogRecord>;

// ── Settlement lines ──────────────────────────────────────────────────────────────────

/**
 * What a line settles (issue 18 item 5): storage charge (a cost) and discharge separately, PV
 * self-consumed at the buy price and exported at the feed-in price, charging-pile electricity at
 * the period's price and the pile service fee.
 */
export const SETTLEMENT_CATEGORIES = ['storageCharge', 'storageDischarge', 'pvSelfUse', 'pvExport', 'pileEnergy', 'pileService'] as const;
export type SettlementCategory = (typeof SETTLEMENT_CATEGORIES)[number];
export const SETTLEMENT_CATEGORY_LABELS: Record<SettlementCategory, string> = {
  storageCharge: '储能充电',
  storageDischarge: '储能放电',
  pvSelfUse: '光伏自用',
  pvExport: '光伏上网',
  pileEnergy: '充电桩电费',
  pileService: '充电桩服务费',
};
/** Categories whose amount is a cost (counted negative in the revenue). */
export const COST_CATEGORIES: readonly SettlementCategory[] = ['storageCharge'];

/** Where a line's unit price came from: a template's cycle, the station's rate (service fee), its solar feed-in rate. */
export const PRICE_SOURCE_KINDS = ['priceCycle', 'sitePrice', 'solarPrice'] as const;
export type PriceSourceKind = (typeof PRICE_SOURCE_KINDS)[number];
export const priceSource = z.object({
  kind: z.enum(PRICE_SOURCE_KINDS),
  /** The price cycle's, station rate's or solar rate's id. */
  id: z.number(),
  /** The template's name (priceCycle), else the station's name. */
  name: z.string(),
  templateId: z.number().nullable(),
  /** The station rate in force (its configure price cycle), which names the template from a date. */
  sitePriceId: z.number().nullable(),
});
export type PriceSource = z.infer<typeof priceSource>;

/**
 * One line: a category and register (period) of one meter over the days one price was in force.
 * A tariff change on the 15th splits a register into two lines (1st–14th and 15th–end).
 * `period` is null where the price does not depend on the period (service fee, a flat feed-in).
 */
export const statementLine = z.object({
  category: z.enum(SETTLEMENT_CATEGORIES),
  period: z.enum(PRICE_PERIODS).nullable(),
  /** The meter (storage, pile lines); null for PV lines, which combine the PV meters and the main meter's export. */
  meterId: z.number().nullable(),
  meterName: z.string().nullable(),
  /** Station-local dates, both inclusive. */
  fromDate: localDate,
  toDate: localDate,
  /** kWh, normalised (rises only, spikes clamped, meter replacement split). */
  energy: decimalText,
  /** Per kWh, in the station's currency. */
  price: decimalText,
  /** energy × price rounded half-up to the cent; positive (a cost category is subtracted in the totals). */
  amount: decimalText,
  priceSource: priceSource.nullable(),
  /** The readings' flags this line rests on (measured only when every reading was measured). */
  quality: z.array(z.enum(STATEMENT_QUALITY_FLAGS)),
});
export type StatementLine = z.infer<typeof statementLine>;

// ── Statements (/operation/statement) ─────────────────────────────────────────────────

export const statementRecord = z.object({
  id: z.number(),
  /** JS-<site code>-<YYYYMM>. */
  code: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  companyId: z.number(),
  companyName: z.string(),
  month: monthKey,
  /** The billing period, station-local dates, both inclusive. */
  periodStart: localDate,
  periodEnd: localDate,
  currency: z.string(),
  state: z.enum(STATEMENT_STATES),
  /** The parties and the ratio as they were when the statement was made (a later settings edit does not change them). */
  investorName: z.string(),
  powerUserName: z.string(),
  investorShareRatio: z.number(),
  /** Energies, kWh: storage charged and discharged, PV self-used and exported, delivered by piles. */
  chargeEnergy: decimalText,
  dischargeEnergy: decimalText,
  pvSelfUseEnergy: decimalText,
  pvExportEnergy: decimalText,
  pileEnergy: decimalText,
  /** Revenues: storage = discharge − charge; PV = self-use + export; piles = electricity + service fee. */
  storageRevenue: decimalText,
  pvRevenue: decimalText,
  pileRevenue: decimalText,
  totalRevenue: decimalText,
  /** ratio × total revenue, half-up to the cent; the power user's share is the rest (the two add up to the total). */
  investorAmount: decimalText,
  powerUserAmount: decimalText,
  /** Lines resting on anything but measured readings (flags shown on the list). */
  flaggedLines: z.number(),
  note: z.string().nullable(),
  /** The caller's roles toward the statement (investor, powerUser), for allowedActions(statementMachine, …). */
  roles: z.array(z.string()),
  computedAt: isoTime,
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type StatementRecord = z.infer<typeof statementRecord>;

/**
 * What-if (issue 18 item 9): the statement computed against another price template (its cycles
 * by month) for the whole period, optionally with another service fee and feed-in price, without
 * saving. Asked through /operation/statement/query/one (decision 0035).
 */
export const statementWhatIf = z.object({
  templateId: ref,
  /** Per kWh; absent keeps the prices the statement used. */
  serviceFee: z.number().min(0).max(1000).optional(),
  feedInPrice: z.number().min(0).max(1000).optional(),
});
export type StatementWhatIf = z.input<typeof statementWhatIf>;

export const statementOneQuery = z.object({ id: ref, whatIf: statementWhatIf.optional() });

/** A line of the what-if: the statement's line beside the same energy at the other prices. */
export const whatIfLine = z.object({
  category: z.enum(SETTLEMENT_CATEGORIES),
  period: z.enum(PRICE_PERIODS).nullable(),
  meterId: z.number().nullable(),
  fromDate: localDate,
  toDate: localDate,
  energy: decimalText,
  price: decimalText,
  amount: decimalText,
  whatIfPrice: decimalText,
  whatIfAmount: decimalText,
  /** whatIfAmount − amount, signed as the revenue sees it (a dearer charge is negative). */
  difference: decimalText,
});
export const whatIfResult = z.object({
  templateId: z.number(),
  templateName: z.string(),
  lines: z.array(whatIfLine),
  /** Per category and register (summed over meters and days): the difference in revenue. */
  byRegister: z.array(z.object({ category: z.enum(SETTLEMENT_CATEGORIES), period: z.enum(PRICE_PERIODS).nullable(), difference: decimalText })),
  totalRevenue: decimalText,
  investorAmount: decimalText,
  powerUserAmount: decimalText,
  /** whatIf total − the statement's total. */
  difference: decimalText,
});
export type WhatIfResult = z.infer<typeof whatIfResult>;

export const statementDetail = statementRecord.extend({
  lines: z.array(statementLine),
  journal: z.array(statementLogRecord),
  reconciliationContact: z.string().nullable(),
  reconciliationPhone: z.string().nullable(),
  /** The what-if, when asked for. */
  whatIf: whatIfResult.nullable(),
});
export type StatementDetail = z.infer<typeof statementDetail>;

export const statementSort = sortRequest(['month', 'siteName', 'state', 'totalRevenue', 'updatedAt']);
export const statementFilter = z.object({
  siteId: id.optional(),
  companyId: id.optional(),
  state: z.enum(STATEMENT_STATES).optional(),
  /** Months from / to, inclusive. */
  monthFrom: monthKey.optional(),
  monthTo: monthKey.optional(),
});
export const statementPage = pageRequest
  .extend(statementFilter.shape)
  .extend(statementSort.shape)
  .refine((v) => !v.monthFrom || !v.monthTo || v.monthFrom <= v.monthTo, { message: '结束月份不能早于开始月份', path: ['monthTo'] });

/** Make the statement of a station and month now (as the job does after the billing day): a draft. */
export const statementAdd = z.object({ siteId: ref, month: monthKey });
export const STATEMENT_EXISTS = '该站点该月已有结算单';
export const PERIOD_NOT_ENDED = '结算周期尚未结束，不能生成结算单';
export const NO_STATEMENT_SETTINGS = '该站点尚未配置结算信息';

/**
 * Edit: a lifecycle action (`action`, with an optional note; a dispute needs one) or, without an
 * action, the statement's note (refused on a locked statement like every change).
 */
export const statementEdit = z.object({
  id: ref,
  action: z.enum(STATEMENT_EDIT_ACTIONS).optional(),
  note: z
    .string()
    .trim()
    .max(NOTE_MAX_LENGTH, `备注不能超过${NOTE_MAX_LENGTH}个字符`)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
});
export type StatementEdit = z.input<typeof statementEdit>;

/** GET /operation/statement/update?id=: recomputed from the readings and the prices in force now. */
export const statementRecomputed = z.object({
  id: z.number(),
  totalBefore: decimalText,
  totalAfter: decimalText,
  /** totalAfter − totalBefore. */
  difference: decimalText,
});

/** GET /operation/statement/download?id=&format=xlsx|pdf (xlsx when absent), in the caller's language. */
export const STATEMENT_FORMATS = ['xlsx', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];
export const statementDownload = idQuery.extend({ format: z.enum(STATEMENT_FORMATS, { error: '格式须为 xlsx 或 pdf' }).default('xlsx') });

/**
 * A price that a confirmed or locked statement used is history: editing or deleting it is refused
 * (406) naming the statements (issue 18 item 8).
 */
export const priceInUseRefusal = (codes: readonly string[]) => `该电价已被已确认或已锁定的结算单使用，不能修改或删除：${codes.join('、')}`;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const statementEndpoints = {
  page: endpoint({ method: 'POST', path: '/operation/statement/query/page', body: statementPage, response: pageOf(statementRecord) }),
  one: endpoint({ method: 'POST', path: '/operation/statement/query/one', body: statementOneQuery, response: statementDetail }),
  add: endpoint({ method: 'POST', path: '/operation/statement/add', body: statementAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/operation/statement/edit', body: statementEdit, response: done }),
  update: endpoint({ method: 'GET', path: '/operation/statement/update', query: idQuery, response: statementRecomputed }),
  download: endpoint({ method: 'GET', path: '/operation/statement/download', query: statementDownload, response: FILE }),
};

export const siteStatementEndpoints = {
  unique: endpoint({ method: 'POST', path: '/configure/site/statement/query/unique', body: siteStatementUnique, response: siteStatementRecord.nullable() }),
  add: endpoint({ method: 'POST', path: '/configure/site/statement/add', body: siteStatementAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/site/statement/edit', body: siteStatementEdit, response: done }),
};
