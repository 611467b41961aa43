import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { HOOK_RECORD_BODY_MAX_BYTES, type HookRecordState } from '@ess/contract/hooks';
import { hook, hookDelivery, hookExecRecord, hookParam, hookSetting } from '../../db/schema/hooks.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { writeThroughOutage } from '../../platform/db/outage.ts';
import { perApp } from '../../platform/module.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { translatorOf } from '../i18n/index.ts';
import { deliver, noticeLanguageOf, notifyUsers, type Delivery } from '../system/index.ts';
import { sendHookRequest, type HookOutcome } from './dispatch.http.ts';
import { backoffMs, retryAfterMs, verdictOf } from './dispatch.policy.ts';
import { maskJson, maskText, runHookScript, scriptHash, type ScriptEvent } from './dispatch.script.ts';
import { signingHeaders } from './dispatch.sign.ts';
import { HOOK_PARAM_SECRET, HOOK_SIGNING_SECRET, hookSecrets } from './hooks.context.ts';

/**
 * The dispatcher's sending half (issue 21, item 4). Deliveries live in hook_delivery (planned by
 * dispatch.plan.ts, or made by a test send or a replay): an instance with the jobs role claims the
 * due ones with a lease (`FOR UPDATE SKIP LOCKED`; a lease that ran out — the instance died — is
 * claimed again), so they survive a restart and two instances never send one at once. Each
 * attempt runs the hook's script in the sandbox with the event and the company's parameters, signs
 * the body the Standard Webhooks way, sends it through the SSRF guard, and writes one execution
 * record (inserted "running" before the request, finished after). Only 2xx is delivered; 5xx,
 * 408, 429, timeouts and connection errors are retried with exponential backoff and full jitter
 * (or the target's Retry-After) up to the hook's retries; anything else fails at once. A hook whose
 * deliveries fail `circuitThreshold` times in a row is paused (circuit open) and its owner told;
 * after the cool-down one probe delivery goes (half-open): delivered closes the circuit, failed
 * waits another cool-down; activating the hook again closes it at once.
 */

/** The owner's notice when a hook's circuit opens (source texts of the language packs; `$n` filled here), in the owner's language. */
export const CIRCUIT_NOTICE_TITLE = '钩子已熔断：$1';
export const CIRCUIT_NOTICE_TEXT = '钩子“$1”连续 $2 次投递失败，已暂停投递；$3 分钟后试投一次，成功即恢复，也可在钩子列表中重新启用。最后一次错误：$4';

/** Tunables (tests shorten the lease and the poll). */
export const DISPATCH = {
  /** How long a claimed delivery is held before another instance may take it (> the longest timeout + script). */
  leaseMs: 60_000,
  /** Deliveries claimed at once, and sent at once. */
  batch: 64,
  concurrency: 32,
  /** The safety-net poll (retries due, other instances' plans, expired leases). */
  pollMs: 1000,
};

export const HOOK_INACTIVE = '钩子已停用，未发送';
/** The largest request body a script may make (a target is not a bulk upload). */
export const REQUEST_MAX_BYTES = 1024 * 1024;
export const BODY_TOO_LARGE = `脚本返回的请求体超过 ${REQUEST_MAX_BYTES / 1024 / 1024} MB，未发送`;
export const USER_AGENT = 'ess-console-hooks/1';

type DeliveryRow = typeof hookDelivery.$inferSelect;
type HookRow = typeof hook.$inferSelect;

interface Settings {
  allowPrivateTargets: boolean;
  circuitThreshold: number;
  circuitCooldownMinutes: number;
}

/** A company's parameters: values by name for the script, and the secrets' values to mask. */
interface Params {
  values: Record<string, string>;
  secrets: string[];
}

/** What one attempt came to. */
export interface AttemptResult {
  recordId: number;
  state: HookRecordState;
  output: unknown;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

const NO_CIRCUIT = { count: false } as const;

/** What the attempts of one claimed batch share: their hooks, the settings, each company's parameters (read once per batch). */
interface BatchCache {
  hooks: Map<number, HookRow>;
  settings: Settings;
  params: Map<number, Promise<Params>>;
}

export class Dispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  readonly id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly box: SecretBox;
  readonly counters = { attempts: 0, delivered: 0, retrying: 0, failed: 0, skipped: 0 };

  constructor(private readonly ctx: AppContext) {
    this.box = hookSecrets(ctx);
  }

