import { and, desc, eq, gt, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import {
  ALARM_LEVEL_LABELS, ALARM_LIST_MAX, ALARM_SHIELD_MAX_DAYS, ALARM_STATUS_LABELS, ALARM_TYPE_LABELS,
  type AlarmFilter, type AlarmLevel, type AlarmRecord, type AlarmRuleKind, type AlarmShieldCancel, type AlarmShieldCreate, type AlarmSortField,
  type AlarmShieldRef, type AlarmStatus, type AlarmType, type DeviceType, type Page, type PageRequest,
} from '@ess/contract';
import { alarm, alarmDict, alarmShield } from '../../db/schema/alarm.ts';
import { cabinet, device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { emit } from '../../platform/events/outbox.ts';
import './alarm.events.ts';
import { alarmEngines } from './alarm.runtime.ts';

/** Alarms as the monitor lists them (api-catalogue "Alarms" → monitor), and shields of their sources. */

interface ShieldJson {
  id: number;
  startAt: string;
  endAt: string;
  remark: string | null;
  createdBy: string;
}

/** The shield in force or still to come on the alarm's source (the earliest). */
const shieldOf = sql<ShieldJson | null>`(
  select json_build_object('id', sh.id, 'startAt', sh.start_at, 'endAt', sh.end_at, 'remark', sh.remark, 'createdBy', sh.created_by_name)
  from ${alarmShield} sh
  where sh.device_id = ${alarm.deviceId} and sh.dict_id = ${alarm.dictId} and sh.cancelled_at is null and sh.end_at > now()
  order by sh.start_at limit 1)`;

const columns = {
  id: alarm.id,
  no: alarm.no,
  level: alarm.level,
  alarmType: alarm.alarmType,
  description: alarm.description,
  status: alarm.status,
  startedAt: alarm.startedAt,
  endedAt: alarm.endedAt,
  kind: alarm.kind,
  code: alarm.code,
  triggerValue: alarm.triggerValue,
  clearValue: alarm.clearValue,
  endReason: sql<'escalated' | null>`${alarm.endReason}`,
  unit: sql<string | null>`(select nullif(pp.unit, '') from product_property pp where pp.product_id = ${device.productId} and pp.identifier = ${alarm.code} and ${alarm.kind} = 'threshold')`,
  message: alarm.message,
  dictId: alarm.dictId,
  siteId: alarm.siteId,
  siteName: site.name,
  siteCode: site.code,
  deviceId: alarm.deviceId,
  deviceCode: device.code,
  deviceName: device.name,
  deviceType: device.type,
  cabinetId: alarm.cabinetId,
  cabinetName: cabinet.name,
  shield: shieldOf,
};

/** How long an alarm has lasted: to its end, or to now while open (as toRecord's durationMs). */
const duration = sql`coalesce(${alarm.endedAt}, now()) - ${alarm.startedAt}`;
const sortable = {
  no: alarm.no, level: alarm.level, alarmType: alarm.alarmType, description: alarm.description, status: alarm.status, siteName: site.name,
  cabinetName: cabinet.name, deviceName: device.name, triggerValue: alarm.triggerValue, startedAt: alarm.startedAt, endedAt: alarm.endedAt,
  durationMs: duration,
} satisfies Record<AlarmSortField, unknown>;

const select = (db: DbOrTx, where: SQL | undefined, sort: SortRequest = {}) =>
  db
    .select(columns)
    .from(alarm)
    .innerJoin(site, eq(site.id, alarm.siteId))
    .innerJoin(device, eq(device.id, alarm.deviceId))
    .leftJoin(cabinet, eq(cabinet.id, alarm.cabinetId))
    .where(where)
    .orderBy(...sortedBy(sort, sortable, [desc(alarm.startedAt), desc(alarm.id)]));

type Row = Awaited<ReturnType<typeof select>>[number];

const iso = (v: string | Date) => new Date(v).toISOString();

function toRecord(r: Row, now = Date.now()): AlarmRecord {
  const shield: AlarmShieldRef | null = r.shield
    ? { id: Number(r.shield.id), startAt: iso(r.shield.startAt), endAt: iso(r.shield.endAt), remark: r.shield.remark, createdBy: r.shield.createdBy }
    : null;
  return {
    ...r,
    level: r.level as AlarmLevel,
    alarmType: r.alarmType as AlarmType,
    status: r.status as AlarmStatus,
    kind: r.kind as AlarmRuleKind,
    deviceType: r.deviceType as DeviceType,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    durationMs: Math.max(0, (r.endedAt?.getTime() ?? now) - r.startedAt.getTime()),
    shield,
  };
}

/** Stations of this company and every company under it. */
const underCompany = (companyId: number) =>
  sql`${alarm.siteId} in (select s.id from site s join company c on c.id = s.company_id where c.path like (select p.path from company p where p.id = ${companyId}) || '%')`;

function filterOf(db: DbOrTx, user: AuthUser, f: AlarmFilter): SQL | undefined {
  return and(
    inSiteScope(alarm.siteId, db, user),
    f.companyId ? underCompany(f.companyId) : undefined,
    f.siteId ? eq(alarm.siteId, f.siteId) : undefined,
    f.deviceId ? eq(alarm.deviceId, f.deviceId) : undefined,
    f.cabinetId ? eq(alarm.cabinetId, f.cabinetId) : undefined,
    f.level ? eq(alarm.level, f.level) : undefined,
    f.maxLevel ? lte(alarm.level, f.maxLevel) : undefined,
    f.alarmType ? eq(alarm.alarmType, f.alarmType) : undefined,
    f.status ? eq(alarm.status, f.status) : undefined,
    f.dictId ? eq(alarm.dictId, f.dictId) : undefined,
    f.start ? gte(alarm.startedAt, f.start) : undefined,
    f.end ? lt(alarm.startedAt, f.end) : undefined,
    f.keyword
      ? or(likeEscaped(alarm.no, f.keyword), likeEscaped(alarm.description, f.keyword), likeEscaped(device.code, f.keyword), likeEscaped(device.name, f.keyword))
      : undefined,
  );
}

/** A filter naming a station, company, device or cabinet the caller may not see is refused, not answered empty. */
export async function assertAlarmFilter(db: DbOrTx, user: AuthUser, f: { companyId?: number; siteId?: number; deviceId?: number; cabinetId?: number }) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
  if (f.siteId) await assertSites(db, user, [f.siteId]);
  if (f.deviceId) {
    found((await db.select({ id: device.id }).from(device).where(and(eq(device.id, f.deviceId), inSiteScope(device.siteId, db, user))))[0], '设备不存在');
  }
  if (f.cabinetId) {
    found((await db.select({ id: cabinet.id }).from(cabinet).where(and(eq(cabinet.id, f.cabinetId), inSiteScope(cabinet.siteId, db, user))))[0], '储能柜不存在');
  }
}

export async function alarmList(ctx: AppContext, user: AuthUser, f: AlarmFilter): Promise<AlarmRecord[]> {
  await assertAlarmFilter(ctx.db, user, f);
  const now = Date.now();
  return (await select(ctx.db, filterOf(ctx.db, user, f)).limit(ALARM_LIST_MAX)).map((r) => toRecord(r, now));
}

export async function alarmPage(ctx: AppContext, user: AuthUser, req: PageRequest & AlarmFilter & SortRequest): Promise<Page<AlarmRecord>> {
  await assertAlarmFilter(ctx.db, user, req);
  const where = filterOf(ctx.db, user, req);
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(alarm)
    .innerJoin(device, eq(device.id, alarm.deviceId))
    .where(where);
  const now = Date.now();
  const rows = n === 0 ? [] : await select(ctx.db, where, req).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return { records: rows.map((r) => toRecord(r, now)), total: n, current: req.current, pageSize: req.pageSize };
}

/** "1天2小时3分" style, in the reader's language. */
function durationText(ms: number, t: ExportLanguage['t']): string {
  const m = Math.floor(ms / 60_000);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  return d ? t('$1天$2小时$3分', d, h, min) : h ? t('$1小时$2分', h, min) : t('$1分', min);
}

/** At most this many alarms in one sheet (newest first). */
const EXPORT_MAX = 50_000;

/** The alarms of a filter (the monitor's list, the fault analysis's range) as xlsx in the caller's language and zone. */
export async function exportAlarms(ctx: AppContext, user: AuthUser, f: AlarmFilter, lang: ExportLanguage, reply: FastifyReply) {
  await assertAlarmFilter(ctx.db, user, f);
  const now = Date.now();
  const rows = (await select(ctx.db, filterOf(ctx.db, user, f)).limit(EXPORT_MAX)).map((r) => toRecord(r, now));
  const time = (v: string | null | undefined) => (v ? new Date(v) : null);
  const value = (v: number | null, unit: string | null) => (v === null ? null : `${v}${unit ?? ''}`);
  const columns: XlsxColumn<AlarmRecord>[] = [
    { header: '告警编号', width: 20, value: (r) => r.no },
    { header: '告警等级', width: 10, kind: 'label', value: (r) => ALARM_LEVEL_LABELS[r.level] },
    { header: '告警类型', width: 10, kind: 'label', value: (r) => ALARM_TYPE_LABELS[r.alarmType] },
    { header: '告警描述', width: 28, kind: 'label', value: (r) => r.description },
    { header: '状态', width: 8, kind: 'label', value: (r) => ALARM_STATUS_LABELS[r.status] },
    { header: '站点', width: 18, value: (r) => r.siteName },
    { header: '储能柜', width: 14, value: (r) => r.cabinetName },
    { header: '设备编码', width: 20, value: (r) => r.deviceCode },
    { header: '设备名称', width: 18, kind: 'name', value: (r) => r.deviceName },
    { header: '故障码/属性', width: 24, value: (r) => r.code },
    { header: '触发值', width: 10, value: (r) => value(r.triggerValue, r.unit) },
    { header: '恢复值', width: 10, value: (r) => value(r.clearValue, r.unit) },
    { header: '开始时间', width: 22, kind: 'instant', value: (r) => time(r.startedAt) },
    { header: '结束时间', width: 22, kind: 'instant', value: (r) => time(r.endedAt) },
    { header: '持续时长', width: 14, value: (r) => durationText(r.durationMs, lang.t) },
    { header: '屏蔽开始时间', width: 22, kind: 'instant', value: (r) => time(r.shield?.startAt) },
    { header: '屏蔽结束时间', width: 22, kind: 'instant', value: (r) => time(r.shield?.endAt) },
  ];
  return streamXlsx(reply, { fileName: '告警记录', columns }, rows, lang);
}

// ── Shields ───────────────────────────────────────────────────────────────────────────

async function alarmInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await db
    .select({ id: alarm.id, deviceId: alarm.deviceId, dictId: alarm.dictId, siteId: alarm.siteId })
    .from(alarm)
    .where(and(eq(alarm.id, id), inSiteScope(alarm.siteId, db, user)));
  return found(row, '告警不存在');
}

