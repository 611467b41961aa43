import { and, eq, inArray } from 'drizzle-orm';
import { HOOK_EVENT_PAYLOADS, type HookFilter } from '@ess/contract/hooks';
import { hook, hookDelivery } from '../../db/schema/hooks.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { subscriber, type DomainEvent, type DomainEventType } from '../../platform/events/outbox.ts';
import { dispatcherOf } from './dispatch.send.ts';

/**
 * The dispatcher's planning half (issue 21, item 4): a subscriber of the domain-event outbox for
 * every event type of the trigger catalogue. For each event, the active hooks on its type whose
 * company covers the event (the company of its station — or of any of its stations, or the
 * company it names — is the hook's company or one under it) and whose filter matches (stations,
 * alarm levels, the new state `to`) get one delivery row, inserted ON CONFLICT DO NOTHING on the
 * unique (hook, event): an event redelivered by the outbox, or planned by two instances, is
 * delivered once. The event's payload is copied into the row. The sending half
 * (dispatch.send.ts) is woken after commit.
 *
 * Not transactional: planning commits in its own statement and the sender is woken after it (a
 * wake inside the outbox's transaction could look before the rows are visible).
 */

export const HOOK_EVENT_TYPES = Object.keys(HOOK_EVENT_PAYLOADS) as DomainEventType[];

interface Facts {
  siteIds: number[];
  companyId: number | null;
  level: number | null;
  to: string | null;
}

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** What the filters and the company scope read from a payload. */
export function factsOf(payload: unknown): Facts {
  const p = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  const siteIds = [int(p.siteId), ...(Array.isArray(p.siteIds) ? p.siteIds.map(int) : [])].filter((v): v is number => v !== null);
  return { siteIds, companyId: int(p.companyId), level: int(p.level), to: typeof p.to === 'string' ? p.to : null };
}

/** Whether a hook's filter lets the event through (each empty list: any). */
export function filterMatches(filter: Partial<HookFilter>, f: Facts): boolean {
  if (filter.siteIds?.length && !f.siteIds.some((s) => filter.siteIds!.includes(s))) return false;
  if (filter.levels?.length && (f.level === null || !filter.levels.includes(f.level))) return false;
  if (filter.statuses?.length && (f.to === null || !filter.statuses.includes(f.to))) return false;
  return true;
}

/** A root company's path has one id ("/1/"): events that name no station or company go to its hooks only. */
const isRoot = (path: string) => /^\/\d+\/$/.test(path);

/** Plans the deliveries of a batch of events; returns how many rows were inserted. */
export async function planDeliveries(db: DbOrTx, events: readonly DomainEvent[]): Promise<number> {
  const types = [...new Set(events.map((e) => e.type))];
  if (types.length === 0) return 0;
  const hooks = await db
    .select({ id: hook.id, companyId: hook.companyId, eventType: hook.eventType, filter: hook.filter, path: company.path })
    .from(hook)
    .innerJoin(company, eq(company.id, hook.companyId))
    .where(and(eq(hook.active, true), inArray(hook.eventType, types)));
  if (hooks.length === 0) return 0;
  const facts = new Map(events.map((e) => [e.id, factsOf(e.payload)]));
  const siteIds = [...new Set([...facts.values()].flatMap((f) => f.siteIds))];
  const companyIds = [...new Set([...facts.values()].flatMap((f) => (f.companyId === null ? [] : [f.companyId])))];
  const sitePaths = new Map(
    siteIds.length
      ? (await db.select({ id: site.id, path: company.path }).from(site).innerJoin(company, eq(company.id, site.companyId)).where(inArray(site.id, siteIds))).map((r) => [r.id, r.path])
      : [],
  );
  const companyPaths = new Map(
    companyIds.length ? (await db.select({ id: company.id, path: company.path }).from(company).where(inArray(company.id, companyIds))).map((r) => [r.id, r.path]) : [],
  );
  const rows: (typeof hookDelivery.$inferInsert)[] = [];
  for (const e of events) {
    const f = facts.get(e.id)!;
    const paths = [...f.siteIds.flatMap((s) => sitePaths.get(s) ?? []), ...(f.companyId !== null ? (companyPaths.get(f.companyId) ?? []) : [])];
    const named = f.siteIds.length > 0 || f.companyId !== null;
    for (const h of hooks) {
      if (h.eventType !== e.type) continue;
      const covered = named ? paths.some((p) => p.startsWith(h.path)) : isRoot(h.path);
      if (!covered || !filterMatches(h.filter as HookFilter, f)) continue;
      rows.push({ hookId: h.id, companyId: h.companyId, eventId: e.id, eventType: e.type, eventAt: e.createdAt, payload: e.payload, origin: 'event' });
    }
  }
  let inserted = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const done = await db.insert(hookDelivery).values(rows.slice(i, i + 500)).onConflictDoNothing().returning({ id: hookDelivery.id });
    inserted += done.length;
  }
  return inserted;
}

export const dispatchSubscriber = subscriber({
  name: 'hooks.dispatch',
  events: HOOK_EVENT_TYPES,
  transactional: false,
  // A hook tells another system what happens now: the demo's past is not sent (decision 0042).
  history: false,
  handle: async (events, db, ctx) => {
    if ((await planDeliveries(db, events)) > 0) dispatcherOf(ctx)?.wake();
  },
});
