// @vitest-environment node
import type { DeviceLatestRecord } from '@ess/contract/device';
import { describe, expect, it } from 'vitest';
import { energyCurveIdentifiers, energyDevices, stationDayStart } from './energy.ts';

const dev = (type: string, extra: Partial<DeviceLatestRecord> = {}) =>
  ({ id: 1, type, values: {}, ts: '2026-01-01T00:00:00.000Z', meterPurpose: null, status: 'online', ...extra }) as unknown as DeviceLatestRecord;

describe('energy view of a station', () => {
  it('finds the EMS and draws only the subsystems the station has', () => {
    const s = energyDevices([dev('ems'), dev('meter', { meterPurpose: 'main' })]);
    expect(s.ems?.type).toBe('ems');
    expect(energyCurveIdentifiers(s)).toEqual(['gridPower', 'activePower', 'loadPower', 'soc']);
    const all = energyDevices([dev('ems'), dev('pvInverter'), dev('chargingPile')]);
    expect(energyCurveIdentifiers(all)).toEqual(['gridPower', 'activePower', 'loadPower', 'pvPower', 'chargingPilePower', 'soc']);
    expect(energyDevices([])).toEqual({ ems: null, hasPv: false, hasPiles: false });
  });

  it('starts the day at the station’s own midnight, not the browser’s or UTC’s', () => {
    // Los Angeles, 2026-01-15: midnight PST is 08:00 UTC.
    expect(new Date(stationDayStart({ timeZone: 'America/Los_Angeles', date: '2026-01-15' })).toISOString()).toBe('2026-01-15T08:00:00.000Z');
    // Shanghai: the local day began at 16:00 UTC the day before.
    expect(new Date(stationDayStart({ timeZone: 'Asia/Shanghai', date: '2026-01-15' })).toISOString()).toBe('2026-01-14T16:00:00.000Z');
  });
});
