import { IDLE_POWER_KW, type EnergyFigures, type Subsystems } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { Granularity } from '../telemetry/index.ts';
import { bucketReadings, firstWithin, lastBefore, type Readings } from './rollup-reader.ts';
import { numberOf, round, type Slots, type StationDevice, type StationRoles } from './station.ts';

/**
 * Energy from cumulative registers (DOMAIN.md §3: settle by differences): the energy of a period
 * is the register's reading at its end minus the reading at its start. Readings come from the
 * day (or hour) rollups; the end of a period that is still running is the latest value.
 */

/** Registers the energy figures read, by device type. */
export const ENERGY_REGISTERS = ['forwardActiveEnergy', 'reverseActiveEnergy', 'totalChargeEnergy', 'totalDischargeEnergy', 'totalEnergy'] as const;

/** A register that went backwards was reset or its device replaced: its energy is unknown, not negative. */
const TOLERANCE = 1e-6;

/**
 * Each device's growth of the registers over [from, to). The start reading is the last one
 * before `from`, or — for a device that began reporting within the period — its first one; the
 * end reading is the last one before `to`, or the latest value when the period is still running.
 */
export async function deviceGrowth(
  ctx: AppContext, slots: Slots, devices: readonly StationDevice[], identifiers: readonly string[], from: number, to: number, now: number, g: Granularity = '1d',
): Promise<Readings> {
  const out: Readings = new Map();
  if (devices.length === 0) return out;
  const start = await lastBefore(ctx, slots, devices, identifiers, from, g);
  const fresh = devices.filter((d) => !start.has(d.id));
  const firsts = fresh.length ? await firstWithin(ctx, slots, fresh, identifiers, from, to, g) : new Map<number, Map<string, number>>();
  const running = to > now;
  const end = running ? null : await lastBefore(ctx, slots, devices, identifiers, to, g);
  for (const d of devices) {
    const m = new Map<string, number>();
    for (const id of identifiers) {
      const s = start.get(d.id)?.get(id) ?? firsts.get(d.id)?.get(id);
      const e = running ? numberOf(d, id) : end?.get(d.id)?.get(id);
      if (s === undefined || e === null || e === undefined) continue;
      if (e < s - TOLERANCE) continue;
      m.set(id, Math.max(0, e - s));
    }
    out.set(d.id, m);
  }
  return out;
}

/** The lifetime readings of the registers: the latest values. */
export function lifetime(devices: readonly StationDevice[], identifiers: readonly string[]): Readings {
  const out: Readings = new Map();
  for (const d of devices) {
    const m = new Map<string, number>();
    for (const id of identifiers) {
      const v = numberOf(d, id);
      if (v !== null) m.set(id, v);
    }
    out.set(d.id, m);
  }
  return out;
}

/** Sum over devices of a per-device figure; null when none has it. */
export function sumReadings(r: Readings, devices: readonly (StationDevice | undefined)[], identifier: string): number | null {
  let total: number | null = null;
  for (const d of devices) {
    const v = d ? r.get(d.id)?.get(identifier) : undefined;
    if (v !== undefined) total = (total ?? 0) + v;
  }
  return total;
}

/** Devices whose registers the energy figures read. */
export function energyDevices(r: StationRoles): StationDevice[] {
  return [r.mainMeter, r.storageMeter, r.pvMeter, r.pileMeter, ...r.pcs, ...r.bms, ...r.inverters, ...r.dcdc, ...r.piles]
    .filter((d): d is StationDevice => d !== undefined);
}

const r3 = (x: number | null) => (x === null ? null : round(x, 3));

/**
 * The energy figures from per-device register growth (or lifetime readings):
 * grid import / export at the main meter; storage in / out at the storage meter (forward is
 * charging), else the converters' registers; PV from the PV meter, else the inverters, plus the
 * DC/DC converters; piles at the pile meter, else the piles' own registers. Where PV is
 * DC-coupled the storage meter also carries PV, so charge and discharge are the battery's own
 * (BMS) registers there. Load closes the balance at the main meter, like the live power.
 */
