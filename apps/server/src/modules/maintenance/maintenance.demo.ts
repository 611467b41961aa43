import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  DEFECT_NO_PREFIX, REPAIR_DUE_HOURS, REPAIR_NO_PREFIX, addDays, daysBetween, dueSlot, localDateOf, planSchedule,
  type CheckType, type DeviceType, type MaintLevel, type MaintLogEntity, type PlanSchedule,
} from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import {
  inspectionDefect, inspectionItem, inspectionPlan, inspectionPlanItem, inspectionPlanSite, inspectionWorkOrder, inspectionWorkOrderItem, maintenanceLog, repairOrder,
} from '../../db/schema/maintenance.ts';
import { site, userSite } from '../../db/schema/site.ts';
import { appUser, role, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { hashPassword } from '../../platform/password.ts';
import { generatePlan } from './plan.generator.ts';

/**
 * The maintenance demo (rule 9), written once after the demo's history (its alarms exist by
 * then): inspection items for each device type of the demo stations, a daily and a weekly plan
 * per station, two weeks of orders made by the generator itself day by day and then worked
 * (completed, a few late, overdue and open ones, results with some failures and their defects),
 * and repair orders from the latest demo alarms in every state, so a maintenance user sees work
 * on a fresh start. Two demo repairers per company (运维人员, no known password: an administrator
 * sets one to sign in as them) work the history; today's open orders of the daily plans and the
 * repair order waiting for check-in are the administrator's, the one account a new user of the
 * demo can sign in with, so "my orders today" on the phone has work in it and check-in can be tried.
 */

const HISTORY_DAYS = 14;
const MIN = 60_000;
const HOUR = 3_600_000;

interface DemoItem {
  name: string;
  checkType: CheckType;
  unit?: string;
  min?: number;
  max?: number;
  standard: string;
}

const ITEMS: Partial<Record<DeviceType, DemoItem[]>> = {
  pcs: [
    { name: 'PCS 柜内温度', checkType: 'number', unit: '°C', min: -10, max: 45, standard: '柜内温度不高于45 °C' },
    { name: 'PCS 运行声音', checkType: 'status', standard: '无异响、无焦糊味' },
  ],
  bms: [{ name: 'BMS 单体压差', checkType: 'number', unit: 'mV', min: 0, max: 50, standard: '最大单体压差不超过50 mV' }],
  batteryCluster: [{ name: '电池簇连接紧固', checkType: 'status', standard: '连接排无松动、无变色' }],
  airConditioner: [{ name: '空调滤网', checkType: 'photo', standard: '滤网清洁无堵塞，拍照留存' }],
  ems: [{ name: 'EMS 通讯状态', checkType: 'status', standard: '与各设备通讯正常，无告警' }],
  meter: [{ name: '电表读数核对', checkType: 'text', standard: '记录正向、反向有功总读数' }],
  pvInverter: [{ name: '逆变器外观', checkType: 'status', standard: '外壳无破损，散热口无遮挡' }],
  chargingPile: [{ name: '充电枪外观', checkType: 'photo', standard: '枪头无损伤，线缆无破皮' }],
  transformer: [{ name: '变压器油温', checkType: 'number', unit: '°C', min: -20, max: 85, standard: '油温不高于85 °C' }],
  dcdc: [{ name: 'DC/DC 散热', checkType: 'status', standard: '风扇运转正常' }],
};
const SITE_ITEM: DemoItem = { name: '消防器材检查', checkType: 'status', standard: '灭火器压力正常、在有效期内' };

/** A stable pseudo-random number in [0, 1) from integers. */
const rand = (...n: number[]) => {
  let h = 2166136261;
  for (const x of n) h = Math.imul(h ^ x, 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
};

export async function seedMaintenanceDemo(ctx: AppContext, now = Date.now()): Promise<boolean> {
  const { db } = ctx;
  if ((await db.select({ id: inspectionPlan.id }).from(inspectionPlan).limit(1)).length) return false;
  const stations = await db.select({ id: site.id, companyId: site.companyId, name: site.name, timeZone: site.timeZone }).from(site).orderBy(asc(site.id));
  if (stations.length === 0) return false;
  const [admin] = await db.select({ id: appUser.id, name: appUser.name }).from(appUser).where(eq(appUser.username, 'admin'));
  const workers = await demoWorkers(db, stations);

  for (const st of stations) {
    const types = (await db.selectDistinct({ type: device.type }).from(device).where(eq(device.siteId, st.id))).map((r) => r.type as DeviceType);
    const itemIds = new Map<string, { id: number; checkType: CheckType }>();
    for (const def of [SITE_ITEM, ...types.flatMap((t) => ITEMS[t] ?? [])]) {
      const deviceType = (Object.keys(ITEMS) as DeviceType[]).find((t) => ITEMS[t]?.includes(def)) ?? null;
      const [row] = await db
        .insert(inspectionItem)
        .values({ companyId: st.companyId, name: def.name, deviceType, checkType: def.checkType, unit: def.unit ?? null, minValue: def.min ?? null, maxValue: def.max ?? null, standard: def.standard, createdBy: admin?.id ?? null })
        .onConflictDoNothing()
        .returning({ id: inspectionItem.id });
      const id = row?.id ?? (await db.select({ id: inspectionItem.id }).from(inspectionItem).where(and(eq(inspectionItem.companyId, st.companyId), eq(inspectionItem.name, def.name))))[0]!.id;
      itemIds.set(def.name, { id, checkType: def.checkType });
    }
    const all = [...itemIds.values()];
    const start = addDays(localDateOf(now, st.timeZone), -(HISTORY_DAYS + 1));
    const assignees = (workers.get(st.companyId) ?? []).map((w) => w.id);
    const daily = await demoPlan(db, st, `日常巡检 · ${st.name}`, planSchedule.parse({ kind: 'daily', startDate: start, time: '08:00', dueHours: 10 }), all.filter((i) => i.checkType !== 'photo').map((i) => i.id), assignees, admin?.id ?? null);
    const weekly = await demoPlan(db, st, `每周巡检 · ${st.name}`, planSchedule.parse({ kind: 'weekly', weekdays: [1, 4], startDate: start, time: '09:00', dueHours: 48 }), all.map((i) => i.id), assignees, admin?.id ?? null);
    for (const plan of [daily, weekly]) {
      for (let k = HISTORY_DAYS; k >= 0; k--) {
        const date = addDays(localDateOf(now, st.timeZone), -k);
        const at = Math.min(now, dueSlot(plan.schedule, date, st.timeZone).startAt + HOUR);
        await generatePlan(ctx, plan.id, at);
        await workDay(db, plan.id, date, localDateOf(now, st.timeZone), workers.get(st.companyId) ?? [], now);
      }
    }
    if (admin) await todayToAdmin(db, daily.id, localDateOf(now, st.timeZone), admin, now);
  }
  await demoRepairs(db, workers, now, admin);
  return true;
}

/**
 * Today's open order of a daily plan goes to the administrator (pending): the
 * demo's repairers have no known password, so without this a new user signed in as admin finds
 * "my orders today" empty. None before the plan's start time of the day (the generator has not
 * made it yet).
 */
async function todayToAdmin(db: DbOrTx, planId: number, today: string, admin: { id: number; name: string }, now: number) {
  const [o] = await db
    .select()
    .from(inspectionWorkOrder)
    .where(and(eq(inspectionWorkOrder.planId, planId), eq(inspectionWorkOrder.scheduledDate, today), inArray(inspectionWorkOrder.status, ['toBeAssigned', 'pending'])));
  if (!o) return;
  // Already allocated (to a repairer, journaled), it changes hands; else it is allocated now.
  const at = o.openedAt?.getTime() ?? Math.min(now, o.startAt.getTime() + 5 * MIN);
  await db.update(inspectionWorkOrder).set({ status: 'pending', assigneeId: admin.id, assigneeName: admin.name || 'admin', openedAt: new Date(at), updatedAt: new Date(at) }).where(eq(inspectionWorkOrder.id, o.id));
  if (o.status === 'toBeAssigned') await journal(db, 'workOrder', o.id, [['allocate', 'toBeAssigned', 'pending', at, '系统管理员']]);
}

/** Two repairers per company owning stations, holding the 运维人员 role and its stations. */
async function demoWorkers(db: DbOrTx, stations: { id: number; companyId: number }[]) {
  const out = new Map<number, { id: number; name: string }[]>();
  const [maintRole] = await db.select({ id: role.id }).from(role).where(eq(role.name, '运维人员')).limit(1);
  const hash = await hashPassword(randomBytes(24).toString('base64url'));
  const companyIds = [...new Set(stations.map((s) => s.companyId))];
  for (const [c, companyId] of companyIds.entries()) {
    const list: { id: number; name: string }[] = [];
    for (const name of [['张工', 'zhang'], ['李工', 'li']] as const) {
      const [u] = await db
        .insert(appUser)
        .values({ companyId, username: `demo-${name[1]}-${c + 1}`, name: `${name[0]}${c + 1}`, passwordHash: hash, status: 1 })
        .onConflictDoNothing()
        .returning({ id: appUser.id, name: appUser.name });
      if (!u) continue;
      if (maintRole) await db.insert(userRole).values({ userId: u.id, roleId: maintRole.id });
      const mine = stations.filter((s) => s.companyId === companyId).map((s) => s.id);
      if (mine.length) await db.insert(userSite).values(mine.map((siteId) => ({ userId: u.id, siteId })));
      list.push(u);
    }
    out.set(companyId, list);
  }
  return out;
}

async function demoPlan(db: DbOrTx, st: { id: number; companyId: number }, name: string, schedule: PlanSchedule, itemIds: number[], assigneeIds: number[], ownerId: number | null) {
  const [p] = await db
    .insert(inspectionPlan)
    .values({ companyId: st.companyId, name, status: 'executing', schedule, startDate: schedule.startDate, endDate: null, assigneeIds, ownerId })
    .returning({ id: inspectionPlan.id });
  await db.insert(inspectionPlanSite).values({ planId: p!.id, siteId: st.id });
  await db.insert(inspectionPlanItem).values(itemIds.map((itemId, sort) => ({ planId: p!.id, itemId, sort })));
  return { id: p!.id, schedule };
}

async function journal(db: DbOrTx, entity: MaintLogEntity, entityId: number, rows: [string, string, string, number, string][]) {
  if (rows.length === 0) return;
  await db.insert(maintenanceLog).values(
    rows.map(([action, fromState, toState, at, username]) => ({ entity, entityId, action, fromState, toState, username, userId: null, createdAt: new Date(at) })),
  );
}

/**
 * Works the orders a plan got for `date`: two days old or more mostly completed (a few late, one
 * in twelve results failed with its defect, now and then one closed or left processing), yesterday's
 * assigned, today's waiting.
 */
async function workDay(db: DbOrTx, planId: number, date: string, today: string, workers: { id: number; name: string }[], now: number) {
  const orders = await db.select().from(inspectionWorkOrder).where(and(eq(inspectionWorkOrder.planId, planId), eq(inspectionWorkOrder.scheduledDate, date)));
  for (const o of orders) {
    const age = daysBetween(date, today);
    const r = rand(o.id, 7);
    const worker = workers[o.id % Math.max(1, workers.length)];
    const start = o.startAt.getTime();
    if (age === 0 && r < 0.5) continue;
    if (!worker) continue;
    const assigned = start + 5 * MIN;
    const log: [string, string, string, number, string][] = [['allocate', 'toBeAssigned', 'pending', assigned, '系统管理员']];
    if (age <= 1 || (r > 0.93 && age < 6)) {
      await db.update(inspectionWorkOrder).set({ status: 'pending', assigneeId: worker.id, assigneeName: worker.name, openedAt: new Date(assigned), updatedAt: new Date(assigned) }).where(eq(inspectionWorkOrder.id, o.id));
      await journal(db, 'workOrder', o.id, log);
      continue;
    }
    if (r > 0.9) {
      const closed = start + 3 * HOUR;
      await db.update(inspectionWorkOrder).set({ status: 'closed', openedAt: new Date(assigned), closedAt: new Date(closed), note: '设备停机检修，本次巡检取消', updatedAt: new Date(closed) }).where(eq(inspectionWorkOrder.id, o.id));
      await journal(db, 'workOrder', o.id, [['close', 'toBeAssigned', 'closed', closed, '系统管理员']]);
      continue;
    }
    const started = start + 30 * MIN;
    const late = r > 0.8;
    const done = Math.min(now - MIN, late ? o.dueAt.getTime() + 2 * HOUR : start + (90 + Math.round(r * 120)) * MIN);
    const items = await db.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, o.id));
    for (const it of items) {
      const fail = rand(it.id, 3) < 1 / 12;
      const value = it.checkType === 'number' ? resultValue(it.minValue, it.maxValue, fail, rand(it.id, 5)) : null;
      let defectId: number | null = null;
      if (fail) {
        const [dev] = it.deviceType
          ? await db.select({ id: device.id }).from(device).where(and(eq(device.siteId, o.siteId), eq(device.type, it.deviceType))).limit(1)
          : [];
        const [d] = await db
          .insert(inspectionDefect)
          .values({
            no: `${DEFECT_NO_PREFIX}${date.replaceAll('-', '')}${String(it.id).padStart(6, '0')}`, siteId: o.siteId, deviceId: dev?.id ?? null, level: 3,
            description: `${it.name}异常：${it.standard ?? ''}`.slice(0, 500), status: age > 6 ? 'resolved' : 'open', workOrderId: o.id, workOrderItemId: it.id,
            foundAt: new Date(done - 20 * MIN), foundBy: worker.id, foundByName: worker.name, createdAt: new Date(done - 20 * MIN), updatedAt: new Date(done),
          })
          .returning({ id: inspectionDefect.id });
        defectId = d!.id;
      }
      await db
        .update(inspectionWorkOrderItem)
        .set({
          result: fail ? 'fail' : 'pass', value, outOfRange: fail && value !== null, defectId,
          text: it.checkType === 'text' ? '正向有功 12873.4 kWh，反向有功 11902.8 kWh' : fail ? '现场发现异常，已登记缺陷' : null,
          checkedAt: new Date(done - 30 * MIN), checkedBy: worker.id,
        })
        .where(eq(inspectionWorkOrderItem.id, it.id));
    }
    const processingOnly = r > 0.86 && age < 4;
    await db
      .update(inspectionWorkOrder)
      .set({
        status: processingOnly ? 'processing' : 'completed', assigneeId: worker.id, assigneeName: worker.name, openedAt: new Date(assigned), startedAt: new Date(started),
        completedAt: processingOnly ? null : new Date(done), updatedAt: new Date(processingOnly ? started : done),
      })
      .where(eq(inspectionWorkOrder.id, o.id));
    log.push(['handle', 'pending', 'processing', started, worker.name]);
    if (!processingOnly) log.push(['complete', 'processing', 'completed', done, worker.name]);
    await journal(db, 'workOrder', o.id, log);
  }
}

