import type { SqlExecutor } from '../../platform/db/database.ts';
import type { ChangedAlarm } from './alarm.live.ts';

/** An alarm that opened or ended, as the write statements return it (with names for the popup). */
export interface ChangedRow {
  id: number;
  no: string;
  site_id: number;
  device_id: number;
  level: number;
  description: string;
  started_at: Date;
  device_name: string;
  site_name: string;
  opened: boolean;
}

export const changedOf = (r: ChangedRow): ChangedAlarm => ({
  id: Number(r.id), no: r.no, siteId: Number(r.site_id), deviceId: Number(r.device_id), level: Number(r.level), description: r.description,
  startedAt: new Date(r.started_at), deviceName: r.device_name, siteName: r.site_name, opened: r.opened === true,
});

/**
 * Ends the open alarms that no rule watches any more, as the database says (so instances that have
 * not reloaded yet agree): their dictionary entry was deleted or disabled, no longer names the
 * device's product or type, was overridden by an entry of the product itself, or changed its fault
 * code or property; or their device was disabled. The end time is now; nothing cleared them.
 */
export async function endOrphanAlarms(sql: SqlExecutor): Promise<ChangedAlarm[]> {
  // What each product is watched for (a handful of products × entries), then one anti-join of the
  // open alarms against it: no per-alarm subquery, so thousands of open alarms cost milliseconds.
  const { rows } = await sql.query<ChangedRow>(
    `with watched as materialized (
       select p.id as product_id, d.id as dict_id, d.kind, case when d.kind = 'event' then d.event_code else d.identifier end as code
       from alarm_dict d
       join product p on d.product_id = p.id or (d.product_id is null and d.device_type = p.type)
       where d.enabled and not (d.product_id is null and exists (
         select 1 from alarm_dict o
         where o.product_id = p.id and o.enabled and o.kind = d.kind
           and ((d.kind = 'event' and o.event_code = d.event_code) or (d.kind = 'threshold' and o.identifier = d.identifier and o.operator = d.operator))
       ))
     ), orphan as (
       select a.id from alarm a
       join device dv on dv.id = a.device_id
       left join watched w on w.product_id = dv.product_id and w.dict_id = a.dict_id and w.kind = a.kind and w.code = a.code
       where a.status = 'active' and (dv.disabled or w.dict_id is null)
     ), upd as (
       update alarm a set status = 'ended', ended_at = greatest(now(), a.started_at), updated_at = now()
       from orphan where a.id = orphan.id and a.status = 'active'
       returning a.id, a.no, a.site_id, a.device_id, a.level, a.description, a.started_at
     )
     select upd.*, dv.name as device_name, s.name as site_name, false as opened
     from upd join device dv on dv.id = upd.device_id join site s on s.id = upd.site_id`,
  );
  return rows.map(changedOf);
}
