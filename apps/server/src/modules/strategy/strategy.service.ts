import { and, eq, sql } from 'drizzle-orm';
import {
  STRATEGY_EXISTS, strategyIssueMessage, strategyIssues,
  type StrategyContent, type StrategyLimits, type StrategyRecord, type StrategySyncState, type StrategyView, type strategyAdd, type strategyEdit,
} from '@ess/contract/strategy';
import type { z } from 'zod';
import { device } from '../../db/schema/device.ts';
import { site, siteKeyValue } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { appUser } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { demandTargetNow, syncOf } from './strategy.sync.ts';
import './strategy.events.ts';

export interface Station {
  id: number;
  name: string;
  code: string;
  timeZone: string;
}

/** A station in the caller's scope (404 otherwise, like every out-of-scope object); any station for the system (user null). */
export async function stationOf(db: DbOrTx, user: AuthUser | null, siteId: number): Promise<Station> {
  const [s] = await db
    .select({ id: site.id, name: site.name, code: site.code, timeZone: site.timeZone })
    .from(site)
    .where(and(eq(site.id, siteId), user ? inSiteScope(site.id, db, user) : undefined));
  return found(s, '站点不存在');
}

/** What the rules check against: the station's PCS ratings (summed) and its key values. */
export async function limitsOf(db: DbOrTx, siteId: number): Promise<StrategyLimits> {
  const [pcs] = await db
    .select({ rated: sql<number | null>`sum(${device.ratedPower})::float8`, n: sql<number>`count(*)::int`, unrated: sql<number>`count(*) filter (where ${device.ratedPower} is null)::int` })
    .from(device)
    .where(and(eq(device.siteId, siteId), eq(device.type, 'pcs'), eq(device.disabled, false)));
  const [kv] = await db.select().from(siteKeyValue).where(eq(siteKeyValue.siteId, siteId));
  const n = pcs?.n ?? 0;
  return {
    // A PCS without a rating leaves the station's rating unknown (not the others' sum).
    pcsRatedKw: n > 0 && (pcs?.unrated ?? 0) === 0 && pcs?.rated !== null && pcs?.rated !== undefined ? Number(pcs.rated) : null,
    pcsCount: n,
    depthOfDischarge: kv?.depthOfDischarge ?? null,
    transformerProtectionPower: kv?.transformerProtectionPower ?? null,
    installedCapacity: kv?.installedCapacity ?? null,
  };
}

type Fields = Omit<z.output<typeof strategyAdd>, 'siteId'>;
/** What is stored: the demand target is not (decision 0040: the demand setting is its only source; a sent one is ignored). */
const contentOf = (b: Fields): StrategyContent => ({
  schedules: b.schedules, socMin: b.socMin, socMax: b.socMax, transformerProtectionKw: b.transformerProtectionKw, antiBackflow: b.antiBackflow, demandTargetKw: null,
});

/** Refuses (400) with the broken rules, each naming its schedule and window; nothing is written. */
export function assertRules(content: StrategyContent, limits: StrategyLimits): void {
  const issues = strategyIssues(content, limits);
  if (issues.length) throw new AppError('INVALID_PARAM', issues.slice(0, 5).map(strategyIssueMessage).join('；'));
}

async function recordOf(ctx: AppContext, db: DbOrTx, row: typeof strategy.$inferSelect, st: Station): Promise<StrategyRecord> {
  const [u] = row.updatedBy ? await db.select({ name: appUser.name }).from(appUser).where(eq(appUser.id, row.updatedBy)) : [];
  return {
    id: row.id,
    siteId: row.siteId,
    schedules: row.schedules,
    socMin: row.socMin,
    socMax: row.socMax,
    transformerProtectionKw: row.transformerProtectionKw,
    antiBackflow: row.antiBackflow,
    // The station's target in force (the demand setting), as the EMS receives it.
    demandTargetKw: (await demandTargetNow(db, st))?.demandTargetKw ?? null,
    updatedByName: u?.name ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    sync: await syncOf(ctx, db, row, st),
  };
}

export async function strategyOfSite(ctx: AppContext, user: AuthUser, siteId: number): Promise<StrategyView> {
  const st = await stationOf(ctx.db, user, siteId);
  const limits = await limitsOf(ctx.db, st.id);
  const [row] = await ctx.db.select().from(strategy).where(eq(strategy.siteId, st.id));
  return { siteId: st.id, siteName: st.name, siteCode: st.code, timeZone: st.timeZone, limits, strategy: row ? await recordOf(ctx, ctx.db, row, st) : null };
}

export async function addStrategy(ctx: AppContext, user: AuthUser | null, body: z.output<typeof strategyAdd>): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    const st = await stationOf(tx, user, body.siteId);
    await tx.execute(sql`select id from site where id = ${st.id} for update`);
    const [existing] = await tx.select({ id: strategy.id }).from(strategy).where(eq(strategy.siteId, st.id));
    if (existing) throw new AppError('DUPLICATE', STRATEGY_EXISTS);
    const content = contentOf(body);
    assertRules(content, await limitsOf(tx, st.id));
    const [row] = await tx.insert(strategy).values({ siteId: st.id, ...content, updatedBy: user?.id ?? null }).returning({ id: strategy.id });
    return { id: row!.id };
  });
}

/**
 * Saves the strategy. The EMS keeps running what was synchronised last: the state becomes
 * unsynced (the saved content's hash differs from the synchronised one) until the next synchronisation.
 */
export async function editStrategy(ctx: AppContext, user: AuthUser, body: z.output<typeof strategyEdit>): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx
      .select({ id: strategy.id, siteId: strategy.siteId })
      .from(strategy)
      .where(and(eq(strategy.id, body.id), inSiteScope(strategy.siteId, tx, user)))
      .for('update');
    const row = found(cur, '运行策略不存在');
    const content = contentOf(body);
    assertRules(content, await limitsOf(tx, row.siteId));
    await tx.update(strategy).set({ ...content, updatedBy: user.id, updatedAt: new Date() }).where(eq(strategy.id, row.id));
  });
}

export type { StrategySyncState };
