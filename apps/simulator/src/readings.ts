import type { TelemetryValue } from '@ess/contract';
import { PRICE_PERIODS, meterRegisterIdentifier } from '@ess/contract';
import { clamp, clusterCurrent, clusterSoc, packCells, packSoc } from './battery.ts';
import type { DeviceDef, StationDef } from './fleet.ts';
import { hash01 } from './random.ts';
import type { SimState, StationDynamics, StationState } from './state.ts';
import { activeFaults, capacityOf, devicesOf, findStation, hasFault } from './state.ts';
import { estimatedSoc } from './soc.ts';
import { ETA_PCS, LOAD_Q_RATIO, PILE_Q_RATIO, allowedBatteryPower } from './step.ts';

/**
 * What each device reports at the state's time: a flat record of thing-model identifiers
 * (THING_MODEL in the contract lists exactly these keys per device type).
 */

export type Values = Record<string, TelemetryValue>;

const r = (x: number, digits: number) => {
  const f = 10 ** digits;
  const v = Math.round(x * f) / f;
  return v === 0 ? 0 : v;
};

interface Ctx {
  seed: number;
  t: number;
  def: StationDef;
  dyn: StationDynamics;
  device: DeviceDef;
}

/** Small deterministic measurement noise, ± amp, changing each second. */
function jitter(ctx: Ctx, amp: number, key: string): number {
  return (hash01(ctx.seed, ctx.device.code, key, Math.floor(ctx.t / 1000)) - 0.5) * 2 * amp;
}

const acPhases = (ctx: Ctx, activeKw: number, reactiveKvar: number): Values => {
  const vNom = ctx.def.gridPhaseVoltage;
  const s = Math.hypot(activeKw, reactiveKvar);
  const out: Values = {};
  for (const ph of ['A', 'B', 'C'] as const) {
    const v = vNom + jitter(ctx, vNom * 0.006, `v${ph}`);
    out[`voltage${ph}`] = r(v, 1);
    out[`current${ph}`] = r((s * 1000) / (3 * v) * (1 + jitter(ctx, 0.01, `i${ph}`)), 1);
  }
  out.frequency = r(ctx.def.gridFrequency + jitter(ctx, 0.02, 'f'), 2);
  return out;
};

const powerFactor = (p: number, q: number) => {
  const s = Math.hypot(p, q);
  return s < 0.05 ? 1 : r(Math.abs(p) / s, 3);
};

interface CellMatrix {
  /** [cluster][pack][cell] */
  voltage: number[][][];
  temperature: number[][][];
}

const matrices = new WeakMap<StationDynamics, CellMatrix>();
/** How far a failed cell temperature sensor reads above the cell, K. */
const SENSOR_DRIFT = 28;

/** Every cell's voltage and temperature, computed once per state. */
function cells(seed: number, def: StationDef, dyn: StationDynamics): CellMatrix {
  let m = matrices.get(dyn);
  if (m) return m;
  m = { voltage: [], temperature: [] };
  for (const cl of devicesOf(def, 'batteryCluster')) {
    const c = cl.no ?? 1;
    const cabT = cl.cabinetCode ? (dyn.cabinets[cl.cabinetCode]?.airTemperature ?? 25) : 25;
    const vs: number[][] = [];
    const ts: number[][] = [];
    for (let p = 1; p <= def.storage.packsPerCluster; p++) {
      // A failed temperature sensor (a drifted NTC) reads one cell far too warm until it is reset:
      // the pack's and the cluster's readings cross their temperature warnings with it.
      const pack = `${def.code}-BP-${String(c).padStart(2, '0')}-${String(p).padStart(2, '0')}`;
      const broken = (dyn.randomFaults[pack] ?? []).includes('PACK_TEMPERATURE_SENSOR_FAULT')
        ? 1 + Math.floor(hash01(seed, pack, 'sensor') * def.storage.cellsPerPack)
        : 0;
      const { voltage, temperature } = packCells(def, dyn, seed, cabT, c, p);
      if (broken) temperature[broken - 1]! += SENSOR_DRIFT;
      vs.push(voltage);
      ts.push(temperature);
    }
    m.voltage.push(vs);
    m.temperature.push(ts);
  }
  matrices.set(dyn, m);
  return m;
}

interface Extremes {
  max: number;
  maxAt: number[];
  min: number;
  minAt: number[];
  sum: number;
  count: number;
}

