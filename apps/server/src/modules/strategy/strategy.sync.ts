import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { localTime } from '@ess/contract';
import {
  APPLY_STRATEGY_COMMAND, NO_EMS, STRATEGY_DRIFT_ALARM, applyStrategyResult, strategyHash,
  type EmsStrategy, type StrategySync, type StrategySyncState,
} from '@ess/contract/strategy';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { targetInForce } from '../demand/index.ts';
import { statusExpr } from '../device/index.ts';
import { commandChannel } from '../monitor/index.ts';
import { deviceRegistryOf } from '../telemetry/index.ts';
import type { Station } from './strategy.service.ts';
import { limitsOf, stationOf } from './strategy.service.ts';
import './strategy.events.ts';

/** The EMS thing model's event the server raises when the EMS runs something else than the last synchronised strategy. */
export const DRIFT_EVENT = STRATEGY_DRIFT_ALARM;
/** The EMS property that carries the hash of what it runs. */
const HASH_PROPERTY = 'strategyHash';

type Row = typeof strategy.$inferSelect;

interface Ems {
  id: number;
  code: string;
  siteCode: string;
  online: boolean;
  /**
   * device_latest.text.strategyHash, and when the newest report was received (the server's clock,
   * comparable with sentAt / appliedAt; a device's own clock may run ahead or behind).
   */
  reported: string | null;
  reportedTs: Date | null;
}

/** The station's EMS: `{siteCode}-EMS-01`, else its first EMS device; with its presence and the hash it reports. */
async function emsOf(ctx: AppContext, db: DbOrTx, siteId: number): Promise<Ems | null> {
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const [d] = await db
    .select({
      id: device.id, code: device.code, siteCode: site.code, status,
      reported: sql<string | null>`${deviceLatest.text}->>${HASH_PROPERTY}`, reportedTs: deviceLatest.lastSeenAt,
    })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(and(eq(device.siteId, siteId), eq(device.type, 'ems')))
    .orderBy(desc(sql`${device.code} = ${site.code} || '-EMS-01'`), asc(device.id))
    .limit(1);
  if (!d) return null;
  return { id: d.id, code: d.code, siteCode: d.siteCode, online: d.status === 'online', reported: d.reported, reportedTs: d.reportedTs ? new Date(d.reportedTs) : null };
}

/** The station's demand target in force now (its current local month's, else the standing one): the EMS's, and the strategy's as read. */
export async function demandTargetNow(db: DbOrTx, st: Pick<Station, 'id' | 'timeZone'>, now = Date.now()): Promise<{ demandTargetKw: number; demandMarginKw: number } | null> {
  const t = await targetInForce(db, st.id, localTime(now, st.timeZone).monthKey);
  return t ? { demandTargetKw: t.targetKw, demandMarginKw: t.marginKw } : null;
}

/**
 * The strategy as the EMS receives it: its content, the station's zone, the PCS rating, and the
 * station's demand target in force now with its margin (decision 0040: the demand setting is the
 * only source of the target; the strategy row's own column is not read).
 */
export async function emsStrategyOf(db: DbOrTx, row: Row, st: Pick<Station, 'id' | 'timeZone'>, now = Date.now()): Promise<EmsStrategy> {
  const limits = await limitsOf(db, st.id);
  const target = await demandTargetNow(db, st, now);
  return {
    timeZone: st.timeZone, schedules: row.schedules, socMin: row.socMin, socMax: row.socMax, transformerProtectionKw: row.transformerProtectionKw,
    antiBackflow: row.antiBackflow, demandTargetKw: target?.demandTargetKw ?? null, ...(target ? { demandMarginKw: target.demandMarginKw } : {}), pcsRatedKw: limits.pcsRatedKw,
  };
}

/**
 * The synchronised payload with the demand target in force now in place of the one it was sent
 * with; null when they agree. The target follows the demand setting (a target set, a new month)
 * without the strategy's own unsynchronised edits going out with it.
 */
