import { performance } from 'node:perf_hooks';
import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  CALLBACK_CODES, type CallbackCode, type CallbackDef, type CallbackExecRecord, type DeviceStatus, type Page, type PageRequest,
} from '@ess/contract';
import { callbackExec, site, siteKeyValue } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';
import { latestList } from '../device/index.ts';
import { pruneBindings } from './diagram.service.ts';
import { siteInScope } from './site.service.ts';

/**
 * Callbacks: operations the platform registers for a station and that an operator can run on
 * demand. Each run really performs the operation, and its parameters, outcome, result and
 * duration are kept as an execution record.
 */
interface Callback {
  name: string;
  description: string;
  run(ctx: AppContext, user: AuthUser, siteId: number): Promise<unknown>;
}

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;
const sum = (xs: unknown[]) => xs.reduce<number>((a, x) => a + (typeof x === 'number' && Number.isFinite(x) ? x : 0), 0);

const CALLBACKS: Record<CallbackCode, Callback> = {
  'site.deviceStatus': {
    name: '站点设备状态汇总',
    description: '统计站点设备的在线、离线、禁用、未激活数量及最近上报时间',
    async run(ctx, user, siteId) {
      const devices = await latestList(ctx, user, { siteId });
      const byStatus: Record<DeviceStatus, number> = { online: 0, offline: 0, disabled: 0, inactive: 0 };
      for (const d of devices) byStatus[d.status] += 1;
      const last = devices.map((d) => d.ts).filter((t): t is string => t !== null).sort().at(-1) ?? null;
      return { total: devices.length, ...byStatus, lastReportAt: last };
    },
  },
  'site.diagramCheck': {
    name: '配电图绑定校验',
    description: '检查配电图中的绑定是否仍指向站点的设备和属性，移除失效的绑定',
    async run(ctx, _user, siteId) {
      const r = await ctx.db.transaction((tx) => pruneBindings(tx, siteId));
      if (!r) throw new AppError('RULE_VIOLATION', '该站点尚未上传配电图');
      return r;
    },
  },
  'site.energyCheck': {
    name: '储能关键值核对',
    description: '按关键值计算今日循环次数（今日充放电量 ÷ (放电深度 × 2 × 装机容量)），并核对装机功率与储能变流器额定功率之和',
    async run(ctx, user, siteId) {
      const [kv] = await ctx.db.select().from(siteKeyValue).where(eq(siteKeyValue.siteId, siteId));
      if (!kv?.installedCapacity || !kv.depthOfDischarge) throw new AppError('RULE_VIOLATION', '请先在站点设置中填写装机容量和放电深度');
      const pcs = await latestList(ctx, user, { siteId, type: 'pcs', identifiers: ['todayChargeEnergy', 'todayDischargeEnergy'] });
      const charge = sum(pcs.map((d) => d.values.todayChargeEnergy));
      const discharge = sum(pcs.map((d) => d.values.todayDischargeEnergy));
      const ratedPower = sum(pcs.map((d) => d.ratedPower));
      const cycleCount = (charge + discharge) / ((kv.depthOfDischarge / 100) * 2 * kv.installedCapacity);
      return {
        pcsCount: pcs.length,
        todayChargeEnergy: round(charge),
        todayDischargeEnergy: round(discharge),
        cycleCount: round(cycleCount, 4),
        installedPower: kv.installedPower,
        pcsRatedPower: round(ratedPower),
        powerMatches: kv.installedPower === null ? null : Math.abs(kv.installedPower - ratedPower) < 0.01,
      };
    },
  },
};

/** Records of stations the caller sees (or of no station, within the caller's companies). */
function execScope(ctx: AppContext, user: AuthUser): SQL {
  return and(inCompanyScope(callbackExec.companyId, ctx.db, user), or(isNull(callbackExec.siteId), inSiteScope(callbackExec.siteId, ctx.db, user)))!;
}

