import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { IotChange, IotDiffItem, IotItemKind } from '@ess/contract/iot';
import { iotCommand, iotDevice, iotEvent, iotParam, iotProduct, iotProperty } from '../../db/schema/iot.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { PlatformDevice, PlatformProduct } from './adapters/index.ts';

/**
 * What a sync read (the snapshot) against what is stored, as flat items keyed by their place:
 * `product` externalId, `externalId/property/identifier`, `externalId/command/id/input/param`, …,
 * `device` externalId. The diff of the two is the dry run an administrator approves; the same
 * comparison, made again at approval, shows whether the plan went stale.
 */
export interface Snapshot {
  /** Products read (full: all; product: the one, or none when the platform no longer has it). */
  products: PlatformProduct[];
  devices: PlatformDevice[];
}
/** Which stored rows a sync compares with. */
export interface SyncScope {
  scope: 'full' | 'product' | 'device';
  /** The platform id of the product or device a one-item sync reads. */
  target: string | null;
}

interface FlatItem {
  kind: IotItemKind;
  name: string;
  fields: Record<string, unknown>;
}
type Flat = Map<string, FlatItem>;

const paramFields = (p: { name: string; dataType: string; unit: string | null }) => ({ name: p.name, dataType: p.dataType, unit: p.unit });

/** The snapshot as flat items. */
export function flatten(s: Snapshot): Flat {
  const out: Flat = new Map();
  for (const p of s.products) {
    const k = p.externalId;
    out.set(`product:${k}`, { kind: 'product', name: p.name, fields: { name: p.name, description: p.description } });
    for (const x of p.properties) out.set(`${k}/property/${x.identifier}`, { kind: 'property', name: x.name, fields: { ...paramFields(x), source: x.source } });
    for (const e of p.events) {
      out.set(`${k}/event/${e.identifier}`, { kind: 'event', name: e.name, fields: { name: e.name, level: e.level } });
      for (const f of e.fields) out.set(`${k}/event/${e.identifier}/output/${f.identifier}`, { kind: 'param', name: f.name, fields: paramFields(f) });
    }
    for (const c of p.commands) {
      out.set(`${k}/command/${c.identifier}`, { kind: 'command', name: c.name, fields: { name: c.name, async: c.async } });
      for (const [dir, params] of [['input', c.inputs], ['output', c.outputs]] as const) {
        for (const f of params) out.set(`${k}/command/${c.identifier}/${dir}/${f.identifier}`, { kind: 'param', name: f.name, fields: paramFields(f) });
      }
    }
  }
  for (const d of s.devices) out.set(`device:${d.externalId}`, { kind: 'device', name: d.name, fields: { name: d.name, product: d.productExternalId, state: d.state } });
  return out;
}

/** The stored rows of a sync's scope, as the snapshot they were made from. */
export async function storedSnapshot(db: DbOrTx, configId: number, s: SyncScope): Promise<Snapshot> {
  const productWhere: SQL | undefined =
    s.scope === 'device' ? undefined : and(eq(iotProduct.configId, configId), s.scope === 'product' ? eq(iotProduct.externalId, s.target!) : undefined);
  const products = productWhere ? await db.select().from(iotProduct).where(productWhere) : [];
  const ids = products.map((p) => p.id);
  const [props, events, commands, params] = ids.length
    ? await Promise.all([
        db.select().from(iotProperty).where(inArray(iotProperty.iotProductId, ids)),
        db.select().from(iotEvent).where(inArray(iotEvent.iotProductId, ids)),
        db.select().from(iotCommand).where(inArray(iotCommand.iotProductId, ids)),
        db.select().from(iotParam).where(inArray(iotParam.iotProductId, ids)),
      ])
    : [[], [], [], []];
  const paramsOf = (kind: 'command' | 'event', ownerId: number, dir: 'input' | 'output') =>
    params
      .filter((x) => x.ownerKind === kind && (kind === 'command' ? x.commandId : x.eventId) === ownerId && x.direction === dir)
      .map((x) => ({ identifier: x.identifier, name: x.name, dataType: x.dataType as never, unit: x.unit }));
  const snapshot: Snapshot = {
    products: products.map((p) => ({
      externalId: p.externalId,
      name: p.name,
      description: p.description,
      properties: props.filter((x) => x.iotProductId === p.id).map((x) => ({ identifier: x.identifier, name: x.name, dataType: x.dataType as never, unit: x.unit, source: x.source })),
      events: events.filter((x) => x.iotProductId === p.id).map((e) => ({ identifier: e.identifier, name: e.name, level: e.level, fields: paramsOf('event', e.id, 'output') })),
      commands: commands
        .filter((x) => x.iotProductId === p.id)
        .map((c) => ({ identifier: c.identifier, name: c.name, async: c.async, inputs: paramsOf('command', c.id, 'input'), outputs: paramsOf('command', c.id, 'output') })),
    })),
    devices: [],
  };
  if (s.scope !== 'product') {
    const devices = await db
      .select({ externalId: iotDevice.externalId, name: iotDevice.name, state: iotDevice.state, productExternalId: iotProduct.externalId })
      .from(iotDevice)
      .innerJoin(iotProduct, eq(iotProduct.id, iotDevice.iotProductId))
      .where(and(eq(iotDevice.configId, configId), s.scope === 'device' ? eq(iotDevice.externalId, s.target!) : undefined));
    snapshot.devices = devices.map((d) => ({ ...d, state: d.state as never }));
  }
  return snapshot;
}

/** Added, changed (with each field's before and after) and removed items, in key order. */
export function diff(before: Snapshot, after: Snapshot): IotDiffItem[] {
  const a = flatten(before);
  const b = flatten(after);
  const items: IotDiffItem[] = [];
  const push = (key: string, item: FlatItem, change: IotChange, fields: IotDiffItem['fields']) =>
    items.push({ kind: item.kind, change, key: key.replace(/^(product|device):/, ''), name: item.name, fields });
  for (const [key, now] of b) {
    const was = a.get(key);
    if (!was) push(key, now, 'added', []);
    else {
      const fields = Object.keys(now.fields)
        .filter((f) => JSON.stringify(was.fields[f] ?? null) !== JSON.stringify(now.fields[f] ?? null))
        .map((f) => ({ field: f, before: was.fields[f] ?? null, after: now.fields[f] ?? null }));
      if (fields.length) push(key, now, 'changed', fields);
    }
  }
  for (const [key, was] of a) if (!b.has(key)) push(key, was, 'removed', []);
  return items.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

export const countsOf = (items: IotDiffItem[]) => ({
  added: items.filter((i) => i.change === 'added').length,
  changed: items.filter((i) => i.change === 'changed').length,
  removed: items.filter((i) => i.change === 'removed').length,
});
