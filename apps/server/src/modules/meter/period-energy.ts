import type { MeterPurpose, MeterSegment, PRICE_PERIODS, QualityFlag, ReadingDirection } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';

/** What periodEnergy is asked: one station, one kind of meter, station-local dates inclusive. */
export interface PeriodEnergyQuery {
  siteId: number;
  /** The meters' purpose: storage, pv, pile (or main). */
  meterKind: MeterPurpose;
  /** Station-local date YYYY-MM-DD: the period starts at its 00:00. */
  from: string;
  /** Station-local date YYYY-MM-DD, inclusive: the period ends at the next day's 00:00. */
  to: string;
  /** Only this meter (it must be of the station and the kind); else every meter of the kind. */
  deviceId?: number;
}

/** One register over the period. */
export interface RegisterEnergy {
  /** Thing-model identifier: forwardActiveEnergy, forwardActiveEnergyPeak, … (READING_REGISTERS). */
  register: string;
  direction: ReadingDirection;
  /** Price period of the register; null for the total. */
  period: (typeof PRICE_PERIODS)[number] | null;
  /** The reading at the period's start (from's 00:00) and end (to + 1 day 00:00); null where missing. */
  start: number | null;
  end: number | null;
  /**
   * The normalised energy (kWh, 0.001; `difference.toFixed(3)` is its exact decimal): Σ of the
   * days' normalised increments — never negative, spikes clamped, a replacement split into
   * old end − old start + new end − new start. With a replacement in the period it is not
   * end − start.
   */
  difference: number;
  /** Every flag met by this register in the period; ['measured'] when all was read as it should. */
  flags: QualityFlag[];
}

/** One station-local day of a meter: the normalised energy per register (for a tariff that changes within the period). */
export interface DayEnergy {
  date: string;
  /** register → kWh (0.001) of this day. */
  difference: Record<string, number>;
  /** register → flags of this day's increment. */
  flags: Record<string, QualityFlag[]>;
  /** The worst flag of the day. */
  quality: QualityFlag;
}

/** One meter over the period. */
export interface MeterPeriodEnergy {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  meterPurpose: MeterPurpose;
  siteId: number;
  timeZone: string;
  from: string;
  to: string;
  startAt: Date;
  endAt: Date;
  /** The twelve registers in READING_REGISTERS order. */
  registers: RegisterEnergy[];
  /** The same by identifier. */
  byRegister: Record<string, RegisterEnergy>;
  /** The meter hardware's segments: one, or one more per replacement within the period. */
  segments: MeterSegment[];
  /** Every day of the period in order; Σ days[i].difference[r] = byRegister[r].difference exactly. */
  days: DayEnergy[];
  /** The worst flag of the period. */
  quality: QualityFlag;
}

/**
 * The normalised energy of each meter of a kind at a station over station-local dates `from`..`to`
 * (inclusive), per register, with the readings at both ends, the quality flags, the replacement
 * segments and the per-day split (issue 18 item 4; DOMAIN.md §3). Periods are additive: the
 * energy of a month equals the sum of its halves, so a settlement may price each day (or each
 * tariff version's days) separately from `days` and still agree with the month's total.
 *
 * Built from the stored zero readings (meter_zero_reading); a day not yet read is read from the
 * stored telemetry on the way and stored (as the daily job would), so a caller needs nothing run
 * before. No data scope is checked here: the caller has already checked the user's access to
 * `siteId`. Throws AppError NOT_FOUND for an unknown station or meter, RULE_VIOLATION when
 * `to` is before `from` or the range is longer than READING_MAX_DAYS. Meters without any reading
 * in the period still appear, every register 0 and flagged missing.
 */
export function periodEnergy(ctx: AppContext, q: PeriodEnergyQuery): Promise<MeterPeriodEnergy[]> {
  void ctx;
  void q;
  return Promise.reject(new Error('periodEnergy: not implemented yet (issue 18, m18read step 2)'));
}
