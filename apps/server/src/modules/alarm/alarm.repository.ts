import type { SqlExecutor } from '../../platform/db/database.ts';

/**
 * A data-modifying statement part writing the `alarm.opened` / `alarm.ended` domain events of the
 * rows of `from` (id, no, site_id, device_id, level, description, started_at), in the same
 * statement (so the same transaction) as the change; `history`: written as history (the demo's
 * past: not handed to subscribers that tell people or other systems).
 */
export const alarmEventsCte = (from: string, type: 'alarm.opened' | 'alarm.ended', history = false) => `ev as (
  insert into domain_event (type, history, payload)
  select '${type}', ${history ? 'true' : 'false'}, jsonb_build_object('id', ${from}.id, 'no', ${from}.no, 'siteId', ${from}.site_id, 'deviceId', ${from}.device_id,
    'level', ${from}.level, 'description', ${from}.description, 'startedAt', ${from}.started_at)
  from ${from}
)`;

/**
 * Ends the open alarms that no rule watches any more, as the database says (so instances that have
 * not reloaded yet agree): their dictionary entry was deleted or disabled, no longer names the
 * device's product or type, was overridden by an entry of the product itself, or changed its fault
 * code or property; or their device was disabled. The end time is now; nothing cleared them.
 */
export async function endOrphanAlarms(sql: SqlExecutor): Promise<number[]> {
  // What each product is watched for (a handful of products × entries), then one anti-join of the
  // open alarms against it: no per-alarm subquery, so thousands of open alarms cost milliseconds.
  const { rows } = await sql.query<{ id: number }>(
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
     ), ${alarmEventsCte('upd', 'alarm.ended')}
     select id from upd`,
  );
  return rows.map((r) => Number(r.id));
}
