import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@ess/contract';
import {
  FIRMWARE_TASK_FAILED_STATES, type FirmwareTaskDetail, type FirmwareTaskRecord, type FirmwareTaskState, type FirmwareWaitReason, firmwareTaskPage,
} from '@ess/contract/firmware';
import { device } from '../../db/schema/device.ts';
import { firmwareRollout, firmwareRolloutGroup, firmwareTask, firmwareTaskStep } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';

/** Device tasks (/firmware/task): the rows of the caller's companies and stations, with their step history. */
type PageReq = z.output<typeof firmwareTaskPage>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const columns = {
  t: firmwareTask, rolloutName: firmwareRollout.name, groupNo: firmwareRolloutGroup.no, deviceCode: device.code, deviceName: device.name, siteName: site.name,
};

function base(ctx: AppContext, user: AuthUser) {
  return ctx.db
    .select(columns)
    .from(firmwareTask)
    .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
    .innerJoin(firmwareRolloutGroup, eq(firmwareRolloutGroup.id, firmwareTask.groupId))
    .innerJoin(device, eq(device.id, firmwareTask.deviceId))
    .innerJoin(site, eq(site.id, firmwareTask.siteId))
    .$dynamic()
    .where(and(inCompanyScope(firmwareRollout.companyId, ctx.db, user), inSiteScope(firmwareTask.siteId, ctx.db, user)));
}

type Joined = { t: typeof firmwareTask.$inferSelect; rolloutName: string; groupNo: number; deviceCode: string; deviceName: string; siteName: string };
const record = ({ t, ...x }: Joined): FirmwareTaskRecord => ({
  id: t.id, rolloutId: t.rolloutId, rolloutName: x.rolloutName, groupId: t.groupId, groupNo: x.groupNo, deviceId: t.deviceId, deviceCode: x.deviceCode,
  deviceName: x.deviceName, siteId: t.siteId, siteName: x.siteName, fromVersion: t.fromVersion, toVersion: t.toVersion, reportedVersion: t.reportedVersion,
  state: t.state as FirmwareTaskState, progress: t.progress, waitReason: t.waitReason as FirmwareWaitReason | null, reason: t.reason, attempts: t.attempts,
  issuedAt: iso(t.issuedAt), finishedAt: iso(t.finishedAt), updatedAt: t.updatedAt.toISOString(),
});

const SORTS = { deviceCode: device.code, state: firmwareTask.state, updatedAt: firmwareTask.updatedAt } as const;

export async function taskPage(ctx: AppContext, user: AuthUser, q: PageReq): Promise<Page<FirmwareTaskRecord>> {
  const where = and(
    inCompanyScope(firmwareRollout.companyId, ctx.db, user), inSiteScope(firmwareTask.siteId, ctx.db, user),
    q.rolloutId ? eq(firmwareTask.rolloutId, q.rolloutId) : undefined,
    q.groupId ? eq(firmwareTask.groupId, q.groupId) : undefined,
    q.siteId ? eq(firmwareTask.siteId, q.siteId) : undefined,
    q.deviceCode ? ilike(device.code, `%${q.deviceCode.replace(/[\\%_]/g, (c) => '\\' + c)}%`) : undefined,
    q.state ? eq(firmwareTask.state, q.state) : undefined,
    q.failed ? inArray(firmwareTask.state, [...FIRMWARE_TASK_FAILED_STATES]) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(firmwareTask)
    .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
    .innerJoin(device, eq(device.id, firmwareTask.deviceId))
    .where(where);
  const col = q.sortField ? SORTS[q.sortField] : undefined;
  const rows = Number(n)
    ? await base(ctx, user).where(where).orderBy(...(col ? [q.sortOrder === 'desc' ? desc(col) : asc(col)] : []), asc(firmwareRolloutGroup.no), asc(device.code)).limit(q.pageSize).offset((q.current - 1) * q.pageSize)
    : [];
  return { records: rows.map(record), total: Number(n), current: q.current, pageSize: q.pageSize };
}

export async function taskOne(ctx: AppContext, user: AuthUser, id: number): Promise<FirmwareTaskDetail> {
  const [row] = await base(ctx, user).where(and(eq(firmwareTask.id, id), inCompanyScope(firmwareRollout.companyId, ctx.db, user), inSiteScope(firmwareTask.siteId, ctx.db, user)));
  const t = found(row, '设备升级任务不存在');
  const steps = await ctx.db.select().from(firmwareTaskStep).where(eq(firmwareTaskStep.taskId, id)).orderBy(asc(firmwareTaskStep.id));
  return {
    ...record(t),
    steps: steps.map((s) => ({ at: s.at.toISOString(), state: s.state as FirmwareTaskState, progress: s.progress, waitReason: s.waitReason as FirmwareWaitReason | null, reason: s.reason })),
  };
}
