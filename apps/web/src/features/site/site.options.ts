import type { EnumOption } from '../../components/crud/index.ts';
import { PV_WORKING_MODE_LABELS, PV_WORKING_MODES, SITE_TYPE_LABELS, SITE_TYPES } from '@ess/contract/site';

/** Pickers and enumerations of the configuration screens. */

export const SITE_TYPE_OPTIONS: EnumOption[] = SITE_TYPES.map((v) => ({ value: v, label: SITE_TYPE_LABELS[v] }));
export const PV_MODE_OPTIONS: EnumOption[] = PV_WORKING_MODES.map((v) => ({ value: v, label: PV_WORKING_MODE_LABELS[v] }));

/** IANA time zones of the browser, with the common station zones first when the list is unavailable. */
export function timeZoneOptions(): EnumOption[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Shanghai', 'Europe/Berlin', 'America/Los_Angeles', 'UTC'];
  const list = zones.includes('UTC') ? zones : [...zones, 'UTC'];
  return list.map((z) => ({ value: z, label: z, literal: true }));
}

