import { EventEmitter } from 'node:events';
import {
  commandReplySchema, eventPayloadSchema, parseDeviceTopic, statusPayloadSchema,
  type CommandReply, type TelemetryValue,
} from '@ess/contract';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logging.ts';
import { CopyEncoder } from './copy.ts';
import { copyDriver, type CopyWriter, type Session } from './copy-writer.ts';
import type { DeviceRegistry, RegisteredDevice } from './registry.ts';
import { parseTelemetry } from './validate.ts';
import { ROLLUP_TABLES, RollupAccumulator, writeAggregates, type Granularity } from './rollup.ts';

export interface IngestSettings {
  batchPoints: number;
  batchMs: number;
  latestFlushMs: number;
  /** How often due rollup aggregates are written. */
  rollupFlushMs: number;
  /** A filling bucket's aggregate is written at most this often (complete ones at once). */
  rollupSnapshotMs: number;
}

/**
 * A rule sink watching the stream (the alarm engine of modules/alarm; later others): told of every
 * newest report and every fault event in memory, and asked to write what it concluded after each
 * latest-values flush (so the events it came from are stored first). The ingest holds a list.
 */
export interface IngestRules {
  report(device: RegisteredDevice, ts: number, values: Float64Array): void;
  event(device: RegisteredDevice, code: string, active: boolean, message: string, ts: number): void;
  /** Writes what is pending; never throws. */
  flush(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What the ingest has seen and done since start; read by tests, the bench and the logs. */
export interface IngestCounters {
  received: number;
  telemetry: number;
  events: number;
  statuses: number;
  replies: number;
  /** Not one of our topics, unparseable JSON, or failing the contract schema. */
  invalid: number;
  unknownDevice: number;
  duplicates: number;
  /** Valid but not for the ingest: retained statuses, our own commands. */
  ignored: number;
  storedReports: number;
  storedPoints: number;
  batches: number;
  batchErrors: number;
  droppedReports: number;
  eventsStored: number;
  latestFlushes: number;
  rollupFlushes: number;
  rollupRows: number;
  /** Time spent handling messages (parse, validate, encode) and in telemetry COPY writes, ms. */
  handleMs: number;
  copyMs: number;
  /** Time spent writing latest values and events, and rollups, ms. */
  latestMs: number;
  rollupMs: number;
}

/** Per-device live state: the latest values and last-seen, in memory, flushed in batches. */
interface LiveState {
  ts: number | null;
  seq: number | null;
  /** Numeric values by product slot, and text values, of the newest report. */
  row: Float64Array | null;
  text: Record<string, string> | null;
  /** Receive time of the newest telemetry or online status. */
  lastSeen: number | null;
  /** Receive time of the latest telemetry (for the observed interval). */
  lastReport: number | null;
  offlineAt: number | null;
  intervalMs: number | null;
  dirty: boolean;
}

interface PendingReport {
  device: RegisteredDevice;
  ts: number;
  values: Float64Array;
}

interface Batch {
  data: Buffer;
  reports: PendingReport[];
  points: number;
  attempts: number;
}

interface EventRow {
  deviceId: number;
  code: string;
  active: boolean;
  message: string;
  ts: number;
  receivedAt: number;
}

const MAX_LATENCY_MS = 60_000;
const MAX_ATTEMPTS = 5;
const TELEMETRY_COLUMNS = 'device_id, ts, seq, v';
const LATEST_COLUMNS = 'device_id, ts, seq, v, text, last_seen_at, offline_at, interval_ms';

/**
 * The ingest pipeline: validates each MQTT message against the contract, resolves the device,
 * appends telemetry to a binary COPY batch (written when it holds `batchPoints` points or every
 * `batchMs`), keeps latest values and last-seen in memory (flushed every `latestFlushMs`), folds
 * stored reports into the rollups (flushed every `rollupFlushMs`) and records fault events. A
 * bad message is counted and logged and never stops the rest.
 */
export class Ingest {
  readonly counters: IngestCounters = {
    received: 0, telemetry: 0, events: 0, statuses: 0, replies: 0, invalid: 0, unknownDevice: 0, duplicates: 0, ignored: 0,
    storedReports: 0, storedPoints: 0, batches: 0, batchErrors: 0, droppedReports: 0, eventsStored: 0, latestFlushes: 0,
    rollupFlushes: 0, rollupRows: 0, handleMs: 0, copyMs: 0, latestMs: 0, rollupMs: 0,
  };
  /** Milliseconds from a report's ts to the commit of its batch: [0..60000] histogram. */
  readonly latency = new Uint32Array(MAX_LATENCY_MS + 1);
  /** Milliseconds from a report's ts to its arrival here (broker and network share of the latency). */
  readonly arrival = new Uint32Array(MAX_LATENCY_MS + 1);
  readonly replies = new EventEmitter<{ reply: [RegisteredDevice, CommandReply] }>();

  private readonly live = new Map<number, LiveState>();
  private encoder = new CopyEncoder();
  private reports: PendingReport[] = [];
  private points = 0;
  private readonly retry: Batch[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly idle: (() => void)[] = [];
  private events: EventRow[] = [];
  private readonly rollups: RollupAccumulator;
  private readonly timers: NodeJS.Timeout[] = [];
  private latestWrite: Promise<void> = Promise.resolve();
  private rollupWrite: Promise<void> = Promise.resolve();
  private readonly copy: CopyWriter;
  private readonly session: <T>(fn: (s: Session) => Promise<T>) => Promise<T>;
  private invalidLogged = 0;
  private invalidLogWindow = 0;

  constructor(
    private readonly database: Database,
    readonly registry: DeviceRegistry,
    private readonly settings: IngestSettings,
    private readonly log: Logger,
    readonly rules: readonly IngestRules[] = [],
  ) {
    const driver = copyDriver(database);
    this.copy = driver.copy;
    this.session = driver.session;
    this.rollups = new RollupAccumulator(settings.rollupSnapshotMs);
    this.maxInFlight = database.kind === 'postgres' ? 2 : 1;
  }

  /** Each sink writes what is pending (a sink's flush never throws). */
  private async flushRules(): Promise<void> {
    for (const r of this.rules) await r.flush();
  }

  /** Loads the registry, the last stored state and the rules, and starts the flush timers. */
  async start(): Promise<void> {
    await this.registry.load();
    for (const r of this.rules) await r.start();
    const rows = await this.database.sql.query<{ device_id: number; ts: Date | null; seq: number | null; last_seen_at: Date | null; offline_at: Date | null; interval_ms: number | null }>(
      'select device_id, ts, seq, last_seen_at, offline_at, interval_ms from device_latest',
    );
    for (const r of rows.rows) {
      this.live.set(r.device_id, {
        ts: r.ts ? r.ts.getTime() : null, seq: r.seq, row: null, text: null, lastSeen: r.last_seen_at?.getTime() ?? null, lastReport: null,
        offlineAt: r.offline_at?.getTime() ?? null, intervalMs: r.interval_ms, dirty: false,
      });
    }
    const every = (ms: number, fn: () => Promise<void>) => {
      const t = setInterval(() => void fn().catch((err: unknown) => this.log.error({ err }, 'ingest flush failed')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.settings.batchMs, () => this.flushBatch());
    every(this.settings.latestFlushMs, () => this.flushLatest());
    every(this.settings.rollupFlushMs, () => this.flushRollups());
    every(30_000, () => this.registry.load());
  }

  /** Handles one MQTT message; never throws. */
  handle(topic: string, payload: Buffer, retained: boolean): void {
    this.counters.received++;
    const t0 = performance.now();
    try {
      this.route(topic, payload, retained);
    } catch (err) {
      this.invalid(topic, `handler error: ${(err as Error).message}`);
    }
    this.counters.handleMs += performance.now() - t0;
  }

  private route(topic: string, payload: Buffer, retained: boolean): void {
    const parsed = parseDeviceTopic(topic);
    if (!parsed) return this.invalid(topic, 'not a device topic');
    if (parsed.kind === 'command') {
      this.counters.ignored++;
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.invalid(topic, 'payload is not JSON');
    }
    const dev = this.registry.byCode.get(parsed.deviceCode);
    const known = dev && dev.siteCode === parsed.siteCode ? dev : undefined;
    switch (parsed.kind) {
      case 'telemetry': {
        const r = parseTelemetry(body);
        if (!r.ok) return this.invalid(topic, r.error);
        if (!known) return this.unknown();
        this.counters.telemetry++;
        return this.telemetry(known, r.data.ts, r.data.seq, r.data.values);
      }
      case 'event': {
        const r = eventPayloadSchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid event');
        if (!known) return this.unknown();
        this.counters.events++;
        this.events.push({ deviceId: known.id, code: r.data.code, active: r.data.active, message: r.data.message, ts: r.data.ts, receivedAt: Date.now() });
        for (const rule of this.rules) rule.event(known, r.data.code, r.data.active, r.data.message, r.data.ts);
        return;
      }
      case 'status': {
        const r = statusPayloadSchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid status');
        if (!known) return this.unknown();
        this.counters.statuses++;
        // A retained status describes some earlier moment (a will's ts is even the connect
        // time): the report timeout decides instead.
        if (retained) {
          this.counters.ignored++;
          return;
        }
        return this.status(known, r.data.online);
      }
      case 'command/reply': {
        const r = commandReplySchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid reply');
        if (!known) return this.unknown();
        this.counters.replies++;
        this.replies.emit('reply', known, r.data);
        return;
      }
      default:
        this.counters.ignored++;
    }
  }

  private invalid(topic: string, reason: string): void {
    this.counters.invalid++;
    // At most 20 log lines a minute, however bad the stream.
    const now = Date.now();
    if (now - this.invalidLogWindow > 60_000) {
      this.invalidLogWindow = now;
      this.invalidLogged = 0;
    }
    if (this.invalidLogged++ < 20) this.log.warn({ topic, reason }, 'invalid device message dropped');
  }

  private unknown(): void {
    this.counters.unknownDevice++;
    this.registry.requestReload();
  }

  private state(id: number): LiveState {
    let s = this.live.get(id);
    if (!s) {
      s = { ts: null, seq: null, row: null, text: null, lastSeen: null, lastReport: null, offlineAt: null, intervalMs: null, dirty: false };
      this.live.set(id, s);
    }
    return s;
  }

  private telemetry(device: RegisteredDevice, ts: number, seq: number, values: Record<string, TelemetryValue>): void {
    const st = this.state(device.id);
    if (st.ts === ts && st.seq === seq) {
      this.counters.duplicates++;
      return;
    }
    const slots = this.registry.products.get(device.productId);
    const row = new Float64Array(slots?.identifiers.length ?? 0).fill(NaN);
    let text: Record<string, string> | null = null;
    let points = 0;
    if (slots) {
      for (const key in values) {
        const v = values[key];
        const i = slots.indexOf.get(key);
        if (i === undefined) {
          if (typeof v === 'string' && slots.text.has(key)) (text ??= {})[key] = v;
          continue;
        }
        const x = typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v);
        if (Number.isFinite(x)) {
          row[i] = x;
          points++;
        }
      }
    }
    this.arrival[Math.max(0, Math.min(MAX_LATENCY_MS, Date.now() - ts))]!++;
    this.encoder.add(device.id, ts, seq, row);
    this.reports.push({ device, ts, values: row });
    this.points += points;

    const now = Date.now();
    if (st.lastReport !== null && now > st.lastReport) {
      const gap = now - st.lastReport;
      st.intervalMs = st.intervalMs === null ? gap : Math.round(st.intervalMs * 0.8 + gap * 0.2);
    }
    st.lastReport = now;
    st.lastSeen = now;
    if (st.ts === null || ts >= st.ts) {
      st.ts = ts;
      st.seq = seq;
      st.row = row;
      st.text = text;
      // Only the newest report is judged: a late one must not reopen what a newer one cleared.
      for (const rule of this.rules) rule.report(device, ts, row);
    }
    st.dirty = true;
    if (this.points >= this.settings.batchPoints) void this.flushBatch();
  }

  private status(device: RegisteredDevice, online: boolean): void {
    const now = Date.now();
    if (online) {
      const st = this.state(device.id);
      st.lastSeen = now;
      st.dirty = true;
      return;
    }
    // The gateway's last will: every device of its station is unreachable.
    const ids = device.gateway ? (this.registry.devicesOfSite.get(device.siteId) ?? [device.id]) : [device.id];
    for (const id of ids) {
      const st = this.state(id);
      st.offlineAt = now;
      st.dirty = true;
    }
  }

  /** Seals the current batch and writes it (or leaves it to the write in flight to pick up). */
  flushBatch(): Promise<void> {
    if (this.encoder.rows > 0) {
      this.retry.push({ data: this.encoder.take(), reports: this.reports, points: this.points, attempts: 0 });
      this.reports = [];
      this.points = 0;
    }
    this.pump();
    return this.drained();
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.retry.length > 0) {
      const batch = this.retry.shift()!;
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        // What arrived meanwhile is the next batch, as large as the database's pace made it.
        if (this.points >= this.settings.batchPoints && this.encoder.rows > 0) {
          this.retry.push({ data: this.encoder.take(), reports: this.reports, points: this.points, attempts: 0 });
          this.reports = [];
          this.points = 0;
        }
        this.pump();
        if (this.inFlight === 0 && this.retry.length === 0) for (const f of this.idle.splice(0)) f();
      });
    }
  }

  private drained(): Promise<void> {
    if (this.inFlight === 0 && this.retry.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async write(batch: Batch): Promise<void> {
    const t0 = performance.now();
    try {
      await this.copy('telemetry', TELEMETRY_COLUMNS, batch.data);
      this.counters.copyMs += performance.now() - t0;
    } catch (err) {
      this.counters.batchErrors++;
      batch.attempts++;
      if (batch.attempts >= MAX_ATTEMPTS) {
        this.counters.droppedReports += batch.reports.length;
        this.log.error({ err, reports: batch.reports.length }, 'telemetry batch dropped after repeated failures');
        return;
      }
      this.log.warn({ err, attempt: batch.attempts }, 'telemetry batch failed; retrying');
      await new Promise((r) => setTimeout(r, 500 * batch.attempts));
      this.retry.unshift(batch);
      return;
    }
    const now = Date.now();
    this.counters.batches++;
    this.counters.storedReports += batch.reports.length;
    this.counters.storedPoints += batch.points;
    for (const r of batch.reports) {
      this.latency[Math.max(0, Math.min(MAX_LATENCY_MS, now - r.ts))]!++;
      this.rollups.add(r.device.id, r.device.timeZone, r.ts, r.values);
    }
  }

  /** Upserts the latest values and last-seen of every device that changed, and the new events. */
  flushLatest(): Promise<void> {
    this.latestWrite = this.latestWrite.then(() => this.writeLatest());
    return this.latestWrite;
  }

  private async writeLatest(): Promise<void> {
    const dirty: [number, LiveState][] = [];
    for (const [id, st] of this.live) {
      if (st.dirty) {
        dirty.push([id, st]);
        st.dirty = false;
      }
    }
    const events = this.events;
    this.events = [];
    if (dirty.length === 0 && events.length === 0) return this.flushRules();
    const { sql } = this.database;
    const t0 = performance.now();
    try {
      if (dirty.length) await this.session((s) => this.upsertLatest(s, dirty));
      for (let i = 0; i < events.length; i += 1000) {
        const params: unknown[] = [];
        const rows = events.slice(i, i + 1000).map((e) => {
          const b = params.length;
          params.push(e.deviceId, e.code, e.active, e.message, new Date(e.ts), new Date(e.receivedAt));
          return `($${b + 1}::int4,$${b + 2},$${b + 3}::boolean,$${b + 4},$${b + 5}::timestamptz,$${b + 6}::timestamptz)`;
        });
        await sql.query(
          `insert into device_event (device_id, code, active, message, ts, received_at)
           select v.* from (values ${rows.join(',')}) as v(device_id, code, active, message, ts, received_at)
           where exists (select 1 from device d where d.id = v.device_id)`,
          params,
        );
        this.counters.eventsStored += rows.length;
      }
      this.counters.latestFlushes++;
      this.counters.latestMs += performance.now() - t0;
    } catch (err) {
      // Put it back: the next flush tries again with whatever is newest by then.
      for (const [, st] of dirty) st.dirty = true;
      this.events.unshift(...events);
      throw err;
    }
    await this.flushRules();
  }

  /**
   * Latest values through a staging table: binary COPY of the changed devices, then one
   * set-based upsert that keeps the newest report and the latest last-seen/offline times (two
   * instances may write the same device).
   */
  private async upsertLatest(s: Session, dirty: [number, LiveState][]): Promise<void> {
    const enc = new CopyEncoder(dirty.length * 600 + 64);
    for (const [id, st] of dirty) {
      enc.row(8);
      enc.int4(id);
      enc.timestamptz(st.ts);
      enc.int4(st.seq);
      enc.float8Array(st.row);
      enc.jsonb(st.text ? JSON.stringify(st.text) : null);
      enc.timestamptz(st.lastSeen);
      enc.timestamptz(st.offlineAt);
      enc.int4(st.intervalMs);
    }
    await s.query(
      `create temp table if not exists ess_latest_stage
         (device_id int4, ts timestamptz, seq int4, v float8[], text jsonb, last_seen_at timestamptz, offline_at timestamptz, interval_ms int4) on commit delete rows`,
    );
    await s.copy('ess_latest_stage', LATEST_COLUMNS, enc.take());
    await s.query(
      `insert into device_latest as l (${LATEST_COLUMNS}, updated_at)
       select ${LATEST_COLUMNS}, now() from ess_latest_stage st where exists (select 1 from device d where d.id = st.device_id)
       on conflict (device_id) do update set
         ts = case when excluded.ts is not null and (l.ts is null or excluded.ts >= l.ts) then excluded.ts else l.ts end,
         seq = case when excluded.ts is not null and (l.ts is null or excluded.ts >= l.ts) then excluded.seq else l.seq end,
         v = case when excluded.v is not null and (l.ts is null or excluded.ts >= l.ts) then excluded.v else l.v end,
         text = case when excluded.v is not null and (l.ts is null or excluded.ts >= l.ts) then excluded.text else l.text end,
         last_seen_at = greatest(l.last_seen_at, excluded.last_seen_at),
         offline_at = greatest(l.offline_at, excluded.offline_at),
         interval_ms = coalesce(excluded.interval_ms, l.interval_ms),
         updated_at = now()`,
    );
  }

  /** Writes the rollup aggregates that are due (every touched one with `force`). */
  flushRollups(force = false): Promise<void> {
    this.rollupWrite = this.rollupWrite.then(() => this.writeRollups(force));
    return this.rollupWrite;
  }

  private async writeRollups(force: boolean): Promise<void> {
    const taken = this.rollups.take(Date.now(), force);
    const t0 = performance.now();
    for (const g of Object.keys(taken) as Granularity[]) {
      try {
        if (taken[g].length) await this.session((s) => writeAggregates(s, ROLLUP_TABLES[g], taken[g]));
        this.counters.rollupRows += taken[g].length;
      } catch (err) {
        this.rollups.retry(taken[g]);
        throw err;
      }
    }
    this.counters.rollupFlushes++;
    this.counters.rollupMs += performance.now() - t0;
  }

  /** Writes everything buffered now: telemetry, then latest values and events, then rollups. */
  async flush(): Promise<void> {
    await this.flushBatch();
    await this.flushLatest();
    await this.flushRollups(true);
  }

  /** Reports received but not yet committed. */
  get pendingReports(): number {
    return this.reports.length + this.retry.reduce((a, b) => a + b.reports.length, 0);
  }

  /** Latency percentile (ms from report ts to commit, or to arrival) over what came since the last reset. */
  latencyPercentile(p: number, of: 'stored' | 'arrival' = 'stored'): number | null {
    const hist = of === 'stored' ? this.latency : this.arrival;
    let total = 0;
    for (const c of hist) total += c;
    if (total === 0) return null;
    const target = Math.ceil((p / 100) * total);
    let seen = 0;
    for (let ms = 0; ms < hist.length; ms++) {
      seen += hist[ms]!;
      if (seen >= target) return ms;
    }
    return MAX_LATENCY_MS;
  }

  resetLatency(): void {
    this.latency.fill(0);
    this.arrival.fill(0);
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    await this.flush();
    for (const r of this.rules) await r.stop();
  }
}