  /** Claim and send soon (after a plan, a poll, a retry's time). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runLoop().finally(() => {
      this.running = null;
    });
  }

  /** Sends until nothing is due now (tests). */
  async drain(): Promise<void> {
    do {
      this.wake();
      while (this.running) await this.running;
    } while (!this.stopped && (await this.dueNow()) > 0);
  }

  /** Stops claiming; the attempts in hand finish (their records and rows are written). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async dueNow(): Promise<number> {
    const { rows } = await this.ctx.database.sql.query<{ n: number }>(
      `select count(*)::int as n from hook_delivery d join hook h on h.id = d.hook_id
       where d.state in ('queued', 'retrying') and d.next_attempt_at <= now() and (h.circuit = 'closed' or h.circuit_probe_at <= now() or not h.active)`,
    );
    return rows[0]?.n ?? 0;
  }

  /** A wake-up at `at` (the earliest retry this instance scheduled); the poll covers the rest. */
  private wakeAt(at: Date): void {
    if (this.stopped) return;
    const t = at.getTime();
    if (t >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = t;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.wake();
    }, Math.max(0, t - Date.now()) + 5);
    this.timer.unref();
  }

  private async runLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        for (;;) {
          if (this.stopped) return;
          const claimed = await this.claim();
          if (claimed.length === 0) break;
          const cache = await this.cacheFor(claimed);
          await pool(claimed, DISPATCH.concurrency, (d) => this.attemptSafely(d, cache));
          if (claimed.length < DISPATCH.batch) break;
        }
      } catch (err) {
        // The database went away: the poll tries again; leases bring back what was in hand.
        this.ctx.log.warn({ err }, 'hook dispatch failed; retrying on the next poll');
        return;
      }
    } while (this.again && !this.stopped);
  }

  /**
   * Takes the due deliveries for a lease: queued or retrying and due, or running with a lease run
   * out (an instance that died mid-attempt) — of hooks whose circuit is closed, or open with its
   * probe due (one is kept as the probe, the rest go back), or inactive (closed as not sent).
   * One condition on the partial due index: a running row's next_attempt_at is already past.
   */
  private async claim(): Promise<DeliveryRow[]> {
    const { rows } = await this.ctx.database.sql.query<{ id: string }>(
      `update hook_delivery d set state = 'running', leased_by = $1, lease_until = now() + $2::int * interval '1 millisecond'
       where d.id in (
         select d2.id from hook_delivery d2 join hook h on h.id = d2.hook_id
         where d2.state in ('queued', 'retrying', 'running') and d2.next_attempt_at <= now() and (d2.state <> 'running' or d2.lease_until < now())
           and (h.circuit = 'closed' or h.circuit_probe_at <= now() or not h.active)
         order by d2.next_attempt_at, d2.id limit $3
         for update of d2 skip locked)
       returning d.id`,
      [this.id, DISPATCH.leaseMs, DISPATCH.batch],
    );
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    const claimed = await this.ctx.db.select().from(hookDelivery).where(sql`${hookDelivery.id} = any(${`{${ids.join(',')}}`}::int8[])`).orderBy(hookDelivery.nextAttemptAt, hookDelivery.id);
    const circuits = await this.ctx.db
      .select({ id: hook.id, circuit: hook.circuit, active: hook.active })
      .from(hook)
      .where(sql`${hook.id} = any(${`{${[...new Set(claimed.map((d) => d.hookId))].join(',')}}`}::int4[])`);
    const open = new Set(circuits.filter((h) => h.active && h.circuit === 'open').map((h) => h.id));
    if (open.size === 0) return claimed;
    const settings = await this.settings();
    const keep: DeliveryRow[] = [];
    const probed = new Set<number>();
    for (const d of claimed) {
      if (!open.has(d.hookId) || d.origin !== 'event') {
        keep.push(d);
        continue;
      }
      // Half-open: one probe per cool-down; taking it pushes the next probe a cool-down away.
      const probe = !probed.has(d.hookId)
        && (await this.ctx.database.sql.query(
          `update hook set circuit_probe_at = now() + $2::int * interval '1 minute' where id = $1 and circuit = 'open' and circuit_probe_at <= now() returning id`,
          [d.hookId, settings.circuitCooldownMinutes],
        )).rows.length > 0;
      probed.add(d.hookId);
      if (probe) keep.push(d);
      else await this.release(d);
    }
    return keep;
  }

  /** Gives a claimed delivery back untouched (its hook's circuit is open). */
  private async release(d: DeliveryRow): Promise<void> {
    await this.ctx.db
      .update(hookDelivery)
      .set({ state: d.attempts === 0 ? 'queued' : 'retrying', leasedBy: null, leaseUntil: null })
      .where(and(eq(hookDelivery.id, d.id), eq(hookDelivery.leasedBy, this.id)));
  }

  async settings(): Promise<Settings> {
    const [s] = await this.ctx.db
      .select({ allowPrivateTargets: hookSetting.allowPrivateTargets, circuitThreshold: hookSetting.circuitThreshold, circuitCooldownMinutes: hookSetting.circuitCooldownMinutes })
      .from(hookSetting)
      .where(eq(hookSetting.id, 1));
    return s ?? { allowPrivateTargets: false, circuitThreshold: 5, circuitCooldownMinutes: 10 };
  }

  /** The company's parameters, secrets opened (a secret that does not open is left out and named in the log). */
  async params(companyId: number): Promise<Params> {
    const rows = await this.ctx.db.select().from(hookParam).where(eq(hookParam.companyId, companyId));
    const values: Record<string, string> = {};
    const secrets: string[] = [];
    for (const p of rows) {
      if (p.kind === 'secret') {
        if (!p.valueEnc) continue;
        try {
          const v = this.box.open(p.valueEnc, HOOK_PARAM_SECRET);
          values[p.name] = v;
          secrets.push(v);
        } catch (err) {
          this.ctx.log.warn({ err, param: p.id }, 'a hook secret parameter does not open with this SECRET_KEY');
        }
      } else values[p.name] = p.value ?? '';
    }
    // Longest first, so a secret containing another is masked whole.
    secrets.sort((a, b) => b.length - a.length);
    return { values, secrets };
  }

  private async cacheFor(batch: DeliveryRow[]): Promise<BatchCache> {
    const ids = [...new Set(batch.map((d) => d.hookId))];
    const [rows, settings] = await Promise.all([
      this.ctx.db.select().from(hook).where(sql`${hook.id} = any(${`{${ids.join(',')}}`}::int4[])`),
      this.settings(),
    ]);
    return { hooks: new Map(rows.map((h) => [h.id, h])), settings, params: new Map() };
  }

  private async attemptSafely(d: DeliveryRow, cache: BatchCache): Promise<void> {
    try {
      await this.attempt(d, { cache });
    } catch (err) {
      // Its lease runs out and it is claimed again; nothing else stops.
      this.ctx.log.error({ err, delivery: d.id }, 'hook delivery attempt failed');
    }
  }

  /**
   * One attempt of a claimed delivery: script → signed request → record, delivery row and hook
   * updated together. `maxRetries` overrides the hook's (tests and replays send once).
   */
  async attempt(d: DeliveryRow, opts: { maxRetries?: number; replayOf?: number; cache?: BatchCache } = {}): Promise<AttemptResult | null> {
    const { cache } = opts;
    const h = cache ? cache.hooks.get(d.hookId) : (await this.ctx.db.select().from(hook).where(eq(hook.id, d.hookId)))[0];
    if (!h) return null; // Deleted with its deliveries meanwhile.
    const now = new Date();
    const attempt = d.attempts + 1;
    const counted = d.origin === 'event';
    if (!h.active && counted) {
      const recordId = await this.record(h, d, attempt, { state: 'skipped', error: HOOK_INACTIVE, input: null, scriptHash: null }, opts.replayOf);
      await this.finish(h, d, recordId, { state: 'skipped', error: HOOK_INACTIVE, output: null }, NO_CIRCUIT);
      return { recordId, state: 'skipped', output: null, responseStatus: null, durationMs: null, error: HOOK_INACTIVE };
    }
    let params: Promise<Params> | undefined = cache?.params.get(h.companyId);
    if (!params) {
      params = this.params(h.companyId);
      cache?.params.set(h.companyId, params);
    }
    const [settings, p] = await Promise.all([cache?.settings ?? this.settings(), params]);
    const paramsNow = p;
    const event: ScriptEvent = { id: d.eventId === null ? `${d.origin}_${d.id}` : String(d.eventId), type: d.eventType, timestamp: d.eventAt.toISOString(), data: d.payload };
    const masked = { event: maskJson(event, paramsNow.secrets), params: maskJson(paramsNow.values, paramsNow.secrets) } as Record<string, unknown>;
    const recordId = await this.record(h, d, attempt, { state: 'running', error: null, input: masked, scriptHash: scriptHash(h.script) }, opts.replayOf);
    this.counters.attempts++;
    const script = await runHookScript(h.script, event, paramsNow.values);
    if (script.kind === 'error') {
      // The script's own fault: failed at once (another attempt runs the same script), the target not blamed.
      await this.finish(h, d, recordId, { state: 'failed', error: script.error, output: null }, NO_CIRCUIT);
      return { recordId, state: 'failed', output: null, responseStatus: null, durationMs: null, error: script.error };
    }
    const output = maskJson(script.output, paramsNow.secrets);
    if (script.kind === 'skip') {
      await this.finish(h, d, recordId, { state: 'skipped', error: null, output: null }, NO_CIRCUIT);
      return { recordId, state: 'skipped', output: null, responseStatus: null, durationMs: null, error: null };
    }
    if (Buffer.byteLength(script.body, 'utf8') > REQUEST_MAX_BYTES) {
      await this.finish(h, d, recordId, { state: 'failed', error: BODY_TOO_LARGE, output: null }, NO_CIRCUIT);
      return { recordId, state: 'failed', output: null, responseStatus: null, durationMs: null, error: BODY_TOO_LARGE };
    }
    const headers: Record<string, string> = {};
    for (const x of h.headers as { name: string; value: string }[]) headers[x.name.toLowerCase()] = x.value;
    const secret = this.box.open(h.secretEnc, HOOK_SIGNING_SECRET);
    Object.assign(headers, {
      'content-type': script.contentType,
      'user-agent': USER_AGENT,
      'x-ess-event-type': d.eventType,
      'x-ess-event-id': event.id,
      'x-ess-hook-id': String(h.id),
      'x-ess-attempt': String(attempt),
      ...signingHeaders(secret, `msg_${d.id}`, script.body, now),
    });
    const outcome = await sendHookRequest({ method: h.method, url: h.url, headers, body: script.body, timeoutMs: h.timeoutMs, allowPrivate: settings.allowPrivateTargets });
    const verdict = verdictOf(outcome);
    const maxRetries = opts.maxRetries ?? h.maxRetries;
    const retry = verdict === 'temporary' && attempt <= maxRetries;
    const state: HookRecordState = verdict === 'delivered' ? 'delivered' : retry ? 'retrying' : 'failed';
    const wait = retry ? (retryAfter(outcome, now) ?? backoffMs(attempt, h.backoffMs)) : 0;
    const nextAttemptAt = retry ? new Date(Date.now() + wait) : null;
    const error = outcome.ok ? (verdict === 'delivered' ? null : `HTTP ${outcome.response.status}`) : outcome.error.message;
    await this.finish(
      h, d, recordId,
      {
        state, error, output, nextAttemptAt, durationMs: outcome.durationMs,
        request: { method: h.method, url: h.url, ...message(headers, script.body, paramsNow.secrets) },
        response: outcome.ok ? { status: outcome.response.status, ...message(outcome.response.headers, outcome.response.body, paramsNow.secrets, outcome.response.truncated) } : null,
      },
      { count: counted, settings },
    );
    if (nextAttemptAt) this.wakeAt(nextAttemptAt);
    return { recordId, state, output, responseStatus: outcome.ok ? outcome.response.status : null, durationMs: outcome.durationMs, error };
  }

  /** The attempt's record, "running" (or already settled) before anything is sent. */
  private async record(h: HookRow, d: DeliveryRow, attempt: number, r: { state: HookRecordState; error: string | null; input: Record<string, unknown> | null; scriptHash: string | null }, replayOf?: number): Promise<number> {
    const [row] = await this.ctx.db
      .insert(hookExecRecord)
      .values({
        companyId: h.companyId, hookId: h.id, hookName: h.name, deliveryId: d.id, eventId: d.eventId, eventType: d.eventType, origin: d.origin, attempt,
        state: r.state, input: r.input, scriptHash: r.scriptHash, method: h.method, url: h.url, error: r.error, replayOf: replayOf ?? null,
        ...(r.state !== 'running' ? { finishedAt: new Date() } : {}),
      })
      .returning({ id: hookExecRecord.id });
    return row!.id;
  }

  /** Writes an attempt's end: the record, the delivery row, and (for event deliveries that were sent) the hook's last delivery and circuit. */
  private async finish(
    h: HookRow, d: DeliveryRow, recordId: number,
    r: { state: HookRecordState; error: string | null; output: unknown; nextAttemptAt?: Date | null; durationMs?: number; request?: unknown; response?: { status: number } | null },
    circuit: { count: false } | { count: true; settings: Settings },
  ): Promise<void> {
    const now = new Date();
    this.counters[r.state === 'running' ? 'attempts' : r.state]++;
    // The attempt happened (the target may have the request): its end must be written, or the
    // lease runs out and the delivery goes again. While the database is away the write is tried
    // again until it lands or the lease is nearly over (then the delivery may go twice, with the
    // same webhook-id). Both writes are safe to repeat: the delivery row moves only from this
    // claim's `running`.
    const within = Math.max(0, (d.leaseUntil?.getTime() ?? now.getTime() + DISPATCH.leaseMs) - Date.now() - Math.min(5_000, DISPATCH.leaseMs / 4));
    if (r.state !== 'failed' || !circuit.count) {
      await writeThroughOutage(() => this.finishOne(h, d, recordId, r, circuit.count && r.state !== 'skipped', now), within);
      return;
    }
    const notices = await writeThroughOutage(() => this.finishFailed(h, d, recordId, r, circuit.settings, now), within);
    await deliver(this.ctx, notices);
  }

  /** A failure that counts against the hook: the record, the delivery row and the circuit in one transaction. */
  private finishFailed(
    h: HookRow, d: DeliveryRow, recordId: number,
    r: { state: HookRecordState; error: string | null; output: unknown; nextAttemptAt?: Date | null; durationMs?: number; request?: unknown; response?: { status: number } | null },
    settings: Settings, now: Date,
  ): Promise<Delivery[]> {
    return this.ctx.db.transaction(async (tx) => {
      const final = r.state !== 'retrying';
      const moved = await tx
        .update(hookDelivery)
        .set({
          state: r.state, attempts: sql`${hookDelivery.attempts} + 1`, lastError: r.error, leasedBy: null, leaseUntil: null,
          ...(final ? { finishedAt: now } : { nextAttemptAt: r.nextAttemptAt! }),
        })
        .where(and(eq(hookDelivery.id, d.id), eq(hookDelivery.state, 'running'), eq(hookDelivery.leasedBy, this.id)))
        .returning({ id: hookDelivery.id });
      // Already written (a commit whose answer was lost in an outage): not counted twice.
      if (moved.length === 0) return [];
      await tx
        .update(hookExecRecord)
        .set({
          state: r.state, error: r.error, output: r.output === undefined ? null : (r.output), request: r.request ?? null, response: r.response ?? null,
          responseStatus: r.response?.status ?? null, durationMs: r.durationMs ?? null, nextAttemptAt: r.nextAttemptAt ?? null, finishedAt: now,
        })
        .where(eq(hookExecRecord.id, recordId));
      return this.judgeCircuit(tx, h, r, settings, now);
    });
  }

  /**
   * The common end (delivered, retrying, skipped, or a failure that does not count) in one
   * statement: the record, the delivery row, and — for an event's delivery that was sent — the
   * hook's last delivery (delivered also closes the circuit and clears the count).
   */
  private async finishOne(
    h: HookRow, d: DeliveryRow, recordId: number,
    r: { state: HookRecordState; error: string | null; output: unknown; nextAttemptAt?: Date | null; durationMs?: number; request?: unknown; response?: { status: number } | null },
    touchHook: boolean, now: Date,
  ): Promise<void> {
    const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
    await this.ctx.database.sql.query(
      `with rec as (
         update hook_exec_record set state = $2, error = $3, output = $4::jsonb, request = $5::jsonb, response = $6::jsonb, response_status = $7::int,
           duration_ms = $8::int, next_attempt_at = $9::timestamptz, finished_at = $10::timestamptz
         where id = $1
       ), del as (
         update hook_delivery set state = $2, attempts = attempts + 1, last_error = $3, leased_by = null, lease_until = null,
           finished_at = case when $2 = 'retrying' then null else $10::timestamptz end, next_attempt_at = coalesce($9::timestamptz, next_attempt_at)
         where id = $11 and state = 'running' and leased_by = $14
       )
       update hook set last_delivery_at = $10::timestamptz, last_delivery_state = $2, last_response_status = $7::int,
         consecutive_failures = case when $2 = 'delivered' then 0 else consecutive_failures end,
         circuit = case when $2 = 'delivered' then 'closed' else circuit end,
         circuit_opened_at = case when $2 = 'delivered' then null else circuit_opened_at end,
         circuit_probe_at = case when $2 = 'delivered' then null else circuit_probe_at end
       where id = $12 and $13::boolean`,
      [
        recordId, r.state, r.error, json(r.output), json(r.request), json(r.response), r.response?.status ?? null, r.durationMs ?? null,
        r.nextAttemptAt?.toISOString() ?? null, now.toISOString(), d.id, h.id, touchHook, this.id,
      ],
    );
  }

  /**
   * The hook's last delivery, and its circuit: a delivered attempt closes it and clears the
   * count; a delivery that failed for good counts one more, and the threshold-th in a row opens
   * the circuit (the owner is told once, in the same transaction).
   */
  private async judgeCircuit(tx: DbOrTx, h: HookRow, r: { state: HookRecordState; error: string | null; response?: { status: number } | null }, s: Settings, now: Date): Promise<Delivery[]> {
    const last = { lastDeliveryAt: now, lastDeliveryState: r.state, lastResponseStatus: r.response?.status ?? null, updatedAt: h.updatedAt };
    if (r.state === 'delivered') {
      await tx.update(hook).set({ ...last, consecutiveFailures: 0, circuit: 'closed', circuitOpenedAt: null, circuitProbeAt: null }).where(eq(hook.id, h.id));
      return [];
    }
    if (r.state !== 'failed') {
      await tx.update(hook).set(last).where(eq(hook.id, h.id));
      return [];
    }
    const locked = await tx.execute<{ circuit: string; consecutive_failures: number; active: boolean }>(sql`select circuit, consecutive_failures, active from hook where id = ${h.id} for update`);
    const cur = locked.rows[0];
    if (!cur) return [];
    const failures = cur.consecutive_failures + 1;
    const opens = cur.circuit === 'closed' && failures >= s.circuitThreshold && cur.active;
    await tx
      .update(hook)
      .set({
        ...last, consecutiveFailures: failures,
        ...(opens ? { circuit: 'open', circuitOpenedAt: now, circuitProbeAt: new Date(now.getTime() + s.circuitCooldownMinutes * 60_000) } : {}),
      })
      .where(eq(hook.id, h.id));
    if (!opens) return [];
    const owner = h.ownerId ?? h.createdBy;
    if (owner === null) return [];
    const { t } = await translatorOf(await noticeLanguageOf(tx, owner));
    return notifyUsers(tx, [owner], t(CIRCUIT_NOTICE_TITLE, h.name), t(CIRCUIT_NOTICE_TEXT, h.name, failures, s.circuitCooldownMinutes, r.error ?? ''));
  }
}

