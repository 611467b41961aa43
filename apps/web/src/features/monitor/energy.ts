import type { DeviceLatestRecord } from '@ess/contract/device';
import type { TelemetryValue } from '@ess/contract/telemetry';

const num = (v: TelemetryValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The live power picture of a station, kW (signs as the devices report them) and SOC %. */
export interface EnergySnapshot {
  /** Main meter (import positive), else the EMS's grid power. */
  grid: number | null;
  gridSource: 'meter' | 'ems' | null;
  /** Storage: discharge positive, charge negative (EMS activePower). */
  storage: number | null;
  pv: number | null;
  load: number | null;
  piles: number | null;
  soc: number | null;
  today: { charge: number | null; discharge: number | null; pv: number | null; load: number | null };
  hasPv: boolean;
  hasPiles: boolean;
  ems: DeviceLatestRecord | null;
  /** Newest measurement time among the devices used (ISO). */
  ts: string | null;
}

const sum = (xs: (number | null)[]): number | null => {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length ? ok.reduce((a, b) => a + b, 0) : null;
};

/**
 * Reads the station's EMS and meters: the main meter's power wins for the grid (it is the
 * billing point); PV and piles from the EMS, or the sum of the inverters / piles when the EMS has
 * none. Offline devices still give their last values; the page shows their state.
 */
export function energySnapshot(devices: readonly DeviceLatestRecord[]): EnergySnapshot {
  const ems = devices.find((d) => d.type === 'ems') ?? null;
  const mainMeter = devices.find((d) => d.type === 'meter' && d.meterPurpose === 'main') ?? null;
  const inverters = devices.filter((d) => d.type === 'pvInverter' || d.type === 'dcdc');
  const piles = devices.filter((d) => d.type === 'chargingPile');
  const e = ems?.values ?? {};
  const meterPower = num(mainMeter?.values.activePower);
  const grid = meterPower ?? num(e.gridPower);
  const pvFromDevices = sum(inverters.map((d) => num(d.type === 'dcdc' ? d.values.pvPower : d.values.activePower)));
  const pilesFromDevices = sum(piles.map((d) => num(d.values.power)));
  const times = [ems, mainMeter].map((d) => d?.ts).filter((x): x is string => !!x).sort();
  return {
    grid,
    gridSource: meterPower !== null ? 'meter' : grid !== null ? 'ems' : null,
    storage: num(e.activePower),
    pv: inverters.length ? (num(e.pvPower) ?? pvFromDevices) : null,
    load: num(e.loadPower),
    piles: piles.length ? (num(e.chargingPilePower) ?? pilesFromDevices) : null,
    soc: num(e.soc),
    today: {
      charge: num(e.todayChargeEnergy),
      discharge: num(e.todayDischargeEnergy),
      pv: inverters.length ? num(e.todayPvEnergy) : null,
      load: num(e.todayLoadEnergy),
    },
    hasPv: inverters.length > 0,
    hasPiles: piles.length > 0,
    ems,
    ts: times.at(-1) ?? null,
  };
}

/** The EMS identifiers of the station's curve of the day: only the subsystems it has. */
export function energyCurveIdentifiers(s: Pick<EnergySnapshot, 'hasPv' | 'hasPiles'>): string[] {
  return ['gridPower', 'activePower', 'loadPower', ...(s.hasPv ? ['pvPower'] : []), ...(s.hasPiles ? ['chargingPilePower'] : []), 'soc'];
}

/** Start of the browser's local day. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
