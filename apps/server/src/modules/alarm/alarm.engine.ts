import { thresholdCleared, thresholdRaised, type AlarmOperator } from '@ess/contract';
import type { Database } from '../../platform/db/database.ts';
import type { EventBus } from '../../platform/events/bus.ts';
import type { Logger } from '../../platform/logging.ts';
import type { DeviceRegistry, ProductSlots, RegisteredDevice } from '../telemetry/index.ts';
import type { IngestRules } from '../telemetry/index.ts';
import { alarmEventsCte, endOrphanAlarms } from './alarm.repository.ts';

/** One enabled dictionary entry as the engine needs it. */
interface DictRule {
  id: number;
  productId: number | null;
  deviceType: string | null;
  kind: 'event' | 'threshold';
  eventCode: string | null;
  identifier: string | null;
  operator: AlarmOperator | null;
  threshold: number | null;
  clearValue: number | null;
  level: number;
}

interface ThresholdRule {
  dictId: number;
  op: AlarmOperator;
  threshold: number;
  clear: number;
}

/**
 * The threshold rules of one property and operator: its tiers, most severe (smallest level) first;
 * a single tier for most properties. At most one tier of a group is open at a time (decision 0033).
 */
interface ThresholdGroup {
  /** Index into the report's value array (the product's property slot − 1). */
  index: number;
  tiers: ThresholdRule[];
}

/** Why an alarm ended other than by its own condition clearing. */
type EndReason = 'escalated';

/** The rules of one product, compiled against its slot layout. */
interface ProductRules {
  thresholds: ThresholdGroup[];
  /** Fault code → dictionary entry. */
  events: Map<string, number>;
}

interface Transition {
  open: boolean;
  deviceId: number;
  dictId: number;
  /** Device time of the report or event. */
  ts: number;
  value: number | null;
  message: string | null;
  receivedAt: number;
  /** Ends only: set when a more severe tier took over. */
  reason: EndReason | null;
  /** Played as history (the demo's past): its domain event is written as history, not news. */
  history: boolean;
}

export interface AlarmEngineSettings {
  /** How often the open alarms, shields and dictionary are read back (other instances' work). */
  syncMs: number;
}

export interface AlarmEngineCounters {
  opened: number;
  ended: number;
  transitions: number;
  writeErrors: number;
  /** Transitions dropped while the database was unreachable for long. */
  dropped: number;
  syncs: number;
  reloads: number;
  /** Time spent evaluating reports and events in memory, ms. */
  evalMs: number;
  /** Time spent in the statements writing transitions, and in the read-backs, ms. */
  writeMs: number;
  syncMs: number;
}

/**
 * Transitions per statement. A burst (a whole fleet crossing a limit at once) is written in
 * statements of this size with the event loop let go between them: PGlite runs a statement on the
 * event loop, and telemetry keeps flowing meanwhile.
 */
const BATCH = 200;
/**
 * Transitions written per flush (LATEST_FLUSH_MS): a burst drains over a few flushes instead of
 * holding the event loop for a second; the rest wait in the queue (and count as open meanwhile).
 */
const MAX_PER_FLUSH = 400;
/** Alarms no rule watches any more are looked for every this many read-backs (and on every reload). */
const SWEEP_EVERY = 12;
/** Transitions kept while the database is unreachable; beyond this the oldest are dropped (and logged). */
const MAX_PENDING = 100_000;
const none: ProductRules = { thresholds: [], events: new Map() };

/**
 * Alarm rules on ingest. The dictionary is compiled per product into threshold checks on the
 * report's value array and a fault-code map, so a report costs a few comparisons in memory; only
 * transitions (an alarm opens or ends) are queued and written in batches after the flush that
 * stored their events. The database is the arbiter between instances: an open is an
 * insert … on conflict do nothing against the partial unique index on a source's open alarm, an
 * end is an update of the open row. What other instances did (and shields, dictionary edits) is
 * read back every `syncMs`, and at once when a "reload" message crosses the bus.
 */
