import type { DeviceLatestRecord } from '@ess/contract/device';
import { describe, expect, it } from 'vitest';
import { energyCurveIdentifiers, energySnapshot } from './energy.ts';

const dev = (type: string, values: Record<string, number>, extra: Partial<DeviceLatestRecord> = {}) =>
  ({ id: Math.floor(values.id ?? 1), type, values, ts: '2026-01-01T00:00:00.000Z', meterPurpose: null, status: 'online', ...extra }) as unknown as DeviceLatestRecord;

describe('energy snapshot of a station', () => {
  it('takes the grid from the main meter, storage, load and SOC from the EMS', () => {
    const s = energySnapshot([
      dev('ems', { gridPower: 10, activePower: -50, loadPower: 80, soc: 61.5, todayChargeEnergy: 120 }),
      dev('meter', { activePower: 12.5 }, { meterPurpose: 'main' }),
      dev('meter', { activePower: -50 }, { meterPurpose: 'storage' }),
    ]);
    expect(s).toMatchObject({ grid: 12.5, gridSource: 'meter', storage: -50, load: 80, soc: 61.5, hasPv: false, hasPiles: false, pv: null });
    expect(s.today.charge).toBe(120);
    expect(energyCurveIdentifiers(s)).toEqual(['gridPower', 'activePower', 'loadPower', 'soc']);
  });

  it('falls back to the EMS grid power and to the sum of inverters and piles', () => {
    const s = energySnapshot([
      dev('ems', { gridPower: -5, activePower: 20 }),
      dev('pvInverter', { activePower: 30 }),
      dev('pvInverter', { activePower: 12 }),
      dev('chargingPile', { power: 40 }),
    ]);
    expect(s).toMatchObject({ grid: -5, gridSource: 'ems', pv: 42, piles: 40, hasPv: true, hasPiles: true });
    expect(energyCurveIdentifiers(s)).toEqual(['gridPower', 'activePower', 'loadPower', 'pvPower', 'chargingPilePower', 'soc']);
  });

  it('has nothing to show for a station without devices', () => {
    expect(energySnapshot([])).toMatchObject({ grid: null, gridSource: null, storage: null, soc: null, ems: null, ts: null });
  });
});