function withTargetNow(payload: EmsStrategy, target: { demandTargetKw: number; demandMarginKw: number } | null): EmsStrategy | null {
  const same = (payload.demandTargetKw ?? null) === (target?.demandTargetKw ?? null) && (payload.demandMarginKw ?? null) === (target?.demandMarginKw ?? null);
  if (same) return null;
  const { demandMarginKw: _old, ...rest } = payload;
  return { ...rest, demandTargetKw: target?.demandTargetKw ?? null, ...(target ? { demandMarginKw: target.demandMarginKw } : {}) };
}

/** The state shown: unsynced when the saved content is not what was synchronised last; else the stored state. */
export async function syncOf(ctx: AppContext, db: DbOrTx, row: Row, st: Station): Promise<StrategySync> {
  const hash = strategyHash(await emsStrategyOf(db, row, st));
  const ems = await emsOf(ctx, db, st.id);
  const state: StrategySyncState = row.syncedHash !== hash ? 'unsynced' : (row.syncState as StrategySyncState);
  return {
    strategyId: row.id, state, hash, syncedHash: row.syncedHash, appliedHash: row.appliedHash, reportedHash: row.reportedHash,
    deviceCode: ems?.code ?? null, deviceOnline: ems?.online ?? false,
    sentAt: row.sentAt?.toISOString() ?? null, appliedAt: row.appliedAt?.toISOString() ?? null, reportedAt: row.reportedAt?.toISOString() ?? null,
    attempts: row.attempts, lastError: row.lastError,
  };
}

/** Opens or ends the drift alarm of the EMS through the alarm engine (instances with the ingest role). */
async function driftAlarm(ctx: AppContext, deviceId: number, active: boolean, message: string): Promise<void> {
  const engine = alarmEngineOf(ctx);
  const registered = deviceRegistryOf(ctx).byId.get(deviceId);
  if (!engine || !registered) {
    ctx.log.warn({ deviceId, active }, 'strategy drift: no alarm engine or unregistered EMS on this instance; alarm not changed');
    return;
  }
  engine.event(registered, DRIFT_EVENT, active, message, Date.now());
  await engine.flush();
}

const driftMessage = (synced: string, runs: string) => `EMS运行的策略（${runs || '内置分时策略'}）与已同步策略（${synced}）不一致`;

/**
 * Records a hash the EMS answered or reports against what was synchronised: applied when equal,
 * drifted otherwise (the alarm opens on the way into drifted and ends on the way out), with the
 * domain events. Only for the hash synchronised last (a later synchronisation supersedes).
 */
async function judge(ctx: AppContext, id: number, syncedHash: string, emsHash: string, how: 'reply' | 'report', at: Date): Promise<StrategySyncState | null> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(strategy).where(eq(strategy.id, id)).for('update');
    if (!cur || cur.syncedHash !== syncedHash) return null;
    const next: StrategySyncState = emsHash === syncedHash ? 'applied' : 'drifted';
    const from = cur.syncState as StrategySyncState;
    const patch: Partial<Row> =
      how === 'reply'
        ? { appliedHash: emsHash, appliedAt: at, syncState: next, lastError: null }
        : { reportedHash: emsHash, reportedAt: at, syncState: next };
    await tx.update(strategy).set(patch).where(eq(strategy.id, id));
    const [d] = await tx.select({ id: device.id, code: device.code }).from(device).where(and(eq(device.siteId, cur.siteId), eq(device.type, 'ems'))).orderBy(asc(device.id)).limit(1);
    const payload = { strategyId: id, siteId: cur.siteId, deviceCode: d?.code ?? '', hash: syncedHash, emsHash, at: at.toISOString() };
    if (next === 'applied' && from !== 'applied') await emit(tx, 'strategy.synchronised', [payload]);
    if (next === 'drifted' && from !== 'drifted') await emit(tx, 'strategy.drifted', [payload]);
    return { from, next, deviceId: d?.id ?? null };
  });
  if (!outcome) return null;
  ctx.outbox.nudge();
  // Into drifted: the alarm opens. Into applied: it ends, if open (a re-synchronisation passes through pending).
  if (outcome.deviceId !== null && outcome.from !== outcome.next) {
    await driftAlarm(ctx, outcome.deviceId, outcome.next === 'drifted', driftMessage(syncedHash, emsHash));
  }
  return outcome.next;
}

