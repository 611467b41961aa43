import type { StationDef } from '@ess/simulator';
import type { siteKeyValue } from '../db/schema/site.ts';

type KeyValues = Omit<typeof siteKeyValue.$inferInsert, 'siteId' | 'updatedAt'>;

/**
 * A simulated station's key values as the configuration screen stores them (kWh, kW, %, kV):
 * what the dashboards' cycle count, equivalent hours and info card need, taken from the same
 * definition the simulator plays, so the figures match what it reports.
 */
export function demoKeyValues(st: StationDef): KeyValues {
  const kv = Number.parseFloat(st.voltageLevel);
  return {
    installedCapacity: st.storage.installedEnergy,
    installedPower: st.storage.installedPower,
    depthOfDischarge: Math.round(st.storage.depthOfDischarge * 1000) / 10,
    voltageLevel: Number.isFinite(kv) ? kv : null,
    transformerProtectionPower: st.transformer.protectionPower,
    pvModuleCount: st.pv?.moduleCount ?? null,
    // The simulator runs with anti-backflow on: PV serves the station's own load, none is exported.
    pvWorkingMode: st.pv ? 'selfUse' : null,
    pilePower: st.charging ? st.charging.pileCount * st.charging.pileRatedPower : null,
  };
}