function retryAfter(o: HookOutcome, now: Date): number | null {
  return o.ok && (o.response.status === 429 || o.response.status === 503) ? retryAfterMs(o.response.headers['retry-after'], now) : null;
}

/** A request or response as recorded: headers, the first 64 KB of the body, secrets masked. */
function message(headers: Record<string, string>, body: string, secrets: string[], truncatedAlready = false) {
  const bytes = Buffer.byteLength(body, 'utf8');
  const cut = bytes > HOOK_RECORD_BODY_MAX_BYTES;
  const kept = cut ? Buffer.from(body, 'utf8').subarray(0, HOOK_RECORD_BODY_MAX_BYTES).toString('utf8') : body;
  return {
    headers: maskJson(headers, secrets) as Record<string, string>,
    body: maskText(kept, secrets),
    encoding: 'utf8' as const,
    bytes,
    truncated: cut || truncatedAlready,
  };
}

/** Runs `fn` over the items, at most `n` at a time. */
async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

const dispatchers = perApp<Dispatcher>('hook dispatcher');

/** This instance's dispatcher (instances with the jobs role), or undefined. */
export const dispatcherOf = (ctx: AppContext): Dispatcher | undefined => dispatchers.get(ctx);

/** Starts the dispatcher on the jobs role: a poll, and what was due at start (a restart's leftovers). */
export function startDispatcher(ctx: AppContext): Dispatcher {
  const d = new Dispatcher(ctx);
  dispatchers.set(ctx, d);
  return d;
}

export async function stopDispatcher(ctx: AppContext): Promise<void> {
  await dispatchers.get(ctx)?.stop();
  dispatchers.delete(ctx);
}