function resultValue(min: number | null, max: number | null, fail: boolean, r: number): number {
  const lo = min ?? 0;
  const hi = max ?? lo + 100;
  return Math.round((fail ? hi + (hi - lo) * 0.1 + r * 5 : lo + (hi - lo) * (0.3 + r * 0.4)) * 10) / 10;
}

/** The repair flow's states in order. */
const FLOW: readonly string[] = ['toBeDispatched', 'pending', 'processing', 'toBeAccepted', 'completed'];

/** Repair orders from the latest demo alarms, one in each state (the one waiting for check-in the administrator's), and one from a defect. */
async function demoRepairs(db: DbOrTx, workers: Map<number, { id: number; name: string }[]>, now: number, admin: { id: number; name: string } | undefined) {
  const alarms = await db
    .select({ a: alarm, companyId: site.companyId })
    .from(alarm)
    .innerJoin(site, eq(site.id, alarm.siteId))
    .where(sql`${alarm.startedAt} < ${new Date(now - 2 * HOUR)}`)
    .orderBy(desc(alarm.startedAt))
    .limit(8);
  // No closed one: repair orders have no close call (decision 0045).
  const states = ['toBeDispatched', 'pending', 'processing', 'toBeAccepted', 'completed', 'completed', 'completed', 'completed'] as const;
  for (const [i, { a, companyId }] of alarms.entries()) {
    const status = states[i]!;
    const worker = status === 'pending' && admin ? { id: admin.id, name: admin.name || 'admin' } : (workers.get(companyId) ?? [])[i % 2];
    const t0 = a.startedAt.getTime();
    const created = t0 + 12 * MIN;
    const accepted = t0 + (25 + i * 7) * MIN;
    const completed = t0 + (150 + i * 40) * MIN;
    const reached = (s: string) => FLOW.indexOf(status) >= FLOW.indexOf(s);
    const dispatched = status !== 'toBeDispatched';
    const [row] = await db
      .insert(repairOrder)
      .values({
        no: `${REPAIR_NO_PREFIX}${new Date(created).toISOString().slice(0, 10).replaceAll('-', '')}${String(a.id).padStart(6, '0')}`,
        siteId: a.siteId, deviceId: a.deviceId, level: a.level, title: a.description.slice(0, 64), description: `告警 ${a.no}：${a.description}`,
        source: i % 3 === 0 ? 'autoAlarm' : 'alarm', status, alarmId: a.id, alarmStartedAt: a.startedAt,
        assigneeId: dispatched ? (worker?.id ?? null) : null, assigneeName: dispatched ? (worker?.name ?? null) : null,
        dueAt: new Date(created + REPAIR_DUE_HOURS[a.level as MaintLevel] * HOUR), dispatchedAt: dispatched ? new Date(created + 3 * MIN) : null,
        acceptedAt: dispatched && reached('processing') ? new Date(accepted) : null, checkInAt: dispatched && reached('processing') ? new Date(accepted) : null,
        workStartAt: reached('toBeAccepted') ? new Date(accepted + 5 * MIN) : null, workEndAt: reached('toBeAccepted') ? new Date(completed - 30 * MIN) : null,
        workDone: reached('toBeAccepted') ? '现场排查故障原因，更换故障部件并复位设备，运行观察正常' : null,
        parts: reached('toBeAccepted') ? [{ name: '熔断器', model: 'RT18-32', quantity: 2, unit: '只' }] : [],
        completedAt: status === 'completed' ? new Date(completed) : null,
        sourceAction: status === 'completed' ? 'reset' : null, createdByName: '系统', createdAt: new Date(created), updatedAt: new Date(created),
      })
      .onConflictDoNothing()
      .returning({ id: repairOrder.id });
    if (!row) continue;
    const log: [string, string, string, number, string][] = [];
    if (dispatched) log.push(['allocate', 'toBeDispatched', 'pending', created + 3 * MIN, '系统管理员']);
    if (dispatched && reached('processing')) log.push(['checkIn', 'pending', 'processing', accepted, worker?.name ?? '系统']);
    if (reached('toBeAccepted')) log.push(['handle', 'processing', 'toBeAccepted', completed - 30 * MIN, worker?.name ?? '系统']);
    if (status === 'completed') log.push(['accept', 'toBeAccepted', 'completed', completed, '系统管理员']);
    await journal(db, 'repair', row.id, log);
  }
  // A defect still open raises a repair order (processing).
  const [defect] = await db.select().from(inspectionDefect).where(eq(inspectionDefect.status, 'open')).orderBy(desc(inspectionDefect.foundAt)).limit(1);
  if (!defect) return;
  const [st] = await db.select({ companyId: site.companyId }).from(site).where(eq(site.id, defect.siteId));
  const worker = (workers.get(st!.companyId) ?? [])[0];
  const created = defect.foundAt.getTime() + HOUR;
  const [row] = await db
    .insert(repairOrder)
    .values({
      no: `${REPAIR_NO_PREFIX}${new Date(created).toISOString().slice(0, 10).replaceAll('-', '')}D${String(defect.id).padStart(5, '0')}`,
      siteId: defect.siteId, deviceId: defect.deviceId, level: defect.level, title: defect.description.slice(0, 64), description: defect.description, source: 'defect',
      status: 'processing', defectId: defect.id, photos: defect.photos, assigneeId: worker?.id ?? null, assigneeName: worker?.name ?? null,
      dueAt: new Date(created + REPAIR_DUE_HOURS[3] * HOUR), dispatchedAt: new Date(created + 5 * MIN), acceptedAt: new Date(created + 40 * MIN), checkInAt: new Date(created + 40 * MIN),
      createdByName: worker?.name ?? '系统', createdAt: new Date(created), updatedAt: new Date(created + 40 * MIN),
    })
    .returning({ id: repairOrder.id });
  await db.update(inspectionDefect).set({ status: 'repairing', repairOrderId: row!.id }).where(eq(inspectionDefect.id, defect.id));
  await journal(db, 'repair', row!.id, [
    ['allocate', 'toBeDispatched', 'pending', created + 5 * MIN, '系统管理员'],
    ['checkIn', 'pending', 'processing', created + 40 * MIN, worker?.name ?? '系统'],
  ]);
}
