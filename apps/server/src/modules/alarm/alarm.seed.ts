import { eq, inArray, sql } from 'drizzle-orm';
import { DEVICE_TYPES, type AlarmOperator, type AlarmType, type DeviceType } from '@ess/contract';
import { alarmDict } from '../../db/schema/alarm.ts';
import { product, productEvent } from '../../db/schema/device.ts';
import type { Db } from '../../platform/db/database.ts';
import { standardProductCode } from '../device/index.ts';

/** The type of a thing-model fault, read off its code (EMS_COMM_LOST → communication, …). */
export function alarmTypeOfCode(code: string): AlarmType {
  if (/COMM_LOST|GRID_LOST/.test(code)) return 'communication';
  if (/INSULATION|ISOLATION|EMERGENCY_STOP/.test(code)) return 'safety';
  if (/OVER_?TEMPERATURE|TEMPERATURE_HIGH|OVERVOLTAGE|UNDERVOLTAGE|OVERCURRENT|OVERLOAD|HIGH_PRESSURE|VOLTAGE_DIFF|CURRENT_IMBALANCE/.test(code)) return 'overLimit';
  return 'deviceFault';
}

interface DefaultThreshold {
  deviceType: DeviceType;
  identifier: string;
  operator: AlarmOperator;
  threshold: number;
  clearValue: number;
  level: 1 | 2 | 3 | 4 | 5;
  alarmType: AlarmType;
  description: string;
}

/**
 * Early warnings below the devices' own protections (their fault events, e.g. cell
 * over-temperature at 50 °C, transformer overload above 100 %), each with a clear value a few
 * units back so a value hovering at the limit does not flap.
 */
export const DEFAULT_THRESHOLDS: DefaultThreshold[] = [
  { deviceType: 'batteryCluster', identifier: 'maxCellTemperature', operator: '>', threshold: 45, clearValue: 42, level: 3, alarmType: 'overLimit', description: '电池簇单体温度偏高' },
  { deviceType: 'batteryPack', identifier: 'maxCellTemperature', operator: '>', threshold: 45, clearValue: 42, level: 3, alarmType: 'overLimit', description: '电池包单体温度偏高' },
  { deviceType: 'batteryPack', identifier: 'minCellVoltage', operator: '<', threshold: 2.9, clearValue: 3.0, level: 3, alarmType: 'overLimit', description: '电池包单体电压过低' },
  { deviceType: 'batteryCluster', identifier: 'cellVoltageDifference', operator: '>', threshold: 300, clearValue: 250, level: 4, alarmType: 'overLimit', description: '电池簇单体压差过大' },
  // The EMS keeps the BMS's SOC inside 5–95 %; outside it only when the BMS has just corrected a
  // drifted estimate at a knee of the LFP curve (the station simulator's soc.ts): to ~3 % at the
  // bottom, discharge stopped until the next charge; to ~99 % at the top, charge stopped.
  { deviceType: 'bms', identifier: 'soc', operator: '<', threshold: 4, clearValue: 5, level: 2, alarmType: 'overLimit', description: '电池SOC过低' },
  { deviceType: 'bms', identifier: 'soc', operator: '>', threshold: 98, clearValue: 95, level: 4, alarmType: 'overLimit', description: '电池SOC过高' },
  { deviceType: 'transformer', identifier: 'loadRate', operator: '>', threshold: 90, clearValue: 85, level: 3, alarmType: 'overLimit', description: '变压器负载率过高' },
  { deviceType: 'pcs', identifier: 'igbtTemperature', operator: '>', threshold: 85, clearValue: 80, level: 3, alarmType: 'overLimit', description: 'PCS IGBT温度过高' },
  { deviceType: 'airConditioner', identifier: 'cabinetTemperature', operator: '>', threshold: 35, clearValue: 32, level: 3, alarmType: 'overLimit', description: '储能柜内温度过高' },
  { deviceType: 'airConditioner', identifier: 'humidity', operator: '>', threshold: 85, clearValue: 80, level: 4, alarmType: 'overLimit', description: '储能柜内湿度过高' },
];

/**
 * The default dictionary, once: when no entry was ever added (the id sequence never used, so a
 * dictionary an administrator emptied stays empty). Every fault event of the standard products
 * (at the level the thing model suggests, or as an administrator has since set it there), by
 * device type so that every product of the type is watched, and the default thresholds.
 * Concurrent first starts of several instances insert the same rows: the duplicates do nothing.
 */
export async function seedAlarmDictionary(db: Db): Promise<void> {
  const [seq] = (await db.execute<{ is_called: boolean }>(sql`select is_called from alarm_dict_id_seq`)).rows;
  if (seq?.is_called) return;
  const codes = DEVICE_TYPES.map(standardProductCode);
  const events = await db
    .select({ type: product.type, code: productEvent.identifier, name: productEvent.name, level: productEvent.level, sort: productEvent.sort })
    .from(productEvent)
    .innerJoin(product, eq(product.id, productEvent.productId))
    .where(inArray(product.code, codes))
    .orderBy(product.id, productEvent.sort);
  const rows: (typeof alarmDict.$inferInsert)[] = [
    ...events.map((e) => ({
      deviceType: e.type, kind: 'event', eventCode: e.code, level: Math.min(5, Math.max(1, e.level)), alarmType: alarmTypeOfCode(e.code), description: e.name,
    })),
    ...DEFAULT_THRESHOLDS.map((t) => ({ ...t, kind: 'threshold' })),
  ];
  if (rows.length) await db.insert(alarmDict).values(rows).onConflictDoNothing();
}