function extremes(values: number[][][], clusterIdx?: number, packIdx?: number): Extremes {
  const e: Extremes = { max: -Infinity, maxAt: [], min: Infinity, minAt: [], sum: 0, count: 0 };
  values.forEach((cluster, c) => {
    if (clusterIdx !== undefined && c !== clusterIdx) return;
    cluster.forEach((pack, p) => {
      if (packIdx !== undefined && p !== packIdx) return;
      pack.forEach((x, n) => {
        e.sum += x;
        e.count++;
        if (x > e.max) { e.max = x; e.maxAt = [c + 1, p + 1, n + 1]; }
        if (x < e.min) { e.min = x; e.minAt = [c + 1, p + 1, n + 1]; }
      });
    });
  });
  return e;
}

function extremeValues(v: Extremes, t: Extremes, positionFrom: number | null): Values {
  const out: Values = {
    maxCellVoltage: r(v.max, 3),
    minCellVoltage: r(v.min, 3),
    maxCellTemperature: r(t.max, 1),
    minCellTemperature: r(t.min, 1),
  };
  if (positionFrom !== null) {
    const pos = (at: number[]) => at.slice(positionFrom).join('-');
    out.maxCellVoltagePosition = pos(v.maxAt);
    out.minCellVoltagePosition = pos(v.minAt);
    out.maxCellTemperaturePosition = pos(t.maxAt);
    out.minCellTemperaturePosition = pos(t.minAt);
  }
  return out;
}

const runState = (ctx: Ctx, powerKw: number): number => {
  if (hasFault(ctx.dyn, ctx.device.code)) return 3;
  if (ctx.dyn.controls.off[ctx.device.code] || ctx.dyn.controls.rebooting[ctx.device.code]) return 0;
  return Math.abs(powerKw) < 0.5 ? 1 : 2;
};

const batteryState = (ctx: Ctx, powerKw: number, faultCode: string): number => {
  if (hasFault(ctx.dyn, faultCode)) return 3;
  return powerKw < -0.5 ? 1 : powerKw > 0.5 ? 2 : 0;
};

function clusterVoltage(m: CellMatrix, c: number): number {
  return (m.voltage[c] ?? []).flat().reduce((a, b) => a + b, 0);
}

function busVoltage(m: CellMatrix): number {
  const n = m.voltage.length;
  let sum = 0;
  for (let c = 0; c < n; c++) sum += clusterVoltage(m, c);
  return n ? sum / n : 0;
}

function ems(ctx: Ctx): Values {
  const { dyn, def } = ctx;
  const c = dyn.controls;
  const f = dyn.flows;
  return {
    runMode: c.runMode,
    strategyState: f.strategy,
    touPeriod: PRICE_PERIODS.indexOf(f.period),
    soc: r(estimatedSoc(def, dyn), 1),
    activePower: r(f.pcs, 2),
    gridPower: r(f.grid, 2),
    loadPower: r(f.load, 2),
    pvPower: r(f.pvAc + f.dcdcOut, 2),
    chargingPilePower: r(f.pile, 2),
    manualPowerSetpoint: c.manualPowerSetpoint,
    manualEndTime: c.runMode === 1 ? c.manualUntil ?? 0 : 0,
    chargePowerSetpoint: c.chargePowerSetpoint,
    dischargePowerSetpoint: c.dischargePowerSetpoint,
    socUpperLimit: c.socUpperLimit,
    socLowerLimit: c.socLowerLimit,
    transformerProtectionPower: c.transformerProtectionPower,
    antiBackflow: c.antiBackflow,
    demandLimit: c.demandLimit,
    todayChargeEnergy: r(dyn.today.pcsCharge, 2),
    todayDischargeEnergy: r(dyn.today.pcsDischarge, 2),
    todayPvEnergy: r(dyn.today.pv, 2),
    todayLoadEnergy: r(dyn.today.load, 2),
    cpuTemperature: r(42 + jitter(ctx, 1.5, 'cpu'), 1),
    communicationOk: !activeFaults(dyn, ctx.device.code).includes('EMS_COMM_LOST'),
    strategyHash: c.ems?.hash ?? '',
  };
}

