import { capToImportLine, emsImportLine, localTime, periodAt, type PricePeriod } from '@ess/contract';
import { clamp, hottestCellEstimate } from './battery.ts';
import { arrivalProbability, baseLoad, irradiance, outdoorTemperature } from './environment.ts';
import type { DeviceDef, Fleet, StationDef } from './fleet.ts';
import { updateIncidents } from './incidents.ts';
import { hash01, hashRange, valueNoise } from './random.ts';
import { estimatedSoc, trackSocEstimate } from './soc.ts';
import { expireManualMode, isStandby } from './storage-mode.ts';
import type { Counters, GunState, SimOptions, SimState, StationDynamics, StationState } from './state.ts';
import { capacityOf, commission, createState, devicesOf, hasFault, socOf } from './state.ts';
import { guardFloor, strategyTarget as scheduledTarget } from './strategy.ts';

/**
 * Efficiencies, one way. The battery's covers the cells' resistance and polarisation, the rack's
 * wiring, contactors and fuses and the BMS's own draw: about 0.90 round trip at its terminals (what
 * the BMS's registers count). With the PCS both ways, about 0.87 meter to meter. Real LFP systems
 * with PCS and auxiliary losses measure 0.85–0.92 (DOMAIN.md §2); both ends stay inside.
 */
export const ETA_PCS = 0.98;
export const ETA_BATTERY = 0.951;
const ETA_PV_INVERTER = 0.975;
const ETA_DCDC = 0.98;
/** Charging pile: AC input → DC to the vehicle. */
export const ETA_PILE = 0.95;
/** Power factors of the load and of the piles (PCS and PV run at unity). */
export const LOAD_Q_RATIO = Math.tan(Math.acos(0.95));
export const PILE_Q_RATIO = Math.tan(Math.acos(0.99));
/** SOC band near each limit over which the BMS tapers its allowed power to zero, %. */
const TAPER_SOC = 3;
/** Sub-steps never cross an epoch minute: each lies in one price period and one local day. */
const SUB_STEP_MS = 60_000;
const SLOT_MS = 900_000;
const HOUR_MS = 3_600_000;

/** AC side from DC side of a converter (x + = towards AC). */
const toAc = (dc: number, eta: number) => (dc > 0 ? dc * eta : dc / eta);
const toDc = (ac: number, eta: number) => (ac > 0 ? ac / eta : ac * eta);

/** Deep copy of plain JSON-like data (several times faster than structuredClone for the state). */
export function clonePlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => clonePlain(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clonePlain(v);
    return out as T;
  }
  return value;
}

/**
 * Advances the fleet from `nowMs − dtMs` to `nowMs` and returns the new state; the input is not
 * changed. Deterministic: the same state, dt and now give the same result, and the weather, load,
 * arrivals and random faults are functions of the seed and the instant, not of the step size.
 */
export function step(state: SimState, dtMs: number, nowMs: number): SimState {
  if (!(dtMs > 0)) return state;
  const next: SimState = {
    ...state,
    timeMs: nowMs,
    stations: state.stations.map((s) => ({ def: s.def, dyn: clonePlain(s.dyn) })),
  };
  const rate = next.options.randomFaultsPerDevicePerDay;
  let t = nowMs - dtMs;
  while (t < nowMs) {
    const t1 = Math.min(nowMs, (Math.floor(t / SUB_STEP_MS) + 1) * SUB_STEP_MS);
    for (const station of next.stations) {
      expireManualMode(station.dyn.controls, t);
      // The incidents of the sub-step's start act on its physics (a faulted converter stops).
      updateIncidents(station.def, station.dyn, next.seed, t, rate);
      subStep(station, next.seed, t, t1, rate > 0);
    }
    t = t1;
  }
  for (const station of next.stations) {
    expireManualMode(station.dyn.controls, nowMs);
    updateIncidents(station.def, station.dyn, next.seed, nowMs, rate);
  }
  return next;
}

function resetCounters(c: Counters): void {
  c.pcsCharge = 0;
  c.pcsDischarge = 0;
  c.batteryCharge = 0;
  c.batteryDischarge = 0;
  c.pv = 0;
  c.load = 0;
  c.device = {};
  c.pileSessions = {};
}

const isOn = (dyn: StationDynamics, code: string | undefined) =>
  code !== undefined && !dyn.controls.off[code] && !dyn.controls.rebooting[code] && !hasFault(dyn, code);

