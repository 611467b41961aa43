import type { GenerationChart, GenerationQuery } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import { growthByBucket } from './energy.ts';
import type { LoadedStation } from './load.ts';
import { bucketStarts, dayPeriod, localLabel, localStart, monthPeriod, resolveDate, yearPeriod } from '../../platform/time/local-time.ts';
import { round, type StationDevice } from './station.ts';

/** A register to read on some devices (e.g. the PV meter's forward energy, or the inverters' total yield). */
export interface EnergySource {
  devices: StationDevice[];
  identifier: string;
}

/**
 * Energy per station-local bucket of the period around the asked date: hours of the day (from
 * the hour rollups), days of the month or months of the year (from the day rollups, a month
 * being the sum of its days). Every bucket of the period is listed; null where nothing was
 * reported (the energy of a gap lands in the first bucket reported after it).
 */
export async function generationChart(ctx: AppContext, st: LoadedStation, q: GenerationQuery, sources: EnergySource[]): Promise<GenerationChart> {
  const tz = st.site.timeZone;
  const date = resolveDate(tz, q.date, st.now);
  const unit = q.type === 'day' ? 'hour' : q.type === 'month' ? 'day' : 'month';
  const period = q.type === 'day' ? dayPeriod(tz, date) : q.type === 'month' ? monthPeriod(tz, date) : yearPeriod(tz, date);
  const g = q.type === 'day' ? '1h' : '1d';
  const rollupBucket = (ts: number) => localStart(tz, ts, g === '1h' ? 'hour' : 'day');
  const buckets = bucketStarts(tz, unit, period.start, period.end);
  const sums = new Map<number, number>();
  for (const src of sources) {
    if (src.devices.length === 0) continue;
    const part = await growthByBucket(ctx, st.slots, src.devices, src.identifier, g, period.start, period.end, st.now, rollupBucket);
    for (const [t, v] of part) {
      // Days fall into the month that starts at or before them.
      let b = t;
      if (unit === 'month') b = buckets.filter((m) => m <= t).at(-1) ?? buckets[0]!;
      sums.set(b, (sums.get(b) ?? 0) + v);
    }
  }
  const points = buckets.map((b): [number, number | null] => [b, sums.has(b) ? round(sums.get(b)!, 3) : null]);
  return {
    siteId: st.site.id,
    type: q.type,
    date,
    timeZone: tz,
    unit: 'kWh',
    points,
    labels: buckets.map((b) => localLabel(tz, b, unit)),
    total: round(points.reduce((a, [, v]) => a + (v ?? 0), 0), 3),
  };
}