function pcs(ctx: Ctx): Values {
  const { dyn, def } = ctx;
  const f = dyn.flows;
  const m = cells(ctx.seed, def, dyn);
  const q = Math.abs(f.pcs) > 0.5 ? jitter(ctx, 0.4, 'q') : 0;
  const dcPower = f.battery + f.dcdcOut;
  const dcV = busVoltage(m);
  const rated = def.storage.installedPower;
  return {
    state: runState(ctx, f.pcs),
    onOff: !dyn.controls.off[ctx.device.code],
    activePower: r(f.pcs, 2),
    reactivePower: r(q, 2),
    apparentPower: r(Math.hypot(f.pcs, q), 2),
    powerFactor: powerFactor(f.pcs, q),
    ...acPhases(ctx, f.pcs, q),
    dcVoltage: r(dcV, 1),
    dcCurrent: r(dcV > 0 ? (dcPower * 1000) / dcV : 0, 1),
    dcPower: r(dcPower, 2),
    efficiency: Math.abs(f.pcs) > 0.5 ? r(ETA_PCS * 100 + jitter(ctx, 0.2, 'eff'), 2) : 0,
    igbtTemperature: r(f.outdoorTemperature + 12 + (30 * Math.abs(f.pcs)) / rated, 1),
    ambientTemperature: r(f.outdoorTemperature + 4, 1),
    ratedPower: rated,
    powerLimit: dyn.controls.pcsPowerLimit,
    todayChargeEnergy: r(dyn.today.pcsCharge, 2),
    todayDischargeEnergy: r(dyn.today.pcsDischarge, 2),
    totalChargeEnergy: r(dyn.total.pcsCharge, 2),
    totalDischargeEnergy: r(dyn.total.pcsDischarge, 2),
  };
}

function bms(ctx: Ctx): Values {
  const { dyn, def, seed } = ctx;
  const m = cells(seed, def, dyn);
  const v = extremes(m.voltage);
  const t = extremes(m.temperature);
  const clusters = devicesOf(def, 'batteryCluster');
  const current = clusters.reduce((a, cl) => a + clusterCurrent(def, dyn, seed, cl.no ?? 1), 0);
  const cap = capacityOf(def, dyn);
  const c = dyn.controls;
  const soc = estimatedSoc(def, dyn);
  const allowed = allowedBatteryPower(def, dyn);
  const insulationLow = activeFaults(dyn, ctx.device.code).includes('BMS_INSULATION_LOW');
  const cycles = (dyn.total.batteryCharge + dyn.total.batteryDischarge) / (def.storage.depthOfDischarge * 2 * def.storage.installedEnergy);
  return {
    state: batteryState(ctx, dyn.flows.battery, ctx.device.code),
    soc: r(soc, 1),
    soh: r(dyn.soh * 100, 1),
    voltage: r(busVoltage(m), 1),
    current: r(current, 1),
    power: r(dyn.flows.battery, 2),
    ...extremeValues(v, t, 0),
    avgCellVoltage: r(v.sum / Math.max(1, v.count), 3),
    avgCellTemperature: r(t.sum / Math.max(1, t.count), 1),
    allowedChargePower: r(allowed.charge, 1),
    allowedDischargePower: r(allowed.discharge, 1),
    chargeableEnergy: r(Math.max(0, (cap * (c.socUpperLimit - soc)) / 100), 1),
    dischargeableEnergy: r(Math.max(0, (cap * (soc - c.socLowerLimit)) / 100), 1),
    ratedEnergy: def.storage.installedEnergy,
    insulationResistancePositive: r((insulationLow ? 85 : 2400) + jitter(ctx, 40, 'ins+'), 0),
    insulationResistanceNegative: r((insulationLow ? 92 : 2300) + jitter(ctx, 40, 'ins-'), 0),
    mainContactor: !hasFault(dyn, ctx.device.code),
    clusterCount: def.storage.clusterCount,
    cycleCount: r(cycles, 1),
    todayChargeEnergy: r(dyn.today.batteryCharge, 2),
    todayDischargeEnergy: r(dyn.today.batteryDischarge, 2),
    totalChargeEnergy: r(dyn.total.batteryCharge, 2),
    totalDischargeEnergy: r(dyn.total.batteryDischarge, 2),
  };
}

