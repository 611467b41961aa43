import type { DeviceLatestRecord } from '@ess/contract/device';
import type { SiteOverview } from '@ess/contract/comprehensive';
import { localDayStart } from '@ess/contract/time';

/** The devices of the energy view: the EMS (its curve of the day) and whether PV and piles exist. */
export interface EnergyDevices {
  ems: DeviceLatestRecord | null;
  hasPv: boolean;
  hasPiles: boolean;
}

/**
 * The station's EMS, and which subsystems it has by its devices. Every figure of the view —
 * power, SOC, today's and lifetime energy — comes from the server (/monitor/energy/overview, the
 * station overview's computation), never from a device's own "today" counters.
 */
export function energyDevices(devices: readonly DeviceLatestRecord[]): EnergyDevices {
  return {
    ems: devices.find((d) => d.type === 'ems') ?? null,
    hasPv: devices.some((d) => d.type === 'pvInverter' || d.type === 'dcdc'),
    hasPiles: devices.some((d) => d.type === 'chargingPile'),
  };
}

/** The EMS identifiers of the station's curve of the day: only the subsystems it has. */
export function energyCurveIdentifiers(s: Pick<EnergyDevices, 'hasPv' | 'hasPiles'>): string[] {
  return ['gridPower', 'activePower', 'loadPower', ...(s.hasPv ? ['pvPower'] : []), ...(s.hasPiles ? ['chargingPilePower'] : []), 'soc'];
}

/** Start of the station-local day the overview's figures are for (its midnight in its own zone), epoch ms. */
export function stationDayStart(o: Pick<SiteOverview, 'timeZone' | 'date'>): number {
  return localDayStart(o.timeZone, o.date);
}