/** Every ingest instance reads the shields again (this one before the call answers); the `alarm.shielded` event goes out. */
async function shieldsChanged(ctx: AppContext) {
  ctx.outbox.nudge();
  await ctx.bus.publish({ type: 'reload', what: 'alarm' });
  await alarmEngines.get(ctx)?.reload();
}

/**
 * Shields a source (an alarm's device and dictionary entry, or both named) from start (default
 * now) until end: it raises no new alarm meanwhile; an alarm already open stays open and still
 * ends when its condition clears. One shield at a time per source and period.
 */
export async function createShield(ctx: AppContext, user: AuthUser, body: AlarmShieldCreate): Promise<{ id: number }> {
  const start = body.start ?? new Date();
  if (body.end.getTime() - start.getTime() > ALARM_SHIELD_MAX_DAYS * 86_400_000) throw new AppError('RULE_VIOLATION', `屏蔽有效期不能超过${ALARM_SHIELD_MAX_DAYS}天`);
  const created = await ctx.db.transaction(async (tx) => {
    let deviceId: number;
    let dictId: number;
    let alarmId: number | null = null;
    if (body.alarmId !== undefined) {
      const a = await alarmInScope(tx, user, body.alarmId);
      if (a.dictId === null) throw new AppError('RULE_VIOLATION', '该告警的字典项已删除，不能屏蔽');
      deviceId = a.deviceId;
      dictId = a.dictId;
      alarmId = a.id;
    } else {
      deviceId = body.deviceId!;
      dictId = body.dictId!;
    }
    // Locks the device row: shields of one device are created one at a time (the overlap check holds).
    const [dev] = await tx
      .select({ id: device.id, siteId: device.siteId, productId: device.productId, type: device.type })
      .from(device)
      .where(and(eq(device.id, deviceId), inSiteScope(device.siteId, tx, user)))
      .for('update');
    const d = found(dev, '设备不存在');
    const [entry] = await tx.select({ productId: alarmDict.productId, deviceType: alarmDict.deviceType }).from(alarmDict).where(eq(alarmDict.id, dictId));
    const e = found(entry, '告警字典项不存在');
    if (e.productId !== null ? e.productId !== d.productId : e.deviceType !== d.type) throw new AppError('RULE_VIOLATION', '该告警字典项不适用于此设备');
    const [overlap] = await tx
      .select({ id: alarmShield.id })
      .from(alarmShield)
      .where(
        and(
          eq(alarmShield.deviceId, deviceId), eq(alarmShield.dictId, dictId), sql`${alarmShield.cancelledAt} is null`,
          gt(alarmShield.endAt, start), lt(alarmShield.startAt, body.end), gt(alarmShield.endAt, new Date()),
        ),
      )
      .limit(1);
    if (overlap) throw new AppError('DUPLICATE', '该告警源在此期间已有屏蔽，请先取消');
    const [row] = await tx
      .insert(alarmShield)
      .values({ deviceId, dictId, siteId: d.siteId, startAt: start, endAt: body.end, remark: body.remark, alarmId, createdBy: user.id, createdByName: user.name || user.username })
      .returning({ id: alarmShield.id, siteId: alarmShield.siteId });
    await emit(tx, 'alarm.shielded', [{ shieldId: row!.id, siteId: d.siteId, deviceId, dictId, cancelled: false }]);
    return row!;
  });
  await shieldsChanged(ctx);
  return { id: created.id };
}