function batteryCluster(ctx: Ctx): Values {
  const { dyn, def, seed, device } = ctx;
  const m = cells(seed, def, dyn);
  const c = device.no ?? 1;
  const v = extremes(m.voltage, c - 1);
  const t = extremes(m.temperature, c - 1);
  const voltage = clusterVoltage(m, c - 1);
  const current = clusterCurrent(def, dyn, seed, c);
  return {
    state: batteryState(ctx, (voltage * current) / 1000, device.code),
    soc: r(clamp(clusterSoc(def, dyn, seed, c) + dyn.socError, 0, 100), 1),
    soh: r(dyn.soh * 100 + (hash01(seed, device.code, 'soh') - 0.5) * 0.6, 1),
    voltage: r(voltage, 1),
    current: r(current, 1),
    power: r((voltage * current) / 1000, 2),
    ...extremeValues(v, t, 1),
    avgCellVoltage: r(v.sum / Math.max(1, v.count), 3),
    avgCellTemperature: r(t.sum / Math.max(1, t.count), 1),
    cellVoltageDifference: r((v.max - v.min) * 1000, 0),
    insulationResistance: r(2350 + jitter(ctx, 50, 'ins'), 0),
    contactor: !activeFaults(dyn, device.code).includes('CLUSTER_CONTACTOR_FAULT'),
    packCount: def.storage.packsPerCluster,
  };
}

function batteryPack(ctx: Ctx): Values {
  const { dyn, def, seed, device } = ctx;
  const m = cells(seed, def, dyn);
  const c = device.no ?? 1;
  const p = device.subNo ?? 1;
  const v = extremes(m.voltage, c - 1, p - 1);
  const t = extremes(m.temperature, c - 1, p - 1);
  const out: Values = {
    soc: r(clamp(packSoc(def, dyn, seed, c, p) + dyn.socError, 0, 100), 1),
    voltage: r(v.sum, 2),
    current: r(clusterCurrent(def, dyn, seed, c), 1),
    ...extremeValues(v, t, null),
    avgCellTemperature: r(t.sum / Math.max(1, t.count), 1),
    balancing: dyn.flows.battery < -0.5 && packSoc(def, dyn, seed, c, p) > 85 && v.max - v.min > 0.015,
  };
  const volts = m.voltage[c - 1]?.[p - 1] ?? [];
  const temps = m.temperature[c - 1]?.[p - 1] ?? [];
  volts.forEach((x, i) => { out[`cellVoltage${i + 1}`] = r(x, 3); });
  temps.forEach((x, i) => { out[`cellTemperature${i + 1}`] = r(x, 1); });
  return out;
}

function airConditioner(ctx: Ctx): Values {
  const { dyn, device } = ctx;
  const ctl = dyn.controls.airConditioners[device.code] ?? { on: false, mode: 5, setpoint: 25, fanSpeed: 0 };
  const cab = device.cabinetCode ? dyn.cabinets[device.cabinetCode] : undefined;
  const air = cab?.airTemperature ?? 25;
  return {
    onOff: ctl.on && !dyn.controls.off[device.code],
    mode: ctl.mode,
    setTemperature: ctl.setpoint,
    fanSpeed: ctl.fanSpeed,
    cabinetTemperature: r(air, 1),
    supplyAirTemperature: r(cab?.compressor ? air - 10 : cab?.heater ? air + 12 : air + 0.5, 1),
    outdoorTemperature: r(dyn.flows.outdoorTemperature, 1),
    humidity: r(clamp(cab?.humidity ?? 55, 5, 95), 1),
    compressorRunning: cab?.compressor ?? false,
    heaterRunning: cab?.heater ?? false,
    power: r(cab?.acPower ?? 0, 2),
    totalEnergy: r(cab?.acEnergy ?? 0, 2),
  };
}

function pvStringVoltage(ctx: Ctx, key: string): number {
  const g = ctx.dyn.flows.irradiance;
  if (g < 5) return 0;
  return 560 + 60 * Math.min(1, g / 200) - 1.5 * (ctx.dyn.flows.outdoorTemperature + (g / 800) * 25 - 25) + jitter(ctx, 3, key);
}

