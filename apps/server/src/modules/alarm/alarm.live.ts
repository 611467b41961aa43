import { ALARM_LEVEL_LABELS, type AlarmLevel, type LiveEventData } from '@ess/contract';
import type { SqlExecutor } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logging.ts';
import type { SseHub } from '../../platform/sse/hub.ts';

/** An alarm that opened or ended (or whose source's shield changed: opened false). */
export interface ChangedAlarm {
  id: number;
  no: string;
  siteId: number;
  deviceId: number;
  level: number;
  description: string;
  startedAt: Date;
  deviceName: string;
  siteName: string;
  opened: boolean;
}

/** Tells the users who may see a station that its alarms changed. */
export interface AlarmNotifier {
  /** RefreshAlarmKanban per station; PopupWindow for each newly opened alarm at or above the popup level. */
  changed(alarms: ChangedAlarm[]): Promise<void>;
  /** RefreshAlarmKanban for these stations (a shield was created or cancelled). */
  sitesChanged(siteIds: number[]): Promise<void>;
}

/**
 * The enabled users who may see each station: the built-in administrators of the station's
 * company or a company above it, and the users of those companies granted the station (the data
 * scope of platform/http/scope.ts, asked the other way round).
 */
export async function usersSeeingSites(sql: SqlExecutor, siteIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (siteIds.length === 0) return out;
  const { rows } = await sql.query<{ site_id: number; user_id: number }>(
    `select s.id as site_id, u.id as user_id
     from site s
     join company c on c.id = s.company_id
     join app_user u on u.status = 1
     join company uc on uc.id = u.company_id
     where s.id = any($1::int4[]) and c.path like uc.path || '%'
       and (u.build_in or exists (select 1 from user_site us where us.user_id = u.id and us.site_id = s.id))`,
    [siteIds],
  );
  for (const r of rows) {
    const list = out.get(r.site_id) ?? [];
    list.push(r.user_id);
    out.set(r.site_id, list);
  }
  return out;
}

/** Live events through the hub (and so the bus: they reach a user's stream on whichever instance holds it). */
export function alarmNotifier(sql: SqlExecutor, sse: SseHub, popupLevel: number, log: Logger): AlarmNotifier {
  const send = async (alarms: ChangedAlarm[], siteIds: number[]) => {
    const sites = [...new Set([...siteIds, ...alarms.map((a) => a.siteId)])];
    try {
      const users = await usersSeeingSites(sql, sites);
      const sends: Promise<void>[] = [];
      for (const siteId of sites) {
        const to = users.get(siteId) ?? [];
        if (to.length) sends.push(sse.send(to, 'RefreshAlarmKanban', { siteId } satisfies LiveEventData<'RefreshAlarmKanban'>));
      }
      for (const a of alarms) {
        const to = users.get(a.siteId) ?? [];
        if (!a.opened || a.level > popupLevel || to.length === 0) continue;
        sends.push(
          sse.send(to, 'PopupWindow', {
            id: a.id,
            kind: 'alarm',
            title: ALARM_LEVEL_LABELS[a.level as AlarmLevel] ?? ALARM_LEVEL_LABELS[5],
            content: `${a.siteName} · ${a.deviceName}：${a.description}（${a.no}）`,
            createdAt: a.startedAt.toISOString(),
          } satisfies LiveEventData<'PopupWindow'>),
        );
      }
      await Promise.all(sends);
    } catch (err) {
      // A missed live event is made good by the console's next refresh; the alarm itself is stored.
      log.warn({ err }, 'alarm live events not sent');
    }
  };
  return {
    changed: (alarms) => send(alarms, []),
    sitesChanged: (siteIds) => send([], siteIds),
  };
}
