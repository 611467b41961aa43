import { and, asc, desc, eq } from 'drizzle-orm';
import { MESSAGE_EVENT_LABELS, type MessageVariable } from '@ess/contract/messaging';
import type { Locale } from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { translatorOf } from '../i18n/index.ts';

/**
 * The values a preview or a test send fills a template with, from a real station (decision 0043):
 * the named station (or the first the caller may see), its first device and its latest alarm if it
 * has one; what a station cannot give (a work order, a statement) gets a sample in the template's
 * language. Times are the station's local time.
 */

export const PREVIEW_SITE_NOT_FOUND = '站点不存在或无权访问';

export interface StationValues {
  values: Record<MessageVariable, string>;
  siteId: number | null;
  siteName: string | null;
}

/** "2026-11-29 15:04" in the zone. */
export function localMinute(d: Date, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

export async function stationValues(ctx: AppContext, user: AuthUser, siteId: number | undefined, language: string, now = new Date()): Promise<StationValues> {
  const { t } = await translatorOf(language as Locale);
  const [s] = await ctx.db
    .select({ id: site.id, name: site.name, code: site.code, timeZone: site.timeZone, companyName: company.name })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(siteId === undefined ? undefined : eq(site.id, siteId), inSiteScope(site.id, ctx.db, user)))
    .orderBy(asc(site.id))
    .limit(1);
  if (siteId !== undefined) found(s, PREVIEW_SITE_NOT_FOUND);
  const zone = s?.timeZone ?? 'Asia/Shanghai';
  const [d] = s ? await ctx.db.select({ name: device.name, code: device.code }).from(device).where(eq(device.siteId, s.id)).orderBy(asc(device.id)).limit(1) : [];
  const [a] = s
    ? await ctx.db.select({ level: alarm.level, code: alarm.code, description: alarm.description, startedAt: alarm.startedAt, deviceName: device.name, deviceCode: device.code })
      .from(alarm).innerJoin(device, eq(device.id, alarm.deviceId)).where(eq(alarm.siteId, s.id)).orderBy(desc(alarm.startedAt)).limit(1)
    : [];
  const month = localMinute(now, zone).slice(0, 7);
  const values: Record<MessageVariable, string> = {
    station: s?.name ?? t('示例站点'),
    stationCode: s?.code ?? 'S001',
    company: s?.companyName ?? t('示例公司'),
    device: a?.deviceName ?? d?.name ?? t('示例设备'),
    deviceCode: a?.deviceCode ?? d?.code ?? 'D001',
    level: String(a?.level ?? 1),
    alarmCode: a?.code ?? 'E001',
    alarmName: a?.description ?? t('示例告警'),
    description: a?.description ?? t('示例告警'),
    time: localMinute(a?.startedAt ?? now, zone),
    minutes: '15',
    orderNo: 'WO202611290001',
    orderTitle: t('示例工单'),
    assignee: user.name,
    dueTime: localMinute(new Date(now.getTime() + 86_400_000), zone),
    month,
    statementNo: `ST${month.replace('-', '')}0001`,
    firmware: 'v1.2.3',
    recipient: user.name,
    link: '',
    eventType: t(MESSAGE_EVENT_LABELS.alarmOpened),
  };
  return { values, siteId: s?.id ?? null, siteName: s?.name ?? null };
}