/** Sends what was synchronised last to the EMS and records its answer (or the failure, leaving it pending). */
async function send(ctx: AppContext, id: number, ems: Ems, hash: string, payload: EmsStrategy): Promise<void> {
  const channel = commandChannel(ctx);
  const fail = async (error: string) => {
    await ctx.db.update(strategy).set({ lastError: error.slice(0, 500) }).where(and(eq(strategy.id, id), eq(strategy.syncedHash, hash)));
  };
  let sent;
  try {
    if (!channel) throw new Error('no MQTT broker configured');
    sent = await channel.send(ems.siteCode, ems.code, APPLY_STRATEGY_COMMAND, { strategy: payload, hash }, ctx.config.commandTimeoutMs);
  } catch (err) {
    ctx.log.warn({ err, device: ems.code }, 'strategy not sent');
    return fail('设备通信服务不可用，将在设备上线后重发');
  }
  const { outcome } = sent;
  if (outcome.kind === 'timeout') return fail(`设备${ems.code}未在${Math.round(ctx.config.commandTimeoutMs / 100) / 10}秒内应答，将在设备上线后重发`);
  if (!outcome.reply.ok) return fail(`设备拒绝执行：${outcome.reply.error ?? '未说明原因'}`);
  const result = applyStrategyResult.safeParse(outcome.reply.result ?? {});
  if (!result.success) return fail('设备应答缺少策略哈希');
  await judge(ctx, id, hash, result.data.hash, 'reply', new Date());
}

/**
 * GET synchronization: sends the saved strategy to the station's EMS (`applyStrategy`, QoS 1)
 * and waits for its answer. Idempotent: a strategy the EMS already confirmed and runs is not sent
 * again; sending the same content twice changes nothing on the EMS either.
 */
export async function synchronise(ctx: AppContext, user: AuthUser | null, id: number): Promise<StrategySync> {
  const [row] = await ctx.db
    .select()
    .from(strategy)
    .where(and(eq(strategy.id, id), user ? inSiteScope(strategy.siteId, ctx.db, user) : undefined));
  const cur = found(row, '运行策略不存在');
  const st = await stationOf(ctx.db, null, cur.siteId);
  const ems = await emsOf(ctx, ctx.db, st.id);
  if (!ems) throw new AppError('RULE_VIOLATION', NO_EMS);
  const payload = await emsStrategyOf(ctx.db, cur, st);
  const hash = strategyHash(payload);
  const runs = cur.syncedHash === hash && cur.syncState === 'applied' && (cur.reportedHash === null || cur.reportedHash === hash);
  if (!runs) {
    await ctx.db
      .update(strategy)
      .set({
        syncedHash: hash, syncedPayload: payload, syncState: 'pending', sentAt: new Date(), lastError: null,
        attempts: cur.syncedHash === hash ? sql`${strategy.attempts} + 1` : 1,
        ...(cur.syncedHash === hash ? {} : { appliedHash: null, appliedAt: null }),
      })
      .where(eq(strategy.id, id));
    await send(ctx, id, ems, hash, payload);
  }
  const [after] = await ctx.db.select().from(strategy).where(eq(strategy.id, id));
  return syncOf(ctx, ctx.db, after!, st);
}

/** Re-sends a pending strategy (device back online, or the sweep). */
async function resend(ctx: AppContext, row: Row, ems: Ems): Promise<void> {
  if (!row.syncedHash || !row.syncedPayload) return;
  await ctx.db.update(strategy).set({ sentAt: new Date(), attempts: sql`${strategy.attempts} + 1` }).where(and(eq(strategy.id, row.id), eq(strategy.syncedHash, row.syncedHash)));
  await send(ctx, row.id, ems, row.syncedHash, row.syncedPayload as unknown as EmsStrategy);
}

