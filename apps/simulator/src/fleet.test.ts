import { DEVICE_TYPES, THING_MODEL, deviceCodeSchema, identifierSchema, telemetryValueSchema } from '@ess/contract';
import { describe, expect, it } from 'vitest';
import { createFleet, demoFleet, scaleFleet } from './fleet.ts';
import { deviceValues } from './readings.ts';
import { createState } from './state.ts';
import { step } from './step.ts';

describe('fleet', () => {
  it('the demo is three stations of three kinds in three time zones', () => {
    const fleet = demoFleet();
    expect(fleet.stations.map((s) => [s.code, s.kind, s.timeZone])).toEqual([
      ['SH01', 'storage', 'Asia/Shanghai'],
      ['BE01', 'storagePv', 'Europe/Berlin'],
      ['LA01', 'storagePvCharging', 'America/Los_Angeles'],
    ]);
    const [sh, be, la] = fleet.stations;
    const types = (s: typeof sh) => new Set(s!.devices.map((d) => d.type));
    const purposes = (s: typeof sh) => s!.devices.filter((d) => d.type === 'meter').map((d) => d.meterPurpose).sort();
    expect(types(sh)).not.toContain('pvInverter');
    expect(purposes(sh)).toEqual(['main', 'storage']);
    // Berlin: PV DC-coupled through a DCDC on the PCS's bus, hence no PV meter.
    expect(be!.pv?.coupling).toBe('dc');
    expect(types(be)).toContain('dcdc');
    expect(purposes(be)).toEqual(['main', 'storage']);
    expect(la!.pv?.coupling).toBe('ac');
    expect(purposes(la)).toEqual(['main', 'pile', 'pv', 'storage']);
    // Every device type of the contract is played somewhere.
    expect(new Set(fleet.stations.flatMap((s) => s.devices.map((d) => d.type)))).toEqual(new Set(DEVICE_TYPES));
  });

  it('device codes are unique, topic-safe and their parents exist in the same station', () => {
    for (const fleet of [demoFleet(), scaleFleet(12)]) {
      const all = fleet.stations.flatMap((s) => s.devices.map((d) => d.code));
      expect(new Set(all).size).toBe(all.length);
      for (const st of fleet.stations) {
        expect(deviceCodeSchema.safeParse(st.code).success).toBe(true);
        const codes = new Set(st.devices.map((d) => d.code));
        for (const d of st.devices) {
          expect(deviceCodeSchema.safeParse(d.code).success, d.code).toBe(true);
          expect(d.code.startsWith(`${st.code}-`)).toBe(true);
          if (d.parentCode !== null) expect(codes.has(d.parentCode), `${d.code} → ${d.parentCode}`).toBe(true);
          if (d.cabinetCode) expect(st.cabinets.map((c) => c.code)).toContain(d.cabinetCode);
        }
        expect(st.devices.filter((d) => d.type === 'ems')).toHaveLength(1);
        expect(st.devices.filter((d) => d.type === 'batteryPack')).toHaveLength(st.storage.clusterCount * st.storage.packsPerCluster);
      }
    }
  });

  it('is deterministic per seed; scaled fleets cycle kinds and zones', () => {
    expect(demoFleet(5)).toEqual(demoFleet(5));
    const barcodes = (seed: number) => demoFleet(seed).stations.flatMap((s) => s.devices.map((d) => d.barcode));
    expect(barcodes(5)).not.toEqual(barcodes(6));
    expect(createFleet(3, 5)).toEqual(demoFleet(5));
    expect(createFleet(1).stations.map((s) => s.code)).toEqual(['SH01']);
    const big = scaleFleet(12);
    expect(big.stations).toHaveLength(12);
    expect(new Set(big.stations.map((s) => s.timeZone)).size).toBe(6);
    expect(new Set(big.stations.map((s) => s.kind)).size).toBe(3);
  });
});

describe('thing model', () => {
  it('each device reports exactly its type’s identifiers, with values of the declared types', () => {
    const fleet = demoFleet(2);
    const t = Date.UTC(2025, 5, 10, 4);
    const s = step(createState(fleet, t - 3_600_000), 3_600_000, t);
    for (const st of fleet.stations) {
      for (const d of st.devices) {
        const values = deviceValues(s, d.code);
        const model = THING_MODEL[d.type];
        expect(Object.keys(values).sort(), d.code).toEqual(model.properties.map((p) => p.identifier).sort());
        for (const p of model.properties) {
          const v = values[p.identifier];
          expect(identifierSchema.safeParse(p.identifier).success).toBe(true);
          expect(telemetryValueSchema.safeParse(v).success, `${d.code}.${p.identifier}`).toBe(true);
          switch (p.dataType) {
            case 'float':
              expect(typeof v, `${d.code}.${p.identifier}`).toBe('number');
              break;
            case 'int':
              expect(Number.isInteger(v), `${d.code}.${p.identifier}`).toBe(true);
              break;
            case 'enum':
              expect(p.enumValues?.map((e) => e.value), `${d.code}.${p.identifier}`).toContain(v);
              break;
            case 'bool':
              expect(typeof v).toBe('boolean');
              break;
            case 'string':
              expect(typeof v).toBe('string');
              break;
          }
        }
      }
    }
  });

  it('big devices report about fifty points; labels are present', () => {
    for (const type of DEVICE_TYPES) {
      const model = THING_MODEL[type];
      expect(model.properties.length).toBeGreaterThan(5);
      expect(new Set(model.properties.map((p) => p.identifier)).size).toBe(model.properties.length);
      for (const p of model.properties) expect(p.label.length).toBeGreaterThan(0);
      expect(model.commands).toEqual(expect.arrayContaining(['reboot', 'faultRecover']));
    }
    expect(THING_MODEL.batteryPack.properties.length).toBeGreaterThanOrEqual(40);
    expect(THING_MODEL.meter.properties.length).toBeGreaterThanOrEqual(25);
  });
});
