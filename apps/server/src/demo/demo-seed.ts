import { count, eq, inArray } from 'drizzle-orm';
import { demoFleet, type Fleet, type StationDef } from '@ess/simulator';
import type { DbOrTx } from '../platform/db/database.ts';
import { standardProducts } from '../modules/device/index.ts';
import { seedStationPrices } from './demo-prices.ts';
import { cabinet, device } from '../db/schema/device.ts';
import { site, siteKeyValue } from '../db/schema/site.ts';
import { demoKeyValues } from './demo-key-values.ts';
import { company } from '../db/schema/system.ts';

/** Which seeded subsidiary owns each demo station (by company code). */
const OWNER: Record<string, string> = { SH01: 'EAST', BE01: 'SOUTH', LA01: 'SOUTH' };

const SITE_TYPES: Record<StationDef['kind'], string> = { storage: 'storage', storagePv: 'storagePv', storagePvCharging: 'storagePvCharging' };

/**
 * First start only (no station exists yet): registers the simulator's demo stations as sites
 * of the seeded subsidiaries, with their energy cabinets, every device under the codes the
 * simulator publishes and their time-of-use prices, so `npm start` shows live stations without
 * any configuration.
 * Returns the number of stations created.
 */
export async function seedDemoOnce(db: DbOrTx, fleet: Fleet = demoFleet()): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(site);
  if (n > 0) return 0;
  return registerFleet(db, fleet, OWNER);
}

/**
 * Registers a fleet's stations, cabinets, devices and prices. `owner` maps a station code to a company
 * code; stations without an entry go to the first company found (the group).
 */
export async function registerFleet(db: DbOrTx, fleet: Fleet, owner: Record<string, string> = {}, fallbackCompanyId?: number): Promise<number> {
  const products = await standardProducts(db);
  const companies = await db.select({ id: company.id, code: company.code }).from(company).orderBy(company.id);
  const byCode = new Map(companies.map((c) => [c.code, c.id]));
  const fallback = fallbackCompanyId ?? companies[0]?.id;
  if (fallback === undefined) throw new Error('no company to own the stations');
  let created = 0;
  for (const st of fleet.stations) {
    const companyId = byCode.get(owner[st.code] ?? '') ?? fallback;
    const [s] = await db
      .insert(site)
      .values({
        companyId,
        name: st.name,
        code: st.code,
        timeZone: st.timeZone,
        commissioningDate: st.commissioningDate,
        address: st.address,
        longitude: st.longitude.toFixed(6),
        latitude: st.latitude.toFixed(6),
        currency: st.currency,
        siteType: SITE_TYPES[st.kind],
      })
      .returning({ id: site.id });
    const siteId = s!.id;
    await db.insert(siteKeyValue).values({ siteId, ...demoKeyValues(st) });
    await seedStationPrices(db, siteId, companyId, st);
    const cabinetIds = new Map<string, number>();
    if (st.cabinets.length) {
      const rows = await db
        .insert(cabinet)
        .values(st.cabinets.map((c) => ({ siteId, code: c.code, name: c.name })))
        .returning({ id: cabinet.id, code: cabinet.code });
      for (const r of rows) cabinetIds.set(r.code, r.id);
    }
    const inserted = await db
      .insert(device)
      .values(
        st.devices.map((d, i) => {
          const productId = products.get(d.type);
          if (productId === undefined) throw new Error(`no product for device type ${d.type}`);
          return {
            code: d.code,
            name: d.name,
            barcode: d.barcode,
            siteId,
            productId,
            type: d.type,
            meterPurpose: d.meterPurpose ?? null,
            cabinetId: d.cabinetCode ? (cabinetIds.get(d.cabinetCode) ?? null) : null,
            ratedPower: d.ratedPower ?? null,
            no: d.no ?? null,
            subNo: d.subNo ?? null,
            firmwareName: d.firmwareName,
            firmwareVersion: d.firmwareVersion,
            sort: i + 1,
          };
        }),
      )
      .returning({ id: device.id, code: device.code });
    const idOf = new Map(inserted.map((r) => [r.code, r.id]));
    // Parents by code, grouped so that each parent costs one statement.
    const children = new Map<string, number[]>();
    for (const d of st.devices) {
      if (!d.parentCode) continue;
      const list = children.get(d.parentCode) ?? [];
      list.push(idOf.get(d.code)!);
      children.set(d.parentCode, list);
    }
    for (const [parentCode, ids] of children) {
      await db.update(device).set({ parentId: idOf.get(parentCode)! }).where(inArray(device.id, ids));
    }
    created++;
  }
  return created;
}

/** The id of a site by code (tests and the bench). */
export async function siteIdByCode(db: DbOrTx, code: string): Promise<number | undefined> {
  const [row] = await db.select({ id: site.id }).from(site).where(eq(site.code, code));
  return row?.id;
}