export class AlarmEngine implements IngestRules {
  readonly counters: AlarmEngineCounters = { opened: 0, ended: 0, transitions: 0, writeErrors: 0, dropped: 0, syncs: 0, reloads: 0, evalMs: 0, writeMs: 0, syncMs: 0 };
  private dict: DictRule[] = [];
  private compiled = new Map<number, ProductRules>();
  private compiledFrom: Map<number, ProductSlots> | null = null;
  /** Sources believed open: device → dictionary entries. */
  private open = new Map<number, Set<number>>();
  /** Shield windows in force or to come, by "device:dict": [start, end) epoch ms. */
  private shields = new Map<string, [number, number][]>();
  private pending: Transition[] = [];
  private lastSync = 0;
  private chain: Promise<void> = Promise.resolve();
  private reloadWanted = false;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly registry: DeviceRegistry,
    private readonly settings: AlarmEngineSettings,
    /** Told after alarms were opened or ended (their domain events are in the outbox). */
    private readonly written: () => void,
    private readonly log: Logger,
    bus?: EventBus,
  ) {
    bus?.subscribe((m) => {
      if (m.type === 'reload' && m.what === 'alarm') this.requestReload();
    });
  }

  async start(): Promise<void> {
    await this.loadDictionary();
    if ((await this.sync(true)) > 0) this.written();
  }

  /** Writes what is pending (a burst takes several flushes; a failing database ends the tries); later flushes do nothing. */
  async stop(): Promise<void> {
    await this.flush();
    for (let i = 0; this.pending.length > 0 && i < 1000; i++) {
      const errors = this.counters.writeErrors;
      await this.flush();
      if (this.counters.writeErrors > errors) break;
    }
    this.stopped = true;
  }

  // ── In memory, on the hot path ──────────────────────────────────────────────────────

  private rulesOf(productId: number): ProductRules {
    if (this.registry.products !== this.compiledFrom) this.compile();
    return this.compiled.get(productId) ?? none;
  }

  /**
   * A report of a device (its newest): threshold rules against the values by slot. `history`: a
   * history writer's (the demo's past), whose alarms' events are written as history (outbox).
   */
  report(device: RegisteredDevice, ts: number, values: Float64Array, history = false): void {
    if (device.disabled) return;
    const groups = this.rulesOf(device.productId).thresholds;
    if (groups.length === 0) return;
    const t0 = performance.now();
    let open = this.open.get(device.id);
    for (const g of groups) {
      const x = values[g.index];
      if (x === undefined || Number.isNaN(x)) continue;
      if (g.tiers.length > 1) {
        open = this.judgeTiers(device.id, g.tiers, x, ts, open, history);
        continue;
      }
      const r = g.tiers[0]!;
      if (open?.has(r.dictId)) {
        if (thresholdCleared(r.op, r.clear, x)) {
          open.delete(r.dictId);
          this.queue(false, device.id, r.dictId, ts, x, null, history);
        }
      } else if (thresholdRaised(r.op, r.threshold, x) && !this.shielded(device.id, r.dictId)) {
        if (!open) this.open.set(device.id, (open = new Set()));
        open.add(r.dictId);
        this.queue(true, device.id, r.dictId, ts, x, null, history);
      }
    }
    this.counters.evalMs += performance.now() - t0;
  }

  /**
   * Tiers of one property (decision 0033): the most severe tier the value passed wins. When a more
   * severe tier trips while a lesser one is open, the lesser ends (reason `escalated`) and the
   * severe one opens. When the open tier clears (at its own clear value) while the value has not
   * cleared a lesser tier, that lesser tier opens again: as in ISA-18.2, a HI alarm suppressed by
   * its HIHI is still standing when the HIHI returns to normal. Returns the device's open set.
   */
  private judgeTiers(deviceId: number, tiers: ThresholdRule[], x: number, ts: number, open: Set<number> | undefined, history: boolean): Set<number> | undefined {
    const n = tiers.length;
    let cur = -1;
    let extra = false;
    if (open) {
      for (let i = 0; i < n; i++) {
        if (!open.has(tiers[i]!.dictId)) continue;
        if (cur < 0) cur = i;
        else extra = true; // two instances raced two tiers: the lesser goes below
      }
    }
    let target = cur;
    for (let i = 0; i < (cur < 0 ? n : cur); i++) {
      const r = tiers[i]!;
      if (thresholdRaised(r.op, r.threshold, x) && !this.shielded(deviceId, r.dictId)) {
        target = i;
        break;
      }
    }
    if (target === cur && cur >= 0 && thresholdCleared(tiers[cur]!.op, tiers[cur]!.clear, x)) {
      target = -1;
      for (let i = cur + 1; i < n; i++) {
        const r = tiers[i]!;
        if (!thresholdCleared(r.op, r.clear, x) && !this.shielded(deviceId, r.dictId)) {
          target = i;
          break;
        }
      }
    }
    if (target === cur && !extra) return open;
    for (let i = 0; i < n; i++) {
      const r = tiers[i]!;
      if (i === target || !open?.has(r.dictId)) continue;
      open.delete(r.dictId);
      this.queue(false, deviceId, r.dictId, ts, x, null, history, target >= 0 && target < i ? 'escalated' : null);
    }
    const t = target >= 0 ? tiers[target]! : null;
    if (t && !open?.has(t.dictId)) {
      if (!open) this.open.set(deviceId, (open = new Set()));
      open.add(t.dictId);
      this.queue(true, deviceId, t.dictId, ts, x, null, history);
    }
    return open;
  }

  /**
   * A fault event: active opens the entry's alarm (the database ignores a second open of the same
   * source), inactive ends it, whatever this instance believes (another may have opened it).
   */
  event(device: RegisteredDevice, code: string, active: boolean, message: string, ts: number, history = false): void {
    const dictId = this.rulesOf(device.productId).events.get(code);
    if (dictId === undefined) return;
    let open = this.open.get(device.id);
    if (active) {
      if (device.disabled || this.shielded(device.id, dictId)) return;
      if (!open) this.open.set(device.id, (open = new Set()));
      open.add(dictId);
      this.queue(true, device.id, dictId, ts, null, message, history);
    } else {
      open?.delete(dictId);
      this.queue(false, device.id, dictId, ts, null, message, history);
    }
  }

  private queue(open: boolean, deviceId: number, dictId: number, ts: number, value: number | null, message: string | null, history: boolean, reason: EndReason | null = null): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      this.counters.dropped++;
    }
    this.pending.push({ open, deviceId, dictId, ts, value, message, receivedAt: Date.now(), reason, history });
    this.counters.transitions++;
  }

  private shielded(deviceId: number, dictId: number): boolean {
    const windows = this.shields.get(`${deviceId}:${dictId}`);
    if (!windows) return false;
    const now = Date.now();
    return windows.some(([s, e]) => s <= now && now < e);
  }

  private compile(): void {
    const products = this.registry.products;
    const out = new Map<number, ProductRules>();
    for (const [productId, slots] of products) {
      // A product's own entry wins over its type's for the same fault code; its own tiers of a
      // property and operator replace all of the type's tiers of them.
      const own = this.dict.filter((d) => d.productId === productId);
      const typed = this.dict.filter((d) => d.productId === null && d.deviceType === slots.type);
      const key = (d: DictRule) => (d.kind === 'event' ? `e:${d.eventCode}` : `t:${d.identifier}:${d.operator}`);
      const ownKeys = new Set(own.map(key));
      const rules: ProductRules = { thresholds: [], events: new Map() };
      const groups = new Map<string, ThresholdGroup & { levels: number[] }>();
      for (const d of [...own, ...typed.filter((d) => !ownKeys.has(key(d)))]) {
        if (d.kind === 'event') {
          if (d.eventCode) rules.events.set(d.eventCode, d.id);
          continue;
        }
        const index = d.identifier ? slots.indexOf.get(d.identifier) : undefined;
        if (index === undefined || d.operator === null || d.threshold === null || d.clearValue === null) continue;
        let g = groups.get(key(d));
        if (!g) groups.set(key(d), (g = { index, tiers: [], levels: [] }));
        // Most severe (smallest level) first.
        let at = 0;
        while (at < g.levels.length && g.levels[at]! <= d.level) at++;
        g.levels.splice(at, 0, d.level);
        g.tiers.splice(at, 0, { dictId: d.id, op: d.operator, threshold: d.threshold, clear: d.clearValue });
      }
      for (const g of groups.values()) rules.thresholds.push({ index: g.index, tiers: g.tiers });
      if (rules.thresholds.length || rules.events.size) out.set(productId, rules);
    }
    this.compiled = out;
    this.compiledFrom = products;
  }

  // ── Writing and reading back ─────────────────────────────────────────────────────────

  /**
   * Writes the queued transitions (in order, opens and ends in batches), then, when due, reads
   * back what the database holds. Called by the ingest after each latest-values flush; never throws.
   */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.writeAndSync()).catch((err: unknown) => {
      this.counters.writeErrors++;
      this.log.error({ err }, 'alarm transitions not written; retrying with the next flush');
    });
    return this.chain;
  }

  /** Reloads the dictionary and reads back open alarms and shields (after a dictionary or shield change). */
  reload(): Promise<void> {
    this.reloadWanted = true;
    return this.flush();
  }

  private requestReload(): void {
    void this.reload();
  }

  private async writeAndSync(): Promise<void> {
    if (this.stopped) return;
    let changed = 0;
    try {
      let written = 0;
      while (this.pending.length && written < MAX_PER_FLUSH) {
        // A run of opens or of ends (live or history), at most BATCH; taken off the queue only once written.
        const first = this.pending[0]!;
        let n = 1;
        while (n < this.pending.length && n < BATCH && this.pending[n]!.open === first.open && this.pending[n]!.history === first.history) n++;
        const run = this.pending.slice(0, n);
        const t0 = performance.now();
        const rows = first.open ? await this.writeOpens(run) : await this.writeEnds(run);
        this.counters.writeMs += performance.now() - t0;
        this.pending.splice(0, n);
        written += n;
        changed += rows;
        if (this.pending.length) await new Promise((r) => setImmediate(r));
      }
      const reload = this.reloadWanted;
      if (reload) {
        this.reloadWanted = false;
        try {
          await this.loadDictionary();
        } catch (err) {
          this.reloadWanted = true;
          throw err;
        }
        this.counters.reloads++;
      }
      const t1 = performance.now();
      changed += await this.sync(reload);
      this.counters.syncMs += performance.now() - t1;
    } finally {
      // What was written is announced even when a later step failed.
      if (changed > 0) this.written();
    }
  }

  /** Opens the run's alarms with their `alarm.opened` events; returns how many opened. */
  private async writeOpens(run: Transition[]): Promise<number> {
    const params: unknown[] = [];
    const values = run.map((t) => {
      const b = params.length;
      params.push(t.deviceId, t.dictId, new Date(t.ts), t.value, t.message, new Date(t.receivedAt));
      return `($${b + 1}::int4,$${b + 2}::int4,$${b + 3}::timestamptz,$${b + 4}::float8,$${b + 5}::text,$${b + 6}::timestamptz)`;
    });
    // nextval per candidate row gives the number its id; a skipped row only leaves a gap.
    const { rows } = await this.database.sql.query<{ id: number }>(
      `with x as (
         select nextval('alarm_id_seq')::int4 as id, v.* from (values ${values.join(',')}) as v(device_id, dict_id, started_at, trigger_value, message, received_at)
       ), ins as (
         insert into alarm (id, no, dict_id, device_id, site_id, cabinet_id, kind, code, level, alarm_type, description, status, started_at, trigger_value, message)
         select x.id,
                'ALM' || to_char(x.started_at at time zone s.time_zone, 'YYYYMMDD') || right('00000' || x.id::text, greatest(6, length(x.id::text))),
                d.id, dv.id, dv.site_id, dv.cabinet_id, d.kind, coalesce(d.event_code, d.identifier), d.level, d.alarm_type, d.description,
                'active', x.started_at, x.trigger_value, x.message
         from x
         join device dv on dv.id = x.device_id
         join site s on s.id = dv.site_id
         join alarm_dict d on d.id = x.dict_id and d.enabled
         where not exists (
           select 1 from alarm_shield sh
           where sh.device_id = x.device_id and sh.dict_id = x.dict_id and sh.cancelled_at is null
             and sh.start_at <= x.received_at and sh.end_at > x.received_at)
         on conflict do nothing
         returning id, no, site_id, device_id, level, description, started_at
       ), ${alarmEventsCte('ins', 'alarm.opened', run[0]!.history)}
       select id from ins`,
      params,
    );
    this.counters.opened += rows.length;
    return rows.length;
  }

  /** Ends the run's alarms with their `alarm.ended` events; returns how many ended. */
  private async writeEnds(run: Transition[]): Promise<number> {
    const params: unknown[] = [];
    const values = run.map((t) => {
      const b = params.length;
      params.push(t.deviceId, t.dictId, new Date(t.ts), t.value, t.reason);
      return `($${b + 1}::int4,$${b + 2}::int4,$${b + 3}::timestamptz,$${b + 4}::float8,$${b + 5}::text)`;
    });
    const { rows } = await this.database.sql.query<{ id: number }>(
      `with v(device_id, dict_id, ended_at, clear_value, end_reason) as (values ${values.join(',')}),
       upd as (
         update alarm a set status = 'ended', ended_at = greatest(v.ended_at, a.started_at), clear_value = v.clear_value,
                end_reason = v.end_reason, updated_at = now()
         from v where a.status = 'active' and a.device_id = v.device_id and a.dict_id = v.dict_id
         returning a.id, a.no, a.site_id, a.device_id, a.level, a.description, a.started_at
       ), ${alarmEventsCte('upd', 'alarm.ended', run[0]!.history)}
       select id from upd`,
      params,
    );
    this.counters.ended += rows.length;
    return rows.length;
  }

  /**
   * Reads back, when due (or `force`d): alarms left without a rule are ended (every SWEEP_EVERY
   * read-backs, and when forced), fault alarms whose
   * device has since reported the fault cleared are ended (the clearing event may have reached
   * another instance first), then the open sources and the shields replace what this instance
   * believed, with the transitions queued meanwhile applied on top.
   */
  /** Returns how many alarms it ended. */
  private async sync(force: boolean): Promise<number> {
    const now = Date.now();
    if (!force && now - this.lastSync < this.settings.syncMs) return 0;
    this.lastSync = now;
    let changed = 0;
    // The database's own view of orphans: this instance's dictionary may be older than another's.
    if (force || this.counters.syncs % SWEEP_EVERY === 0) changed += (await endOrphanAlarms(this.database.sql)).length;
    const { sql } = this.database;
    const { rows: open } = await sql.query<{ id: number; device_id: number; dict_id: number | null; kind: string }>(
      `select id, device_id, dict_id, kind from alarm where status = 'active'`,
    );
    // Only the (few) open fault alarms are looked up against their device's latest event.
    const faults = open.filter((r) => r.kind === 'event').map((r) => r.id);
    const ended = new Set<number>();
    if (faults.length) {
      const { rows: reconciled } = await sql.query<{ id: number }>(
        `with gone as (
           select a.id, e.ts from alarm a
           join lateral (
             select active, ts from device_event e where e.device_id = a.device_id and e.code = a.code order by e.ts desc, e.id desc limit 1
           ) e on true
           where a.id = any($1::int4[]) and a.status = 'active' and not e.active and e.ts >= a.started_at
         ), upd as (
           update alarm a set status = 'ended', ended_at = gone.ts, updated_at = now() from gone where a.id = gone.id and a.status = 'active'
           returning a.id, a.no, a.site_id, a.device_id, a.level, a.description, a.started_at
         ), ${alarmEventsCte('upd', 'alarm.ended')}
         select id from upd`,
        [faults],
      );
      for (const r of reconciled) ended.add(Number(r.id));
      changed += reconciled.length;
    }
    const { rows: shields } = await sql.query<{ device_id: number; dict_id: number; start_at: Date; end_at: Date }>(
      `select device_id, dict_id, start_at, end_at from alarm_shield where cancelled_at is null and end_at > now()`,
    );
    const openMap = new Map<number, Set<number>>();
    for (const r of open) {
      if (r.dict_id === null || ended.has(r.id)) continue;
      let set = openMap.get(r.device_id);
      if (!set) openMap.set(r.device_id, (set = new Set()));
      set.add(r.dict_id);
    }
    for (const t of this.pending) {
      let set = openMap.get(t.deviceId);
      if (t.open) {
        if (!set) openMap.set(t.deviceId, (set = new Set()));
        set.add(t.dictId);
      } else set?.delete(t.dictId);
    }
    this.open = openMap;
    const shieldMap = new Map<string, [number, number][]>();
    for (const s of shields) {
      const key = `${s.device_id}:${s.dict_id}`;
      const list = shieldMap.get(key) ?? [];
      list.push([s.start_at.getTime(), s.end_at.getTime()]);
      shieldMap.set(key, list);
    }
    this.shields = shieldMap;
    this.counters.syncs++;
    return changed;
  }

  private async loadDictionary(): Promise<void> {
    const { rows } = await this.database.sql.query<{
      id: number; product_id: number | null; device_type: string | null; kind: 'event' | 'threshold'; event_code: string | null;
      identifier: string | null; operator: AlarmOperator | null; threshold: number | null; clear_value: number | null; level: number;
    }>(
      `select id, product_id, device_type, kind, event_code, identifier, operator, threshold, clear_value, level from alarm_dict where enabled`,
    );
    this.dict = rows.map((r) => ({
      id: r.id, productId: r.product_id, deviceType: r.device_type, kind: r.kind, eventCode: r.event_code, identifier: r.identifier,
      operator: r.operator, threshold: r.threshold === null ? null : Number(r.threshold), clearValue: r.clear_value === null ? null : Number(r.clear_value),
      level: Number(r.level),
    }));
    this.compiledFrom = null;
  }

  /** Transitions queued and not yet written. */
  get pendingTransitions(): number {
    return this.pending.length;
  }
}
