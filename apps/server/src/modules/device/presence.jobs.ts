import { sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import { statusExpr } from './device.repository.ts';
import type { DevicePresenceChange } from './device.events.ts';

/**
 * Device presence transitions. A device's status is computed at read time from the ingest's
 * last-seen and offline times (statusExpr), so going offline by silence writes nothing by itself.
 * This sweep judges every reporting device the same way, writes the changes to device_presence
 * and emits device.online / device.offline in the same transaction. One set-based statement: two
 * sweeps at once (two jobs instances) cannot both record a change, since the upsert only writes
 * rows whose presence differs and the second waits for the first's row locks, then sees no
 * difference. Disabled and never-seen devices are not judged.
 */
export async function sweepPresence(ctx: AppContext, nowMs = Date.now()): Promise<{ online: number; offline: number }> {
  const status = statusExpr(nowMs, ctx.config.deviceOfflineTimeoutMs);
  const at = new Date(nowMs).toISOString();
  return ctx.db.transaction(async (tx) => {
    const changed = await changes(tx, status, at);
    const online = changed.filter((c) => c.online).map(payload(at));
    const offline = changed.filter((c) => !c.online).map(payload(at));
    if (online.length) await emit(tx, 'device.online', online);
    if (offline.length) await emit(tx, 'device.offline', offline);
    return { online: online.length, offline: offline.length };
  }).then((n) => {
    if (n.online || n.offline) ctx.outbox.nudge();
    return n;
  });
}

type Changed = { device_id: number; code: string; site_id: number; online: boolean };

async function changes(tx: DbOrTx, status: ReturnType<typeof statusExpr>, at: string): Promise<Changed[]> {
  const rows = await tx.execute<Changed>(sql`
    with judged as (
      select device.id as device_id, ${status} as status
      from device join device_latest on device_latest.device_id = device.id
    ), changed as (
      insert into device_presence as p (device_id, online, changed_at)
      select device_id, status = 'online', ${at}::timestamptz from judged where status in ('online', 'offline')
      on conflict (device_id) do update set online = excluded.online, changed_at = excluded.changed_at
        where p.online is distinct from excluded.online
      returning p.device_id, p.online
    )
    select c.device_id, d.code, d.site_id, c.online from changed c join device d on d.id = c.device_id order by c.device_id`);
  return rows.rows;
}

const payload = (at: string) => (c: Changed): DevicePresenceChange => ({ deviceId: c.device_id, code: c.code, siteId: c.site_id, at });

export function registerPresenceJobs(ctx: AppContext): void {
  ctx.jobs.every(ctx.config.presenceSweepMs, async () => {
    await sweepPresence(ctx);
  });
}