function subStep(station: StationState, seed: number, t0: number, t1: number, socDrift: boolean): void {
  const { def, dyn } = station;
  const c = dyn.controls;
  const dtH = (t1 - t0) / HOUR_MS;
  const tm = (t0 + t1) / 2;
  const local = localTime(t0, def.timeZone);
  if (local.dateKey !== dyn.dateKey) {
    dyn.dateKey = local.dateKey;
    resetCounters(dyn.today);
  }
  if (local.monthKey !== dyn.monthKey) {
    dyn.monthKey = local.monthKey;
    for (const m of Object.values(dyn.meters)) {
      m.maxDemand = 0;
      m.maxDemandTime = 0;
    }
  }
  const period = periodAt(def.touSchedule, local.minuteOfDay);
  const tOut = outdoorTemperature(def, seed, tm);
  const g = irradiance(def, seed, tm);

  // Air conditioners decide on the cabinet temperature at the start of the sub-step.
  let aux = 0;
  for (const ac of devicesOf(def, 'airConditioner')) {
    const cab = ac.cabinetCode ? dyn.cabinets[ac.cabinetCode] : undefined;
    const ctl = c.airConditioners[ac.code];
    if (!cab || !ctl) continue;
    thermostat(cab, ctl, isOn(dyn, ac.code) && ctl.on, !c.rebooting[ac.code] && !c.off[ac.code] && ctl.on);
    cab.acPower = (cab.compressor ? coolingElectric(ctl.fanSpeed) : 0) + (cab.heater ? HEATER_KW : 0) + (ctl.on && !c.off[ac.code] ? FAN_KW : 0);
    aux += cab.acPower;
  }
  const load = baseLoad(def, seed, tm) + aux;

  // PV available.
  const derate = 0.9 * (1 - 0.0038 * (tOut + (g / 800) * 25 - 25));
  const pvInverterDc: Record<string, number> = {};
  const pvInverterAc: Record<string, number> = {};
  let pvAcAvail = 0;
  const inverters = devicesOf(def, 'pvInverter');
  for (const inv of inverters) {
    const rated = inv.ratedPower ?? 0;
    const dc = isOn(dyn, inv.code) && def.pv ? Math.min(rated / ETA_PV_INVERTER, ((def.pv.peakPower / inverters.length) * g * derate) / 1000) : 0;
    pvInverterDc[inv.code] = dc;
    pvInverterAc[inv.code] = dc * ETA_PV_INVERTER;
    pvAcAvail += dc * ETA_PV_INVERTER;
  }
  const dcdc = devicesOf(def, 'dcdc')[0];
  let dcdcPv = 0;
  let dcdcAvail = 0;
  if (dcdc && def.pv && isOn(dyn, dcdc.code)) {
    dcdcPv = Math.min((dcdc.ratedPower ?? 0) / ETA_DCDC, (def.pv.peakPower * g * derate) / 1000);
    dcdcAvail = dcdcPv * ETA_DCDC;
  }

  // Charging piles.
  const { pileAc, pileTotal } = stepPiles(def, dyn, seed, t0, t1, dtH);

  // EMS dispatch.
  const pcs = devicesOf(def, 'pcs')[0];
  const bms = devicesOf(def, 'bms')[0];
  const ems = devicesOf(def, 'ems')[0];
  const cap = capacityOf(def, dyn);
  const limP = isOn(dyn, pcs?.code) ? Math.max(0, Math.min(def.storage.installedPower, c.pcsPowerLimit)) : 0;
  const eMin = (cap * c.socLowerLimit) / 100;
  const eMax = (cap * c.socUpperLimit) / 100;
  // The EMS and the BMS go by the BMS's estimate (soc.ts); the cells by what is really there.
  const eEstimated = clamp(dyn.energy + (cap * dyn.socError) / 100, 0, cap);
  const allowed = allowedBatteryPower(def, dyn);
  const maxDis = Math.min(allowed.discharge, Math.max(0, ((eEstimated - eMin) * ETA_BATTERY) / dtH), (dyn.energy * ETA_BATTERY) / dtH);
  const maxChg = Math.min(allowed.charge, Math.max(0, (eMax - eEstimated) / (ETA_BATTERY * dtH)), (cap - dyn.energy) / (ETA_BATTERY * dtH));
  const dcCoupled = def.pv?.coupling === 'dc';
  const emsActive = isOn(dyn, ems?.code);

  const netAc = load + pileTotal - pvAcAvail;
  let target = 0;
  if (emsActive) {
    // A synchronised strategy replaces the built-in time-of-use behaviour in auto mode (manual and standby still win).
    const scheduled = c.runMode !== 0 ? null : scheduledTarget(c, local, cap > 0 ? (eEstimated / cap) * 100 : 0);
    target = scheduled ?? strategyTarget(c.runMode, c.manualPowerSetpoint, c.chargePowerSetpoint, c.dischargePowerSetpoint, period);
  }
  let desired = target + (dcCoupled ? toAc(dcdcAvail, ETA_PCS) : 0);
  if (emsActive) {
    // The import line (transformer protection, demand target less margin): charging reduced, discharge added.
    desired = capToImportLine(desired, netAc, emsImportLine(c.transformerProtectionPower, c.demandLimit > 0 ? c.demandLimit : null, c.demandMargin ?? 0));
    // A demand guard (auto mode): at least its discharge (the SOC and PCS limits below still apply).
    const guard = c.runMode === 0 ? guardFloor(c, t0) : 0;
    if (guard > 0) desired = Math.max(desired, guard);
  }
  const hi = c.antiBackflow ? netAc : Infinity;
  desired = clamp(Math.min(desired, hi), -limP, limP);

  let battery = clamp(toDc(desired, ETA_PCS) - (dcCoupled ? dcdcAvail : 0), -maxChg, maxDis);
  if (isStandby(c)) battery = 0;
  let pcsAc: number;
  let dcdcOut = 0;
  let pvAc = 0;
  if (dcCoupled) {
    const upper = Math.max(0, Math.min(hi, limP));
    if (battery > toDc(upper, ETA_PCS)) battery = toDc(upper, ETA_PCS);
    dcdcOut = dcdcAvail;
    if (toAc(battery + dcdcOut, ETA_PCS) > upper) dcdcOut = Math.max(0, toDc(upper, ETA_PCS) - battery);
    pcsAc = toAc(battery + dcdcOut, ETA_PCS);
  } else {
    pcsAc = toAc(battery, ETA_PCS);
    pvAc = pvAcAvail;
    const export_ = pcsAc + pvAc - load - pileTotal;
    if (c.antiBackflow && export_ > 0 && pvAc > 0) {
      const keep = Math.max(0, pvAc - export_) / pvAc;
      for (const code of Object.keys(pvInverterAc)) {
        pvInverterAc[code] = (pvInverterAc[code] ?? 0) * keep;
        pvInverterDc[code] = (pvInverterDc[code] ?? 0) * keep;
      }
      pvAc *= keep;
    }
  }
  const dcdcPvUsed = dcdcAvail > 0 ? (dcdcPv * dcdcOut) / dcdcAvail : 0;
  const grid = load + pileTotal - pvAc - pcsAc;

  // Integrate the battery (the limits above keep the estimate inside socLower..socUpper, the
  // truth inside 0..100); the BMS's estimate drifts, and is calibrated at a knee of the curve.
  const socBefore = socOf(def, dyn);
  dyn.energy = clamp(dyn.energy - (battery > 0 ? battery / ETA_BATTERY : battery * ETA_BATTERY) * dtH, 0, cap);
  trackSocEstimate(def, dyn, seed, socBefore, socDrift);

  // Counters.
  for (const cnt of [dyn.today, dyn.total]) {
    if (pcsAc > 0) cnt.pcsDischarge += pcsAc * dtH;
    else cnt.pcsCharge -= pcsAc * dtH;
    if (battery > 0) cnt.batteryDischarge += battery * dtH;
    else cnt.batteryCharge -= battery * dtH;
    cnt.pv += (pvAc + dcdcOut) * dtH;
    cnt.load += load * dtH;
    if (dcdc) cnt.device[dcdc.code] = (cnt.device[dcdc.code] ?? 0) + dcdcOut * dtH;
    for (const [code, p] of Object.entries(pvInverterAc)) cnt.device[code] = (cnt.device[code] ?? 0) + p * dtH;
    for (const pile of devicesOf(def, 'chargingPile')) {
      cnt.device[pile.code] = (cnt.device[pile.code] ?? 0) + ((pileAc[pile.code] ?? 0) * ETA_PILE) * dtH;
    }
  }

  // Meters: forward/reverse per period of the sub-step's local time.
  const qLoad = load * LOAD_Q_RATIO;
  const qPile = pileTotal * PILE_Q_RATIO;
  for (const m of devicesOf(def, 'meter')) {
    const ms = dyn.meters[m.code];
    if (!ms) continue;
    let p = 0;
    let q = 0;
    switch (m.meterPurpose) {
      case 'main': p = grid; q = qLoad + qPile; break;
      case 'storage': p = -pcsAc; break;
      case 'pv': p = pvAc; break;
      case 'pile': p = pileTotal; q = qPile; break;
      case undefined: break;
    }
    // No negative zero: the state must survive a JSON round trip unchanged (state file).
    ms.power = p || 0;
    ms.reactivePower = q || 0;
    const e = p * dtH;
    if (e > 0) ms.forward[period] += e;
    else if (e < 0) ms.reverse[period] -= e;
    // Fixed 15-minute demand windows (DOMAIN.md §4), on forward (import) power.
    const window = Math.floor(t0 / SLOT_MS) * SLOT_MS;
    if (window !== ms.demandWindowStart) {
      const complete = ms.demandWindowStart + SLOT_MS === window;
      ms.demand = complete ? ms.demandWindowEnergy * 4 : ms.demand;
      if (complete && ms.demand > ms.maxDemand) {
        ms.maxDemand = ms.demand;
        ms.maxDemandTime = window;
      }
      ms.demandWindowStart = window;
      ms.demandWindowEnergy = 0;
    }
    if (e > 0) ms.demandWindowEnergy += e;
  }

  // Cabinet air: battery losses + exchange with outdoors + air conditioning.
  const clusters = devicesOf(def, 'batteryCluster');
  const lossPerCluster = (Math.abs(battery) * (1 - ETA_BATTERY)) / Math.max(1, clusters.length);
  const dtS = (t1 - t0) / 1000;
  for (const cl of clusters) {
    const cab = cl.cabinetCode ? dyn.cabinets[cl.cabinetCode] : undefined;
    if (!cab) continue;
    const ac = devicesOf(def, 'airConditioner').find((a) => a.cabinetCode === cl.cabinetCode);
    const ctl = ac ? c.airConditioners[ac.code] : undefined;
    const fanOnly = ctl?.on === true && ctl.mode === 3 && !c.off[ac?.code ?? ''];
    const ua = 0.12 + (fanOnly ? 0.25 : 0);
    const cooling = cab.compressor ? coolingThermal(ctl?.fanSpeed ?? 0) * (ctl?.mode === 4 ? 0.5 : 1) : 0;
    const heat = lossPerCluster + 0.2 + ua * (tOut - cab.airTemperature) + (cab.heater ? HEATER_KW : 0) - cooling;
    cab.airTemperature += (heat * dtS) / CABINET_HEAT_CAPACITY;
    const rhTarget = 45 + 25 * valueNoise(tm, 4 * HOUR_MS, seed, def.code, 'rh', cl.code) - (cab.compressor ? 10 : 0);
    cab.humidity += (rhTarget - cab.humidity) * (1 - Math.exp(-dtS / 1800));
    cab.acEnergy += cab.acPower * dtH;
  }

  // Transformer oil follows the load with a 2 h time constant.
  const tr = devicesOf(def, 'transformer')[0];
  const loadRate = tr?.ratedPower ? Math.hypot(grid, qLoad + qPile) / tr.ratedPower : 0;
  const oilTarget = tOut + 8 + 45 * loadRate * loadRate;
  dyn.transformerOilTemperature += (oilTarget - dyn.transformerOilTemperature) * (1 - Math.exp(-(t1 - t0) / (2 * HOUR_MS)));

  dyn.flows = {
    load,
    aux,
    irradiance: g,
    outdoorTemperature: tOut,
    pvAc: pvAc || 0,
    pvInverterAc,
    pvInverterDc,
    dcdcPv: dcdcPvUsed,
    dcdcOut: dcdcOut || 0,
    pcs: pcsAc || 0,
    battery: battery || 0,
    pile: pileTotal,
    pileAc,
    grid: grid || 0,
    strategy: battery < -0.5 ? 1 : battery > 0.5 ? 2 : 0,
    period,
  };

  // Threshold faults, with hysteresis.
  if (bms) {
    let hottest = -Infinity;
    for (const cl of clusters) {
      const cab = cl.cabinetCode ? dyn.cabinets[cl.cabinetCode] : undefined;
      if (cab) hottest = Math.max(hottest, hottestCellEstimate(def, dyn, seed, cab.airTemperature, cl.no ?? 1));
    }
    setAutoFault(dyn, bms.code, 'BMS_CELL_OVER_TEMPERATURE', hottest >= 50 ? true : hottest < 45 ? false : null);
  }
  if (tr) setAutoFault(dyn, tr.code, 'TRANSFORMER_OVERLOAD', loadRate > 1 ? true : loadRate < 0.95 ? false : null);
}