/** Ends a shield early (by its id, or the one in force on an alarm's source). */
export async function cancelShield(ctx: AppContext, user: AuthUser, body: AlarmShieldCancel): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    let where: SQL | undefined;
    if (body.id !== undefined) where = eq(alarmShield.id, body.id);
    else {
      const a = await alarmInScope(tx, user, body.alarmId!);
      where = and(eq(alarmShield.deviceId, a.deviceId), a.dictId === null ? sql`false` : eq(alarmShield.dictId, a.dictId), sql`${alarmShield.cancelledAt} is null`, gt(alarmShield.endAt, new Date()));
    }
    const [s] = await tx
      .select({
        id: alarmShield.id, siteId: alarmShield.siteId, deviceId: alarmShield.deviceId, dictId: alarmShield.dictId, endAt: alarmShield.endAt,
        cancelledAt: alarmShield.cancelledAt,
      })
      .from(alarmShield)
      .where(and(where, inSiteScope(alarmShield.siteId, tx, user)))
      .orderBy(alarmShield.startAt)
      .limit(1)
      .for('update');
    const shield = found(s, '屏蔽不存在');
    if (shield.cancelledAt !== null || shield.endAt.getTime() <= Date.now()) throw new AppError('RULE_VIOLATION', '屏蔽已结束');
    await tx.update(alarmShield).set({ cancelledAt: new Date(), cancelledBy: user.id }).where(eq(alarmShield.id, shield.id));
    await emit(tx, 'alarm.shielded', [{ shieldId: shield.id, siteId: shield.siteId, deviceId: shield.deviceId, dictId: shield.dictId, cancelled: true }]);
  });
  await shieldsChanged(ctx);
}
