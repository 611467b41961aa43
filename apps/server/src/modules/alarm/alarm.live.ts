import { sql } from 'drizzle-orm';
import { ALARM_LEVEL_LABELS, type AlarmLevel, type LiveEventData } from '@ess/contract';
import type { DbOrTx } from '../../platform/db/database.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import './alarm.events.ts';

/**
 * The enabled users who may see each station: the built-in administrators of the station's
 * company or a company above it, and the users of those companies granted the station (the data
 * scope of platform/http/scope.ts, asked the other way round).
 */
export async function usersSeeingSites(db: DbOrTx, siteIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (siteIds.length === 0) return out;
  const { rows } = await db.execute<{ site_id: number; user_id: number }>(sql`
    select s.id as site_id, u.id as user_id
    from site s
    join company c on c.id = s.company_id
    join app_user u on u.status = 1
    join company uc on uc.id = u.company_id
    where s.id = any(${`{${siteIds.join(',')}}`}::int4[]) and c.path like uc.path || '%'
      and (u.build_in or exists (select 1 from user_site us where us.user_id = u.id and us.site_id = s.id))`);
  for (const r of rows) {
    const list = out.get(Number(r.site_id)) ?? [];
    list.push(Number(r.user_id));
    out.set(Number(r.site_id), list);
  }
  return out;
}

/** Whether a newly opened alarm of this level pops up (ALARM_POPUP_LEVEL, 1 most severe; 0: none does). */
export const popsUp = (level: number, popupLevel: number): boolean => level <= popupLevel;

/**
 * The users the alarm module pops a newly opened alarm up to (a PopupWindow by the subscriber
 * below): everyone who may see its station, when its level pops up; else nobody. Messaging's
 * console channel asks it so that a user is not told of the same alarm twice (decision 0046).
 */
export async function alarmPopupUsers(db: DbOrTx, popupLevel: number, alarm: { siteId: number; level: number }): Promise<number[]> {
  if (!popsUp(alarm.level, popupLevel)) return [];
  return (await usersSeeingSites(db, [alarm.siteId])).get(alarm.siteId) ?? [];
}

/**
 * Live events of alarm changes, a subscriber of the outbox: RefreshAlarmKanban once per station
 * of the batch to the users who may see it, and a PopupWindow for each newly opened alarm at or
 * above the popup level (ALARM_POPUP_LEVEL). Delivered at least once: a repeated refresh or popup
 * of the same alarm is harmless (the popup carries the alarm's id).
 */
export const alarmLiveSubscriber = subscriber({
  name: 'alarm.live',
  events: ['alarm.opened', 'alarm.ended', 'alarm.shielded'],
  handle: async (events, tx, ctx) => {
    const sites = [...new Set(events.map((e) => e.payload.siteId))];
    const users = await usersSeeingSites(tx, sites);
    const sends: Promise<void>[] = [];
    for (const siteId of sites) {
      const to = users.get(siteId) ?? [];
      if (to.length) sends.push(ctx.sse.send(to, 'RefreshAlarmKanban', { siteId } satisfies LiveEventData<'RefreshAlarmKanban'>));
    }
    const popups = events.flatMap((e) =>
      e.type === 'alarm.opened' && popsUp(e.payload.level, ctx.config.alarmPopupLevel) && (users.get(e.payload.siteId)?.length ?? 0) > 0 ? [e.payload] : [],
    );
    if (popups.length) {
      const { rows: names } = await tx.execute<{ id: number; device_name: string; site_name: string }>(sql`
        select dv.id, dv.name as device_name, s.name as site_name from device dv join site s on s.id = dv.site_id
        where dv.id = any(${`{${popups.map((a) => a.deviceId).join(',')}}`}::int4[])`);
      const nameOf = new Map(names.map((n) => [Number(n.id), n]));
      for (const a of popups) {
        const n = nameOf.get(a.deviceId);
        sends.push(
          ctx.sse.send(users.get(a.siteId)!, 'PopupWindow', {
            id: a.id,
            kind: 'alarm',
            title: ALARM_LEVEL_LABELS[a.level as AlarmLevel] ?? ALARM_LEVEL_LABELS[5],
            content: `${n?.site_name ?? ''} · ${n?.device_name ?? ''}：${a.description}（${a.no}）`,
            createdAt: new Date(a.startedAt).toISOString(),
          } satisfies LiveEventData<'PopupWindow'>),
        );
      }
    }
    await Promise.all(sends);
  },
});