export function energyFigures(s: Subsystems, r: StationRoles, g: Readings): EnergyFigures {
  const meterOr = (meter: StationDevice | undefined, meterId: string, devices: StationDevice[], deviceId: string) =>
    meter ? sumReadings(g, [meter], meterId) : sumReadings(g, devices, deviceId);
  const acIn = meterOr(r.storageMeter, 'forwardActiveEnergy', r.pcs, 'totalChargeEnergy');
  const acOut = meterOr(r.storageMeter, 'reverseActiveEnergy', r.pcs, 'totalDischargeEnergy');
  const pvAc = s.pvCoupling === 'ac' ? meterOr(r.pvMeter, 'forwardActiveEnergy', r.inverters, 'totalEnergy') : null;
  const pvDc = sumReadings(g, r.dcdc, 'totalEnergy');
  const piles = s.charging ? meterOr(r.pileMeter, 'forwardActiveEnergy', r.piles, 'totalEnergy') : null;
  const gridImport = sumReadings(g, [r.mainMeter], 'forwardActiveEnergy');
  const gridExport = sumReadings(g, [r.mainMeter], 'reverseActiveEnergy');
  const battery = s.pvCoupling === 'dc' && r.bms.length > 0;
  const charge = battery ? sumReadings(g, r.bms, 'totalChargeEnergy') : acIn;
  const discharge = battery ? sumReadings(g, r.bms, 'totalDischargeEnergy') : acOut;
  const pv = s.pv ? (pvAc === null && pvDc === null ? null : (pvAc ?? 0) + (pvDc ?? 0)) : null;
  let load: number | null = null;
  const known = gridImport !== null && gridExport !== null && (!s.storage || (acIn !== null && acOut !== null))
    && (s.pvCoupling !== 'ac' || pvAc !== null) && (!s.charging || piles !== null);
  if (known) {
    load = gridImport - gridExport + (s.storage ? acOut! - acIn! : 0) + (pvAc ?? 0) - (piles ?? 0);
    if (load < 0 && load > -IDLE_POWER_KW) load = 0;
  }
  return {
    charge: s.storage ? r3(charge) : null,
    discharge: s.storage ? r3(discharge) : null,
    pv: r3(pv),
    load: r3(load),
    gridImport: r3(gridImport),
    gridExport: r3(gridExport),
    piles: r3(piles),
  };
}

/**
 * Growth of a register per rollup bucket of [from, to), summed over devices: bucket start →
 * kWh. A bucket's energy is its last reading minus the last reading before it (the first
 * reading of the bucket for a device's first one). The bucket holding `now` takes the latest
 * value as its last reading when that is newer than the rollup written so far.
 */
export async function growthByBucket(
  ctx: AppContext, slots: Slots, devices: readonly StationDevice[], identifier: string, g: Granularity, from: number, to: number, now: number,
  bucketOf: (ts: number) => number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (devices.length === 0) return out;
  const [series, before] = await Promise.all([
    bucketReadings(ctx, slots, devices, identifier, g, from, to),
    lastBefore(ctx, slots, devices, [identifier], from, g),
  ]);
  for (const d of devices) {
    const list = [...(series.get(d.id) ?? [])];
    const latest = numberOf(d, identifier);
    if (latest !== null && d.ts !== null && d.ts >= from && d.ts < to && now < to) {
      const b = bucketOf(d.ts);
      const cur = list.find((x) => x.t === b);
      if (cur) {
        if (cur.last === null || latest > cur.last) cur.last = latest;
      } else if (!list.some((x) => x.t > b)) {
        list.push({ t: b, first: latest, last: latest });
      }
    }
    let prev = before.get(d.id)?.get(identifier) ?? null;
    for (const x of list) {
      if (x.last === null) continue;
      const base = prev ?? x.first;
      if (base !== null && x.last >= base - TOLERANCE) out.set(x.t, (out.get(x.t) ?? 0) + Math.max(0, x.last - base));
      prev = x.last;
    }
  }
  return out;
}
