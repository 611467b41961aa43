import type { DeviceStatus } from '@ess/contract/device';
import { DEVICE_STATUS_LABELS } from '@ess/contract/device';
import type { TelemetryValue, ThingProperty } from '@ess/contract/telemetry';
import { THING_MODEL } from '@ess/contract/telemetry';
import dayjs from 'dayjs';
import { formatDateTime, formatNumber } from './number-format.ts';
import { isDeviceType } from './device-types.ts';

type Translate = (source: string, ...args: unknown[]) => string;

/** The thing-model property of a type, or undefined. */
export function thingProperty(type: string, identifier: string): ThingProperty | undefined {
  return isDeviceType(type) ? THING_MODEL[type].properties.find((p) => p.identifier === identifier) : undefined;
}

export interface ShownValue {
  text: string;
  colour?: string;
}

/**
 * A reported value as a person reads it: enumeration labels (with their colour), yes/no for
 * booleans, numbers to 3 decimals with the unit, durations and instants in words.
 */
export function formatValue(prop: Pick<ThingProperty, 'dataType' | 'unit' | 'enumValues'> | undefined, value: TelemetryValue | null | undefined, t: Translate): ShownValue {
  if (value === null || value === undefined) return { text: '-' };
  if (prop?.dataType === 'enum' && typeof value === 'number') {
    const e = prop.enumValues?.find((x) => x.value === value);
    return e ? { text: t(e.label), ...(e.colour ? { colour: e.colour } : {}) } : { text: String(value) };
  }
  if (typeof value === 'boolean' || prop?.dataType === 'bool') {
    const on = value === true || value === 1;
    return { text: on ? t('是') : t('否'), colour: on ? '#0d8050' : '#8c8c8c' };
  }
  if (typeof value === 'number') {
    if (prop?.unit === 'ms') return { text: value > 0 ? dayjs(value).format('YYYY-MM-DD HH:mm') : '-' };
    if (prop?.unit === 's') return { text: duration(value) };
    return { text: prop?.unit ? `${formatNumber(value)} ${prop.unit}` : formatNumber(value) };
  }
  return { text: value };
}

/** Seconds as H:MM:SS. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export function formatTime(iso: string | null | undefined): string {
  return formatDateTime(iso);
}

export const statusLabel = (s: DeviceStatus) => DEVICE_STATUS_LABELS[s];

/** What every screen shows for an efficiency with no round trip to measure. */
export const NO_EFFICIENCY = '–';

/**
 * A round-trip efficiency (%) as every screen shows it: "–" when there is none to measure —
 * nothing discharged (or charged), or the server has none — never "0 %". Pass the period's
 * discharge where the screen has it.
 */
export function formatEfficiency(percent: number | null | undefined, discharge?: number | null): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent) || percent <= 0) return NO_EFFICIENCY;
  if (discharge !== undefined && (discharge === null || discharge <= 0)) return NO_EFFICIENCY;
  return `${formatNumber(percent)} %`;
}