/**
 * What the BMS allows now, DC kW: the battery's rating (the PCS's with margin), tapering to zero
 * over the last few % of its SOC estimate before each SOC limit (none beyond: a BMS that has just
 * corrected its SOC below the lower limit allows no discharge); zero with the BMS faulted or rebooting.
 */
export function allowedBatteryPower(def: StationDef, dyn: StationDynamics): { charge: number; discharge: number } {
  const bms = devicesOf(def, 'bms')[0];
  if (!isOn(dyn, bms?.code)) return { charge: 0, discharge: 0 };
  const rated = (def.storage.installedPower / ETA_PCS) * 1.05;
  const soc = estimatedSoc(def, dyn);
  const c = dyn.controls;
  return {
    charge: rated * clamp((c.socUpperLimit - soc) / TAPER_SOC, 0, 1),
    discharge: rated * clamp((soc - c.socLowerLimit) / TAPER_SOC, 0, 1),
  };
}

function strategyTarget(runMode: 0 | 1 | 2, manual: number, charge: number, discharge: number, period: PricePeriod): number {
  if (runMode === 1) return manual;
  if (runMode === 2) return 0;
  switch (period) {
    case 'valley':
    case 'deepValley':
      return -charge;
    case 'peak':
    case 'tip':
      return discharge;
    case 'flat':
      return 0;
  }
}

