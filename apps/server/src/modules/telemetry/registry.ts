import { asc, eq } from 'drizzle-orm';
import { device, product, productProperty } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { MODEL_CHANNEL } from '../../platform/db/change-cache.ts';

/** How one product's numeric properties map to positions of the stored arrays. */
export interface ProductSlots {
  productId: number;
  type: string;
  /** identifier → 0-based array index. */
  indexOf: Map<string, number>;
  /** 0-based array index → identifier ('' for a gap left by a removed property). */
  identifiers: string[];
  /** Identifiers of text properties (kept only as latest values). */
  text: Set<string>;
  /** Identifiers of boolean properties (stored as 1/0). */
  bools: Set<string>;
}

export interface RegisteredDevice {
  id: number;
  code: string;
  siteId: number;
  siteCode: string;
  timeZone: string;
  productId: number;
  type: string;
  disabled: boolean;
  /** The station gateway (a root EMS): its offline last will means the whole station is unreachable. */
  gateway: boolean;
}

/** Loads the product slot layout of every product: what the ingest and the history reader share. */
export async function loadProductSlots(db: DbOrTx): Promise<Map<number, ProductSlots>> {
  const products = await db.select({ id: product.id, type: product.type }).from(product);
  const props = await db
    .select({ productId: productProperty.productId, identifier: productProperty.identifier, slot: productProperty.slot, dataType: productProperty.dataType })
    .from(productProperty)
    .orderBy(asc(productProperty.productId), asc(productProperty.slot));
  const out = new Map<number, ProductSlots>();
  for (const p of products) out.set(p.id, { productId: p.id, type: p.type, indexOf: new Map(), identifiers: [], text: new Set(), bools: new Set() });
  for (const prop of props) {
    const slots = out.get(prop.productId);
    if (!slots) continue;
    if (prop.dataType === 'bool') slots.bools.add(prop.identifier);
    if (prop.slot === null) {
      slots.text.add(prop.identifier);
      continue;
    }
    const i = prop.slot - 1;
    slots.indexOf.set(prop.identifier, i);
    while (slots.identifiers.length <= i) slots.identifiers.push('');
    slots.identifiers[i] = prop.identifier;
  }
  return out;
}

/**
 * The slot layouts for the API's readers, cached per instance until a product or property changes
 * (MODEL_CHANNEL): the device lists would otherwise read every product property on each call.
 */
export function productSlotsOf(ctx: AppContext): Promise<Map<number, ProductSlots>> {
  return ctx.changes.cache<'all', Map<number, ProductSlots>>(MODEL_CHANNEL, 'productSlots').through('all', () => loadProductSlots(ctx.db));
}

/** identifier → value of a stored row (numbers by slot, booleans back from 1/0, and the text values). */
export function valuesOf(slots: ProductSlots | undefined, v: (number | null)[] | null, text: Record<string, string> | null): Record<string, number | string | boolean> {
  const out: Record<string, number | string | boolean> = {};
  if (slots && v) {
    slots.identifiers.forEach((id, i) => {
      const x = v[i];
      if (id && x !== null && x !== undefined) out[id] = slots.bools.has(id) ? x !== 0 : x;
    });
  }
  return text ? Object.assign(out, text) : out;
}

/**
 * The ingest's in-memory view of the device registry: device code → id, station, product
 * and its slot layout. Reloaded periodically and when an unknown code shows up (rate-limited),
 * so devices registered after start are picked up without a restart.
 */
export class DeviceRegistry {
  byCode = new Map<string, RegisteredDevice>();
  byId = new Map<number, RegisteredDevice>();
  products = new Map<number, ProductSlots>();
  devicesOfSite = new Map<number, number[]>();
  private lastLoad = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly db: DbOrTx, private readonly minReloadMs = 2000) {}

  async load(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = this.doLoad().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Reloads now, after any load already in flight (which may have read the tables before a
   * change): thing-model edits call this so the next report is stored by the new layout.
   */
  async refresh(): Promise<void> {
    await this.loading?.catch(() => undefined);
    await this.load();
  }

  /** Reloads unless that happened within the last couple of seconds (unknown codes call this). */
  requestReload(): void {
    if (Date.now() - this.lastLoad < this.minReloadMs || this.loading) return;
    void this.load().catch(() => undefined);
  }

  private async doLoad(): Promise<void> {
    this.lastLoad = Date.now();
    const [products, rows] = await Promise.all([
      loadProductSlots(this.db),
      this.db
        .select({
          id: device.id, code: device.code, siteId: device.siteId, siteCode: site.code, timeZone: site.timeZone, productId: device.productId,
          type: device.type, disabled: device.disabled, parentId: device.parentId,
        })
        .from(device)
        .innerJoin(site, eq(site.id, device.siteId)),
    ]);
    const byCode = new Map<string, RegisteredDevice>();
    const byId = new Map<number, RegisteredDevice>();
    const devicesOfSite = new Map<number, number[]>();
    for (const r of rows) {
      const d: RegisteredDevice = {
        id: r.id, code: r.code, siteId: r.siteId, siteCode: r.siteCode, timeZone: r.timeZone, productId: r.productId, type: r.type,
        disabled: r.disabled, gateway: r.type === 'ems' && r.parentId === null,
      };
      byCode.set(d.code, d);
      byId.set(d.id, d);
      const list = devicesOfSite.get(d.siteId) ?? [];
      list.push(d.id);
      devicesOfSite.set(d.siteId, list);
    }
    this.products = products;
    this.byCode = byCode;
    this.byId = byId;
    this.devicesOfSite = devicesOfSite;
  }
}
