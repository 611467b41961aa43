import type { EndpointInput } from '@ess/contract/endpoint';
import { METER_DATA_INTERVALS, meterEndpoints } from '@ess/contract/monitor';
import { PRICE_PERIODS } from '@ess/contract/constants';
import { PRICE_PERIOD_LABELS } from '@ess/contract/pricing';
import { meterRegisterIdentifier } from '@ess/contract/telemetry';
import { dayPeriod, monthPeriod } from '@ess/contract/time';

export type ElectricInterval = (typeof METER_DATA_INTERVALS)[number];

const DAY_LIMIT_MS = 24 * 3_600_000;

/**
 * The request window of the meter data screen, in the station's own time zone: a station-local
 * day for 5-minute and hour buckets (at most 24 h, as the server allows: a 25-hour DST day ends an
 * hour early), the station-local month of `date` for day buckets.
 */
export function electricWindow(timeZone: string, interval: ElectricInterval, date: string): { start: number; end: number } {
  if (interval === '1d') {
    const m = monthPeriod(timeZone, date);
    return { start: m.start, end: m.end };
  }
  const d = dayPeriod(timeZone, date);
  return { start: d.start, end: Math.min(d.end, d.start + DAY_LIMIT_MS) };
}

/** The request body of one meter's data (also the export's query). */
export function electricBody(deviceCode: string, timeZone: string, interval: ElectricInterval, date: string): ElectricBody {
  const w = electricWindow(timeZone, interval, date);
  return { deviceCode, interval, start: w.start, end: w.end };
}

export type ElectricBody = NonNullable<EndpointInput<typeof meterEndpoints.electricData>>;

/**
 * The register columns, forward then reverse, each total then tip … deep valley: identifier and
 * title (source text: the meter thing model's own label, which the packs translate).
 */
export const REGISTER_COLUMNS: { key: string; title: string }[] = (['forward', 'reverse'] as const).flatMap((dir) => {
  const name = dir === 'forward' ? '正向有功电能' : '反向有功电能';
  return [
    { key: meterRegisterIdentifier(dir), title: `${name}（总）` },
    ...PRICE_PERIODS.map((p) => ({ key: meterRegisterIdentifier(dir, p), title: `${name}（${PRICE_PERIOD_LABELS[p]}）` })),
  ];
});