// Cabinet thermal model: ~2.5 t of battery and steel, kJ/K.
const CABINET_HEAT_CAPACITY = 2500;
const FAN_KW = 0.25;
const HEATER_KW = 3;
const COP = 2.8;
const coolingThermal = (fanSpeed: number) => (fanSpeed === 1 ? 6 : fanSpeed === 2 ? 8 : 10);
const coolingElectric = (fanSpeed: number) => coolingThermal(fanSpeed) / COP;

/** Thermostat with hysteresis; mode per AIR_CONDITIONER_MODES (1 cool, 2 heat, 3 fan, 4 dry, 5 auto). */
function thermostat(
  cab: StationDynamics['cabinets'][string],
  ctl: StationDynamics['controls']['airConditioners'][string],
  compressorAvailable: boolean,
  running: boolean,
): void {
  const t = cab.airTemperature;
  const canCool = running && compressorAvailable && (ctl.mode === 1 || ctl.mode === 4 || ctl.mode === 5);
  const canHeat = running && (ctl.mode === 2 || ctl.mode === 5);
  if (!canCool) cab.compressor = false;
  else if (t > ctl.setpoint + 1.5) cab.compressor = true;
  else if (t < ctl.setpoint - 1.5) cab.compressor = false;
  const heatOn = ctl.mode === 2 ? ctl.setpoint - 1.5 : ctl.setpoint - 10;
  const heatOff = ctl.mode === 2 ? ctl.setpoint + 0.5 : ctl.setpoint - 7;
  if (!canHeat) cab.heater = false;
  else if (t < heatOn) cab.heater = true;
  else if (t > heatOff) cab.heater = false;
}