function dcdc(ctx: Ctx): Values {
  const { dyn, def, device } = ctx;
  const f = dyn.flows;
  const m = cells(ctx.seed, def, dyn);
  const pvV = pvStringVoltage(ctx, 'pvV');
  const busV = busVoltage(m);
  return {
    state: runState(ctx, f.dcdcOut),
    onOff: !dyn.controls.off[device.code],
    pvVoltage: r(pvV, 1),
    pvCurrent: r(pvV > 0 ? (f.dcdcPv * 1000) / pvV : 0, 1),
    pvPower: r(f.dcdcPv, 2),
    batteryVoltage: r(busV, 1),
    batteryCurrent: r(busV > 0 ? (f.dcdcOut * 1000) / busV : 0, 1),
    outputPower: r(f.dcdcOut, 2),
    efficiency: f.dcdcOut > 0.5 ? r((f.dcdcOut / f.dcdcPv) * 100, 2) : 0,
    temperature: r(f.outdoorTemperature + 5 + (20 * f.dcdcOut) / (device.ratedPower ?? 100), 1),
    todayEnergy: r(dyn.today.device[device.code] ?? 0, 2),
    totalEnergy: r(dyn.total.device[device.code] ?? 0, 2),
  };
}

function pvInverter(ctx: Ctx): Values {
  const { dyn, device } = ctx;
  const f = dyn.flows;
  const ac = f.pvInverterAc[device.code] ?? 0;
  const dc = f.pvInverterDc[device.code] ?? 0;
  const out: Values = {
    state: runState(ctx, ac),
    onOff: !dyn.controls.off[device.code],
    activePower: r(ac, 2),
    reactivePower: 0,
    powerFactor: 1,
    ...acPhases(ctx, ac, 0),
  };
  let dcSum = 0;
  const mppts = 4;
  for (let i = 1; i <= mppts; i++) {
    const v = pvStringVoltage(ctx, `mppt${i}`);
    const p = i < mppts ? (dc / mppts) * (1 + jitter(ctx, 0.02, `mpptP${i}`)) : dc - dcSum;
    dcSum += p;
    out[`mppt${i}Voltage`] = r(v, 1);
    out[`mppt${i}Current`] = r(v > 0 ? (p * 1000) / v : 0, 2);
    out[`mppt${i}Power`] = r(p, 2);
  }
  out.dcPower = r(dc, 2);
  out.efficiency = dc > 0.5 ? r((ac / dc) * 100, 2) : 0;
  out.internalTemperature = r(f.outdoorTemperature + 6 + (22 * ac) / (device.ratedPower ?? 50), 1);
  out.irradiance = r(f.irradiance, 1);
  out.ratedPower = device.ratedPower ?? 0;
  out.todayEnergy = r(dyn.today.device[device.code] ?? 0, 2);
  out.totalEnergy = r(dyn.total.device[device.code] ?? 0, 2);
  return out;
}

function transformer(ctx: Ctx): Values {
  const { dyn, def, device } = ctx;
  const f = dyn.flows;
  const q = f.load * LOAD_Q_RATIO + f.pile * PILE_Q_RATIO;
  const s = Math.hypot(f.grid, q);
  const rated = device.ratedPower ?? 1;
  const lr = s / rated;
  const currents: Values = {};
  for (const ph of ['A', 'B', 'C'] as const) {
    currents[`current${ph}`] = r(((s * 1000) / (3 * def.gridPhaseVoltage)) * (1 + jitter(ctx, 0.01, `i${ph}`)), 1);
  }
  return {
    loadRate: r(lr * 100, 1),
    activePower: r(f.grid, 2),
    reactivePower: r(q, 2),
    apparentPower: r(s, 2),
    ratedCapacity: rated,
    ...currents,
    windingTemperature: r(dyn.transformerOilTemperature + 12 * lr ** 1.6, 1),
    oilTemperature: r(dyn.transformerOilTemperature, 1),
  };
}

function meter(ctx: Ctx): Values {
  const ms = ctx.dyn.meters[ctx.device.code];
  if (!ms) return {};
  const out: Values = {
    activePower: r(ms.power, 2),
    reactivePower: r(ms.reactivePower, 2),
    powerFactor: powerFactor(ms.power, ms.reactivePower),
    ...acPhases(ctx, ms.power, ms.reactivePower),
  };
  for (const dir of ['forward', 'reverse'] as const) {
    const regs = ms[dir];
    // The total is the sum of the rounded period registers, so it also never decreases.
    let total = 0;
    for (const p of PRICE_PERIODS) {
      const v = r(regs[p], 2);
      out[meterRegisterIdentifier(dir, p)] = v;
      total += v;
    }
    out[meterRegisterIdentifier(dir)] = r(total, 2);
  }
  out.demand = r(ms.demand, 2);
  out.maxDemand = r(ms.maxDemand, 2);
  out.maxDemandTime = ms.maxDemandTime;
  return out;
}