export async function callbackList(ctx: AppContext, user: AuthUser, f: { keyword?: string }): Promise<CallbackDef[]> {
  const stats = await ctx.db
    .select({ code: callbackExec.code, runs: count(), last: sql<string>`max(${callbackExec.id})` })
    .from(callbackExec)
    .where(execScope(ctx, user))
    .groupBy(callbackExec.code);
  const lastIds = stats.map((s) => Number(s.last));
  const lastRows = lastIds.length
    ? await ctx.db.select({ id: callbackExec.id, at: callbackExec.createdAt, success: callbackExec.success, username: callbackExec.username }).from(callbackExec).where(sql`${callbackExec.id} in ${lastIds}`)
    : [];
  const byId = new Map(lastRows.map((r) => [r.id, r]));
  const keyword = f.keyword?.toLowerCase();
  return CALLBACK_CODES.map((code) => {
    const s = stats.find((x) => x.code === code);
    const last = s ? byId.get(Number(s.last)) : undefined;
    return {
      code,
      name: CALLBACKS[code].name,
      description: CALLBACKS[code].description,
      params: ['siteId'],
      runs: s?.runs ?? 0,
      lastRun: last ? { at: last.at.toISOString(), success: last.success, username: last.username } : null,
    };
  }).filter((d) => !keyword || d.code.toLowerCase().includes(keyword) || d.name.includes(f.keyword!));
}

const toRecord = (r: typeof callbackExec.$inferSelect & { siteName: string | null }): CallbackExecRecord => ({
  id: r.id,
  code: r.code as CallbackCode,
  siteId: r.siteId,
  siteName: r.siteName,
  username: r.username,
  params: r.params,
  success: r.success,
  result: r.result ?? null,
  error: r.error,
  durationMs: r.durationMs,
  createdAt: r.createdAt.toISOString(),
});

/** Execution records, newest first. */
export async function callbackExecPage(
  ctx: AppContext,
  user: AuthUser,
  req: PageRequest & { code?: CallbackCode; siteId?: number; success?: boolean },
): Promise<Page<CallbackExecRecord>> {
  if (req.siteId) await siteInScope(ctx.db, user, req.siteId);
  const where = and(
    execScope(ctx, user),
    req.code ? eq(callbackExec.code, req.code) : undefined,
    req.siteId ? eq(callbackExec.siteId, req.siteId) : undefined,
    req.success !== undefined ? eq(callbackExec.success, req.success) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(callbackExec).where(where);
  const rows = n === 0
    ? []
    : await ctx.db
      .select({ exec: callbackExec, siteName: site.name })
      .from(callbackExec)
      .leftJoin(site, eq(site.id, callbackExec.siteId))
      .where(where)
      .orderBy(desc(callbackExec.id))
      .limit(req.pageSize)
      .offset((req.current - 1) * req.pageSize);
  return { records: rows.map((r) => toRecord({ ...r.exec, siteName: r.siteName })), total: n, current: req.current, pageSize: req.pageSize };
}

/**
 * Runs a callback for a station of the caller's and records the run. A callback that fails
 * (e.g. the station has no diagram) is recorded as failed and the record is returned; a station
 * outside the caller's scope is refused before anything runs.
 */
export async function execCallback(ctx: AppContext, user: AuthUser, body: { code: CallbackCode; siteId: number }): Promise<CallbackExecRecord> {
  const s = await siteInScope(ctx.db, user, body.siteId);
  const started = performance.now();
  let success = true;
  let result: unknown = null;
  let error: string | null = null;
  try {
    result = await CALLBACKS[body.code].run(ctx, user, s.id);
  } catch (err) {
    success = false;
    if (err instanceof AppError) error = err.tip;
    else {
      ctx.log.error({ err, code: body.code, siteId: s.id }, 'callback failed');
      error = '执行失败，请查看服务日志';
    }
  }
  const [row] = await ctx.db
    .insert(callbackExec)
    .values({
      code: body.code, companyId: s.companyId, siteId: s.id, userId: user.id, username: user.username,
      params: { siteId: s.id }, success, result, error: error?.slice(0, 500) ?? null, durationMs: Math.round(performance.now() - started),
    })
    .returning();
  return toRecord({ ...row!, siteName: s.name });
}