function setAutoFault(dyn: StationDynamics, deviceCode: string, code: string, on: boolean | null): void {
  if (on === null) return;
  const list = dyn.autoFaults[deviceCode] ?? [];
  const has = list.includes(code);
  if (on && !has) dyn.autoFaults[deviceCode] = [...list, code];
  if (!on && has) dyn.autoFaults[deviceCode] = list.filter((x) => x !== code);
}

/** Vehicle acceptance: full power to 80 % SOC, then tapering to a tenth at 100 %. */
function acceptance(v: NonNullable<GunState['vehicle']>): number {
  return v.maxPower * (v.soc < 80 ? 1 : Math.max(0.1, (100 - v.soc) / 20));
}

function advancePhase(g: GunState, t: number): void {
  if (g.phase === 'plugged' && g.phaseUntil <= t) g.phase = 'charging';
  if (g.phase === 'finished' && g.phaseUntil <= t) {
    g.phase = 'idle';
    g.vehicle = null;
  }
}

function stepPiles(def: StationDef, dyn: StationDynamics, seed: number, t0: number, t1: number, dtH: number) {
  const c = dyn.controls;
  const pileAc: Record<string, number> = {};
  let pileTotal = 0;
  const guns = devicesOf(def, 'chargingGun');
  for (const pile of devicesOf(def, 'chargingPile')) {
    const pileOk = isOn(dyn, pile.code);
    const mine: DeviceDef[] = guns.filter((g) => g.parentCode === pile.code);
    const wants: number[] = [];
    for (const gd of mine) {
      const g = dyn.guns[gd.code];
      if (!g) continue;
      const gunOk = pileOk && !hasFault(dyn, gd.code) && !c.rebooting[gd.code];
      const lastSlot = Math.floor(t1 / SLOT_MS);
      for (let k = g.lastSlot + 1; k <= lastSlot; k++) {
        const ts = k * SLOT_MS;
        if (ts <= t0) continue;
        advancePhase(g, ts);
        if (g.phase !== 'idle' || !gunOk) continue;
        const lt = localTime(ts, def.timeZone);
        const p = arrivalProbability(lt.hour, lt.weekday === 0 || lt.weekday === 6);
        if (hash01(seed, gd.code, 'arrive', k) >= p) continue;
        g.phase = 'plugged';
        g.phaseUntil = ts + hashRange(60_000, 180_000, seed, gd.code, 'plug', k);
        g.vehicle = {
          capacity: hashRange(40, 100, seed, gd.code, 'cap', k),
          soc: hashRange(8, 55, seed, gd.code, 'soc', k),
          targetSoc: hashRange(80, 100, seed, gd.code, 'target', k),
          maxPower: hashRange(40, 150, seed, gd.code, 'vmax', k),
        };
        g.sessionStart = ts;
        g.sessionEnergy = 0;
        dyn.today.pileSessions[pile.code] = (dyn.today.pileSessions[pile.code] ?? 0) + 1;
        dyn.total.pileSessions[pile.code] = (dyn.total.pileSessions[pile.code] ?? 0) + 1;
      }
      g.lastSlot = Math.max(g.lastSlot, lastSlot);
      advancePhase(g, t1);
      const want = g.phase === 'charging' && g.vehicle && gunOk ? Math.min(c.gunMaxPower[gd.code] ?? gd.ratedPower ?? 0, acceptance(g.vehicle)) : 0;
      wants.push(want);
    }
    const sum = wants.reduce((a, b) => a + b, 0);
    const limit = Math.min(pile.ratedPower ?? Infinity, c.pilePowerLimit[pile.code] ?? Infinity);
    const scale = sum > limit ? limit / sum : 1;
    let dc = 0;
    mine.forEach((gd, i) => {
      const g = dyn.guns[gd.code];
      if (!g) return;
      g.power = (wants[i] ?? 0) * scale;
      dc += g.power;
      const e = g.power * dtH;
      g.sessionEnergy += e;
      g.totalEnergy += e;
      if (g.vehicle && g.power > 0) {
        g.vehicle.soc = Math.min(100, g.vehicle.soc + (e / g.vehicle.capacity) * 100);
        if (g.vehicle.soc >= g.vehicle.targetSoc) {
          g.phase = 'finished';
          g.phaseUntil = t1 + hashRange(5 * 60_000, 30 * 60_000, seed, gd.code, 'leave', g.sessionStart);
        }
      }
    });
    pileAc[pile.code] = dc / ETA_PILE;
    pileTotal += dc / ETA_PILE;
  }
  return { pileAc, pileTotal };
}

const WARM_UP_MS = 24 * HOUR_MS;

/**
 * A fleet commissioned at `startMs`: created a day earlier and run through that day of
 * commissioning tests (its schedule, no incidents), so its SOC at `startMs` is what the daily
 * schedule keeps at that hour; then every register set to zero (commission). Lifetime figures
 * read from then on are exactly the station's life since `startMs`, and a round trip measured
 * at the same hour days later starts and ends at about the same SOC.
 */
export function commissionedState(fleet: Fleet, startMs: number, options: Partial<SimOptions> = {}): SimState {
  let s = createState(fleet, startMs - WARM_UP_MS, { randomFaultsPerDevicePerDay: 0 });
  for (let t = startMs - WARM_UP_MS + 5 * 60_000; t <= startMs; t += 5 * 60_000) s = step(s, 5 * 60_000, t);
  s = commission(s);
  return { ...s, options: { randomFaultsPerDevicePerDay: options.randomFaultsPerDevicePerDay ?? 0 } };
}