function chargingPile(ctx: Ctx): Values {
  const { dyn, def, device } = ctx;
  const ac = dyn.flows.pileAc[device.code] ?? 0;
  const guns = devicesOf(def, 'chargingGun').filter((g) => g.parentCode === device.code);
  const output = guns.reduce((a, g) => a + (dyn.guns[g.code]?.power ?? 0), 0);
  const q = ac * PILE_Q_RATIO;
  const phases = acPhases(ctx, ac, q);
  const rated = device.ratedPower ?? 120;
  return {
    state: runState(ctx, output),
    onOff: !dyn.controls.off[device.code],
    power: r(ac, 2),
    outputPower: r(output, 2),
    voltageA: phases.voltageA ?? 0,
    voltageB: phases.voltageB ?? 0,
    voltageC: phases.voltageC ?? 0,
    currentA: phases.currentA ?? 0,
    currentB: phases.currentB ?? 0,
    currentC: phases.currentC ?? 0,
    ratedPower: rated,
    powerLimit: dyn.controls.pilePowerLimit[device.code] ?? rated,
    temperature: r(dyn.flows.outdoorTemperature + 5 + (15 * ac) / rated, 1),
    gunCount: guns.length,
    todayEnergy: r(dyn.today.device[device.code] ?? 0, 2),
    totalEnergy: r(dyn.total.device[device.code] ?? 0, 2),
    todaySessions: dyn.today.pileSessions[device.code] ?? 0,
  };
}

function chargingGun(ctx: Ctx): Values {
  const { dyn, device, t } = ctx;
  const g = dyn.guns[device.code];
  const pileFault = device.parentCode !== null && hasFault(dyn, device.parentCode);
  let state = 0;
  if (hasFault(dyn, device.code) || pileFault) state = 4;
  else if (g?.phase === 'plugged') state = 1;
  else if (g?.phase === 'charging') state = g.power > 0 ? 2 : 1;
  else if (g?.phase === 'finished') state = 3;
  const v = g?.vehicle;
  const voltage = v ? 340 + 0.9 * v.soc + jitter(ctx, 1, 'v') : 0;
  const power = g?.power ?? 0;
  const rated = device.ratedPower ?? 60;
  return {
    state,
    power: r(power, 2),
    voltage: r(voltage, 1),
    current: r(voltage > 0 ? (power * 1000) / voltage : 0, 1),
    maxPower: dyn.controls.gunMaxPower[device.code] ?? rated,
    vehicleSoc: r(v?.soc ?? 0, 1),
    sessionEnergy: r(g?.sessionEnergy ?? 0, 2),
    sessionDuration: v && g ? Math.max(0, Math.round((t - g.sessionStart) / 1000)) : 0,
    temperature: r(dyn.flows.outdoorTemperature + 3 + 25 * (power / rated) ** 2, 1),
    warnMask: dyn.controls.warnMask[device.code] ?? 0,
    totalEnergy: r(g?.totalEnergy ?? 0, 2),
  };
}

function valuesFor(ctx: Ctx): Values {
  switch (ctx.device.type) {
    case 'ems': return ems(ctx);
    case 'pcs': return pcs(ctx);
    case 'bms': return bms(ctx);
    case 'batteryCluster': return batteryCluster(ctx);
    case 'batteryPack': return batteryPack(ctx);
    case 'airConditioner': return airConditioner(ctx);
    case 'dcdc': return dcdc(ctx);
    case 'pvInverter': return pvInverter(ctx);
    case 'transformer': return transformer(ctx);
    case 'meter': return meter(ctx);
    case 'chargingPile': return chargingPile(ctx);
    case 'chargingGun': return chargingGun(ctx);
  }
}

/** The telemetry values of one device of a station at the state's time. */
export function stationDeviceValues(state: SimState, station: StationState, device: DeviceDef): Values {
  return valuesFor({ seed: state.seed, t: state.timeMs, def: station.def, dyn: station.dyn, device });
}

/** The telemetry values of a device by code; throws for an unknown code. */
export function deviceValues(state: SimState, deviceCode: string): Values {
  const found = findStation(state, deviceCode);
  if (!found) throw new Error(`unknown device ${deviceCode}`);
  return stationDeviceValues(state, found.station, found.device);
}
