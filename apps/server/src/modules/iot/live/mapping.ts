import { and, eq, isNotNull } from 'drizzle-orm';
import type { IotValueMap } from '@ess/contract/iot';
import type { TelemetryValue } from '@ess/contract';
import { device } from '../../../db/schema/device.ts';
import { site } from '../../../db/schema/site.ts';
import { iotDevice, iotEvent, iotProperty, iotRelateEvent, iotRelateProperty } from '../../../db/schema/iot.ts';
import type { DbOrTx } from '../../../platform/db/database.ts';

/**
 * What the live stream of one application needs (decision 0051): each platform device bound to a
 * console device (its station and code: the ingest's address), and the active relations that
 * apply to it — the product's, overridden item by item by the device's own. Read again whenever
 * an application, a sync or a relation changes.
 */
export interface PropertyRule {
  identifier: string;
  scale: number;
  offset: number;
  valueMap: IotValueMap;
}
export interface EventRule {
  code: string;
  valueMap: IotValueMap;
}
export interface LiveDevice {
  iotDeviceId: number;
  iotProductId: number;
  externalId: string;
  name: string;
  productExternalId: string;
  deviceId: number;
  siteCode: string;
  deviceCode: string;
  properties: Map<string, PropertyRule>;
  events: Map<string, EventRule>;
}

export async function loadLiveDevices(db: DbOrTx, configId: number, productExternalIds: Map<number, string>): Promise<LiveDevice[]> {
  const rows = await db
    .select({
      iotDeviceId: iotDevice.id, iotProductId: iotDevice.iotProductId, externalId: iotDevice.externalId, name: iotDevice.name, deviceId: device.id,
      productId: device.productId, deviceCode: device.code, siteCode: site.code,
    })
    .from(iotDevice)
    .innerJoin(device, eq(device.id, iotDevice.deviceId))
    .innerJoin(site, eq(site.id, device.siteId))
    .where(and(eq(iotDevice.configId, configId), isNotNull(iotDevice.deviceId)));
  if (rows.length === 0) return [];
  const props = await db
    .select({
      iotProductId: iotRelateProperty.iotProductId, iotDeviceId: iotRelateProperty.iotDeviceId, productId: iotRelateProperty.productId, key: iotProperty.identifier,
      identifier: iotRelateProperty.identifier, scale: iotRelateProperty.scale, offset: iotRelateProperty.offset, valueMap: iotRelateProperty.valueMap,
    })
    .from(iotRelateProperty)
    .innerJoin(iotProperty, eq(iotProperty.id, iotRelateProperty.iotPropertyId))
    .where(and(eq(iotRelateProperty.configId, configId), eq(iotRelateProperty.active, true)));
  const events = await db
    .select({
      iotProductId: iotRelateEvent.iotProductId, iotDeviceId: iotRelateEvent.iotDeviceId, productId: iotRelateEvent.productId, key: iotEvent.identifier,
      identifier: iotRelateEvent.identifier, valueMap: iotRelateEvent.valueMap,
    })
    .from(iotRelateEvent)
    .innerJoin(iotEvent, eq(iotEvent.id, iotRelateEvent.iotEventId))
    .where(and(eq(iotRelateEvent.configId, configId), eq(iotRelateEvent.active, true)));
  return rows.map((r) => {
    // The product's relations first, then the device's own over them (a relation to another
    // console product than the bound device's does not apply: its identifiers are not this device's).
    const applies = (x: { iotProductId: number; iotDeviceId: number | null; productId: number }) => x.iotProductId === r.iotProductId && x.productId === r.productId;
    const byLevel = <T extends { iotDeviceId: number | null }>(list: T[]) => [...list.filter((x) => x.iotDeviceId === null), ...list.filter((x) => x.iotDeviceId === r.iotDeviceId)];
    const properties = new Map<string, PropertyRule>();
    for (const p of byLevel(props.filter(applies))) properties.set(p.key, { identifier: p.identifier, scale: p.scale, offset: p.offset, valueMap: p.valueMap });
    const evs = new Map<string, EventRule>();
    for (const e of byLevel(events.filter(applies))) evs.set(e.key, { code: e.identifier, valueMap: e.valueMap });
    return {
      iotDeviceId: r.iotDeviceId, iotProductId: r.iotProductId, externalId: r.externalId, name: r.name, productExternalId: productExternalIds.get(r.iotProductId) ?? '',
      deviceId: r.deviceId, siteCode: r.siteCode, deviceCode: r.deviceCode, properties, events: evs,
    };
  });
}

/** A platform value as the console takes it: numbers from their text (ThingsBoard sends text), booleans, else text. */
function natural(v: unknown): TelemetryValue | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === 'true' || t === 'false') return t === 'true';
    if (t !== '' && Number.isFinite(Number(t))) return Number(t);
    return v.slice(0, 256);
  }
  return null;
}

/**
 * A platform value through its relation: the value map first (platform value → status), else
 * value × scale + offset for a number; booleans and text as they are. Null: nothing to store.
 */
export function mapValue(rule: { scale: number; offset: number; valueMap: IotValueMap }, raw: unknown): TelemetryValue | null {
  if (rule.valueMap.length) {
    const hit = rule.valueMap.find((e) => e.platformValue === String(raw));
    if (hit) return hit.status;
  }
  const v = natural(raw);
  if (typeof v === 'number') return Math.round((v * rule.scale + rule.offset) * 1e9) / 1e9;
  return v;
}

/**
 * A platform event through its relation: the fault code, whether it is active (a value map on
 * the event's value — the data itself, or its `value` / `state` field — whose status 0 clears the
 * fault; without one every event raises it), and its message.
 */
export function mapEvent(rule: EventRule, data: unknown): { code: string; active: boolean; message: string } {
  const scalar = data !== null && typeof data === 'object' ? ((data as Record<string, unknown>).value ?? (data as Record<string, unknown>).state) : data;
  const hit = rule.valueMap.find((e) => e.platformValue === String(scalar));
  const message = hit ? hit.label : data === undefined || data === null ? '' : (typeof data === 'string' ? data : JSON.stringify(data)).slice(0, 500);
  return { code: rule.code, active: hit ? hit.status !== 0 : true, message };
}