/**
 * A synchronised strategy whose demand target is no longer the one in force (a target set, a
 * month boundary): its synchronised payload gets the target in force and goes out again as a
 * pending synchronisation (the schedules and limits stay what was synchronised). Returns whether
 * it was re-targeted.
 */
export async function retarget(ctx: AppContext, row: Row, now = Date.now()): Promise<boolean> {
  if (!row.syncedHash || !row.syncedPayload) return false;
  const st = await stationOf(ctx.db, null, row.siteId);
  const payload = withTargetNow(row.syncedPayload as unknown as EmsStrategy, await demandTargetNow(ctx.db, st, now));
  if (!payload) return false;
  const hash = strategyHash(payload);
  const [moved] = await ctx.db
    .update(strategy)
    .set({ syncedHash: hash, syncedPayload: payload, syncState: 'pending', sentAt: new Date(), attempts: 1, appliedHash: null, appliedAt: null, lastError: null })
    .where(and(eq(strategy.id, row.id), eq(strategy.syncedHash, row.syncedHash)))
    .returning({ id: strategy.id });
  if (!moved) return false;
  const ems = await emsOf(ctx, ctx.db, row.siteId);
  // Offline: it stays pending, and goes out when the EMS is back (the reconnect event, the sweep).
  if (ems?.online) await send(ctx, row.id, ems, hash, payload);
  return true;
}

/**
 * The sweep (every few seconds, and when an EMS comes online): every synchronised strategy is
 * compared with the hash its EMS reports (drift opens the alarm, agreement ends it); a pending
 * one whose EMS is online is sent again (not more often than the command timeout), and so is one
 * whose EMS reports running none (it lost it). `siteIds` limits it to those stations.
 */
export async function sweepStrategies(ctx: AppContext, siteIds?: readonly number[]): Promise<{ resent: number; drifted: number }> {
  const rows = await ctx.db.select().from(strategy).where(isNotNull(strategy.syncedHash));
  let resent = 0;
  let drifted = 0;
  for (const row of rows) {
    if (siteIds && !siteIds.includes(row.siteId)) continue;
    try {
      // The demand target in force changed (a new month): the EMS gets it (decision 0040).
      if (await retarget(ctx, row)) {
        resent++;
        continue;
      }
      const ems = await emsOf(ctx, ctx.db, row.siteId);
      if (!ems) continue;
      let state = row.syncState as StrategySyncState;
      // Only reports measured after the strategy was sent (or confirmed) say what the EMS runs now.
      const since = row.appliedAt ?? row.sentAt;
      const fresh = ems.reported !== null && ems.reportedTs !== null && (!since || ems.reportedTs > since) && (!row.reportedAt || ems.reportedTs > row.reportedAt || ems.reported !== row.reportedHash);
      if (fresh && ems.reportedTs && ems.reported !== null && (ems.reported === row.syncedHash || state !== 'pending')) {
        state = (await judge(ctx, row.id, row.syncedHash!, ems.reported, 'report', ems.reportedTs)) ?? state;
      }
      if (state === 'drifted') drifted++;
      const due = !row.sentAt || Date.now() - row.sentAt.getTime() >= ctx.config.commandTimeoutMs || siteIds !== undefined;
      // An EMS that reports its built-in behaviour ("") lost the strategy (a restart without it): sent again like a pending one.
      const lost = state === 'drifted' && ems.reported === '';
      if ((state === 'pending' || lost) && ems.online && due) {
        await resend(ctx, row, ems);
        resent++;
      }
    } catch (err) {
      ctx.log.warn({ err, strategyId: row.id }, 'strategy sweep failed for a station');
    }
  }
  return { resent, drifted };
}
