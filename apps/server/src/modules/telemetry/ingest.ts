import { EventEmitter } from 'node:events';
import {
  commandReplySchema, eventPayloadSchema, logReportSchema, otaReportSchema, parseDeviceTopic, statusPayloadSchema,
  type CommandReply, type FirmwareInfo, type LogReport, type OtaReport, type TelemetryValue,
} from '@ess/contract';
import type { Database } from '../../platform/db/database.ts';
import { isConnectionError, OutageLog, pause, retryDelayMs } from '../../platform/db/outage.ts';
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
  /**
   * The device reports of firmware upgrades and log uploads (`ota`, `log`) and the firmware an
   * online status carries (the firmware module's sink): the message is acknowledged once the
   * returned work settles. Never rejects.
   */
  otaReport?(device: RegisteredDevice, report: OtaReport): Promise<void>;
  logReport?(device: RegisteredDevice, report: LogReport): Promise<void>;
  statusFirmware?(device: RegisteredDevice, firmware: FirmwareInfo): Promise<void>;
}

/**
 * How the broker learns that a message is safe. The ingest calls `ack` once what the message
 * carries is committed (a report with its telemetry batch; an event or status with the
 * latest-values flush), or at once for what it drops on purpose (invalid, unknown device,
 * duplicate, ignored); never for what it still holds. A broker keeps what is not acked and delivers
 * it again after a crash or reconnect (docs/decisions/0025).
 */
export interface Receipt {
  ack?: () => void;
  /** Delivered before (MQTT DUP): an earlier copy may be stored already, so it is checked first. */
  redelivered?: boolean;
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
  /** Failed telemetry writes (each is retried until it commits). */
  batchErrors: number;
  /** Redelivered reports found already stored (not written twice). */
  redeliveredStored: number;
  /**
   * Reports of a failed telemetry write found stored when it was retried: the write had
   * committed and only its answer was lost with the connection (not written twice).
   */
  retriedStored: number;
  /** Reports the database refused for themselves (not for being away): isolated and dropped. */
  droppedReports: number;
  /** Events the database refused for themselves, dropped after repeated failures. */
  droppedEvents: number;
  /** Reports still unwritten when stop() gave up waiting for the database (never acknowledged). */
  abandonedReports: number;
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

type Ack = () => void;

interface PendingReport {
  device: RegisteredDevice;
  ts: number;
  seq: number;
  values: Float64Array;
  points: number;
  ack: Ack;
  /** A write of this process sent it (its outcome may be unknown): counted in the rollups once stored. */
  tried: boolean;
}

/**
 * Why a batch is checked against the table before it is written (its reports whose (device, ts,
 * seq) is stored already are acknowledged without a second row): `redelivered`, reports the broker
 * sent again (MQTT DUP), whose first copy may have committed; `retry`, a batch whose write failed,
 * whose outcome is unknown (a COPY can commit and its answer be lost with the connection).
 */
type Check = 'redelivered' | 'retry';

interface Batch {
  /** The COPY stream; null for a checked batch (encoded once checked against the table). */
  data: Buffer | null;
  reports: PendingReport[];
  points: number;
  attempts: number;
  check: Check | null;
}

interface EventRow {
  deviceId: number;
  code: string;
  active: boolean;
  message: string;
  ts: number;
  receivedAt: number;
  /**
   * May be stored already, so inserted only where the table has no such event: redelivered
   * (MQTT DUP), or put back by a failed flush (whose commit may have happened, its answer lost).
   */
  checked: boolean;
}

const MAX_LATENCY_MS = 60_000;
/** A batch is sealed at this many reports too (reports with few points), so acknowledgements keep coming. */
const MAX_BATCH_REPORTS = 1000;
/**
 * Failures of one write, not of the connection, before its batch is split to find the report the
 * database refuses (and a latest-values flush drops its events): what is wrong in one message
 * must not stop the stream, which waits behind it unacknowledged.
 */
const POISON_ATTEMPTS = 3;
/** The largest ts a report may carry (JavaScript's last Date; PostgreSQL's range is wider). */
const MAX_TS = 8_640_000_000_000_000;
const MAX_INT4 = 2_147_483_647;
/** How long stop() waits for the database to take what is held before leaving it unacknowledged. */
const STOP_WAIT_MS = 10_000;
const NO_ACK: Ack = () => undefined;
const TELEMETRY_COLUMNS = 'device_id, ts, seq, v';
const LATEST_COLUMNS = 'device_id, ts, seq, v, text, last_seen_at, offline_at, interval_ms';

/**
 * The ingest pipeline: validates each MQTT message against the contract, resolves the device,
 * appends telemetry to a binary COPY batch (written when it holds `batchPoints` points or every
 * `batchMs`), keeps latest values and last-seen in memory (flushed every `latestFlushMs`), folds
 * stored reports into the rollups (flushed every `rollupFlushMs`) and records fault events. A
 * bad message is counted and logged and never stops the rest.
 *
 * Nothing is acknowledged to the broker before it is committed, and nothing is dropped when the
 * database fails: each writer keeps what it holds and tries again with backoff until the database
 * is back (docs/decisions/0025). What the ingest holds meanwhile is bounded by the broker, which
 * sends only so many messages not yet acknowledged (the consumer's Receive Maximum, the embedded
 * broker's concurrency) and queues the rest.
 */
export class Ingest {
  readonly counters: IngestCounters = {
    received: 0, telemetry: 0, events: 0, statuses: 0, replies: 0, invalid: 0, unknownDevice: 0, duplicates: 0, ignored: 0,
    storedReports: 0, storedPoints: 0, batches: 0, batchErrors: 0, redeliveredStored: 0, retriedStored: 0, droppedReports: 0, droppedEvents: 0, abandonedReports: 0, eventsStored: 0, latestFlushes: 0,
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
  /** Redelivered reports not yet sealed into a batch of their own. */
  private redelivered: PendingReport[] = [];
  private redeliveredPoints = 0;
  /** Sealed batches waiting for a write slot, in order (a failed one goes back to the front). */
  private readonly retry: Batch[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly idle: (() => void)[] = [];
  private events: EventRow[] = [];
  /** Acks of the events and statuses the next latest-values flush writes. */
  private latestAcks: Ack[] = [];
  private latestFailures = 0;
  private readonly rollups: RollupAccumulator;
  private readonly timers: NodeJS.Timeout[] = [];
  private latestWrite: Promise<void> = Promise.resolve();
  private rollupWrite: Promise<void> = Promise.resolve();
  private readonly copy: CopyWriter;
  private readonly session: <T>(fn: (s: Session) => Promise<T>) => Promise<T>;
  private invalidLogged = 0;
  private invalidLogWindow = 0;
  /** stop() gave up on the database: failed writes are not retried any more. */
  private abandoned = false;
  private readonly telemetryOutage: OutageLog;
  private readonly latestOutage: OutageLog;
  private readonly rollupOutage: OutageLog;

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
    this.telemetryOutage = new OutageLog(log, 'telemetry write');
    this.latestOutage = new OutageLog(log, 'latest values and events write');
    this.rollupOutage = new OutageLog(log, 'rollup write');
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
    // Each flush keeps what failed and logs through its OutageLog: here only the failure is swallowed.
    const every = (ms: number, fn: () => Promise<void>) => {
      const t = setInterval(() => void fn().catch(() => undefined), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.settings.batchMs, () => {
      this.kick();
      return Promise.resolve();
    });
    every(this.settings.latestFlushMs, () => this.flushLatest());
    every(this.settings.rollupFlushMs, () => this.flushRollups());
    every(30_000, () => this.registry.load().catch((err: unknown) => this.log.warn({ err }, 'device registry reload failed')));
  }

  /**
   * Handles one MQTT message; never throws. `receipt.ack` is called exactly once: when what the
   * message carries is committed, or at once when there is nothing to store.
   */
  handle(topic: string, payload: Buffer, retained: boolean, receipt: Receipt = {}): void {
    this.counters.received++;
    const t0 = performance.now();
    let acked = false;
    const given = receipt.ack;
    const ack: Ack = given
      ? () => {
          if (acked) return;
          acked = true;
          given();
        }
      : NO_ACK;
    let kept = false;
    try {
      kept = this.route(topic, payload, retained, ack, receipt.redelivered === true);
    } catch (err) {
      this.invalid(topic, `handler error: ${(err as Error).message}`);
    }
    // Nothing held for a later write: the broker may forget the message now.
    if (!kept) ack();
    this.counters.handleMs += performance.now() - t0;
  }

  /** Returns whether the message is held for a write that will ack it. */
  private route(topic: string, payload: Buffer, retained: boolean, ack: Ack, redelivered: boolean): boolean {
    const parsed = parseDeviceTopic(topic);
    if (!parsed) return this.invalid(topic, 'not a device topic');
    if (parsed.kind === 'command') {
      this.counters.ignored++;
      return false;
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
        if (r.data.ts > MAX_TS || r.data.seq > MAX_INT4) return this.invalid(topic, 'ts or seq out of range');
        if (!known) return this.unknown();
        this.counters.telemetry++;
        return this.telemetry(known, r.data.ts, r.data.seq, r.data.values, ack, redelivered);
      }
      case 'event': {
        const r = eventPayloadSchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid event');
        if (r.data.ts > MAX_TS) return this.invalid(topic, 'ts out of range');
        if (!known) return this.unknown();
        this.counters.events++;
        this.events.push({
          deviceId: known.id, code: r.data.code, active: r.data.active, message: r.data.message, ts: r.data.ts, receivedAt: Date.now(), checked: redelivered,
        });
        this.latestAcks.push(ack);
        for (const rule of this.rules) rule.event(known, r.data.code, r.data.active, r.data.message, r.data.ts);
        return true;
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
          return false;
        }
        this.status(known, r.data.online);
        if (r.data.online && r.data.firmware) for (const rule of this.rules) void rule.statusFirmware?.(known, r.data.firmware);
        this.latestAcks.push(ack);
        return true;
      }
      case 'command/reply': {
        const r = commandReplySchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid reply');
        if (!known) return this.unknown();
        this.counters.replies++;
        this.replies.emit('reply', known, r.data);
        return false;
      }
      case 'ota': {
        const r = otaReportSchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid ota report');
        if (!known) return this.unknown();
        return this.handOver(this.rules.map((rule) => rule.otaReport?.(known, r.data)), ack);
      }
      case 'log': {
        const r = logReportSchema.safeParse(body);
        if (!r.success) return this.invalid(topic, r.error.issues[0]?.message ?? 'invalid log report');
        if (!known) return this.unknown();
        return this.handOver(this.rules.map((rule) => rule.logReport?.(known, r.data)), ack);
      }
      default:
        this.counters.ignored++;
        return false;
    }
  }

  /** A report another module's sink handles: acknowledged once its work settles (none: at once). */
  private handOver(work: (Promise<void> | undefined)[], ack: Ack): boolean {
    const pending = work.filter((w) => w !== undefined);
    if (pending.length === 0) {
      this.counters.ignored++;
      return false;
    }
    void Promise.allSettled(pending).then(() => ack());
    return true;
  }

  private invalid(topic: string, reason: string): false {
    this.counters.invalid++;
    // At most 20 log lines a minute, however bad the stream.
    const now = Date.now();
    if (now - this.invalidLogWindow > 60_000) {
      this.invalidLogWindow = now;
      this.invalidLogged = 0;
    }
    if (this.invalidLogged++ < 20) this.log.warn({ topic, reason }, 'invalid device message dropped');
    return false;
  }

  private unknown(): false {
    this.counters.unknownDevice++;
    this.registry.requestReload();
    return false;
  }

  private state(id: number): LiveState {
    let s = this.live.get(id);
    if (!s) {
      s = { ts: null, seq: null, row: null, text: null, lastSeen: null, lastReport: null, offlineAt: null, intervalMs: null, dirty: false };
      this.live.set(id, s);
    }
    return s;
  }

  private telemetry(device: RegisteredDevice, ts: number, seq: number, values: Record<string, TelemetryValue>, ack: Ack, redelivered: boolean): boolean {
    const st = this.state(device.id);
    if (st.ts === ts && st.seq === seq) {
      // The same report again: its first copy is stored or held, and acknowledged with its batch.
      this.counters.duplicates++;
      if (!redelivered) return false;
      // Delivered again after a reconnect, the first copy's acknowledgement is void: this one is
      // acknowledged once the first is found in the table (or written in its place).
      this.redelivered.push({ device, ts, seq, values: st.row ?? new Float64Array(0), points: 0, ack, tried: false });
      return true;
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
    const report: PendingReport = { device, ts, seq, values: row, points, ack, tried: false };
    if (redelivered) {
      // Checked against the table before it is written (its first copy may have committed).
      this.redelivered.push(report);
      this.redeliveredPoints += points;
    } else {
      this.encoder.add(device.id, ts, seq, row);
      this.reports.push(report);
      this.points += points;
    }

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
    if (this.points >= this.settings.batchPoints || this.reports.length >= MAX_BATCH_REPORTS) this.kick();
    return true;
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

  /** Seals the current batch and writes it (or leaves it to the write in flight to pick up); resolves once all is written. */
  flushBatch(): Promise<void> {
    this.kick();
    return this.drained();
  }

  /** Seals and starts writing, without waiting. */
  private kick(): void {
    this.seal();
    this.pump();
  }

  /**
   * Seals what was received into batches: first the new reports, then the redelivered ones, so
   * every first copy of a redelivered report is in an earlier batch than the copy.
   */
  private seal(): void {
    this.sealReports();
    if (this.redelivered.length > 0) {
      this.retry.push({ data: null, reports: this.redelivered, points: this.redeliveredPoints, attempts: 0, check: 'redelivered' });
      this.redelivered = [];
      this.redeliveredPoints = 0;
    }
  }

  private sealReports(): void {
    if (this.encoder.rows === 0) return;
    this.retry.push({ data: this.encoder.take(), reports: this.reports, points: this.points, attempts: 0, check: null });
    this.reports = [];
    this.points = 0;
  }

  /** A batch of some reports of another (a failing batch split in two). */
  private batchOf(reports: PendingReport[], check: Check | null): Batch {
    let data: Buffer | null = null;
    if (!check) {
      const enc = new CopyEncoder(reports.length * 600 + 64);
      for (const r of reports) enc.add(r.device.id, r.ts, r.seq, r.values);
      data = enc.take();
    }
    return { data, reports, points: reports.reduce((a, r) => a + r.points, 0), attempts: 0, check };
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.retry.length > 0) {
      // A checked batch is checked against the table once every earlier batch has committed (or failed).
      if (this.retry[0]!.check && this.inFlight > 0) break;
      const batch = this.retry.shift()!;
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        // What arrived meanwhile is the next batch, as large as the database's pace made it.
        if (this.points >= this.settings.batchPoints || this.reports.length >= MAX_BATCH_REPORTS) this.sealReports();
        this.pump();
        if (this.inFlight === 0 && this.retry.length === 0) for (const f of this.idle.splice(0)) f();
      });
    }
  }

  private drained(): Promise<void> {
    if (this.inFlight === 0 && this.retry.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Writes one batch. A failure keeps the batch: after a backoff (its slot stays taken, so a
   * database that is down is not hammered) it goes back to the front of the queue, however long
   * the database stays away; its messages stay unacknowledged meanwhile. A failed write may have
   * committed all the same (the connection lost between the commit and its answer), so the batch
   * is retried through the check against the table, as redelivered reports are: what the lost
   * answer's commit stored is acknowledged, not written again.
   */
  private async write(batch: Batch): Promise<void> {
    const t0 = performance.now();
    let stored = batch.reports;
    let points = batch.points;
    try {
      if (batch.check) {
        stored = await this.writeChecked(batch.reports, batch.check);
        points = stored.reduce((a, r) => a + r.points, 0);
      } else {
        for (const r of batch.reports) r.tried = true;
        await this.copy('telemetry', TELEMETRY_COLUMNS, batch.data!);
      }
      this.counters.copyMs += performance.now() - t0;
    } catch (err) {
      this.counters.batchErrors++;
      batch.attempts++;
      if (!batch.check) {
        batch.check = 'retry';
        batch.data = null;
      }
      if (this.abandoned) {
        this.counters.abandonedReports += batch.reports.length;
        return;
      }
      if (!isConnectionError(err) && batch.attempts >= POISON_ATTEMPTS) {
        // The database is there and refuses the batch: the halves go on their own until the one
        // report it refuses is alone, and only that one is dropped (and acknowledged).
        if (batch.reports.length === 1) {
          const r = batch.reports[0]!;
          this.counters.droppedReports++;
          this.log.error({ err, deviceId: r.device.id, ts: r.ts, seq: r.seq }, 'telemetry report refused by the database; dropped');
          r.ack();
          return;
        }
        const half = batch.reports.length >> 1;
        this.retry.unshift(this.batchOf(batch.reports.slice(0, half), batch.check), this.batchOf(batch.reports.slice(half), batch.check));
        return;
      }
      this.telemetryOutage.failed(err, { reports: batch.reports.length, held: this.pendingReports });
      await pause(retryDelayMs(batch.attempts));
      this.retry.unshift(batch);
      return;
    }
    this.telemetryOutage.ok({ held: this.pendingReports });
    const now = Date.now();
    this.counters.batches++;
    this.counters.storedReports += stored.length;
    this.counters.storedPoints += points;
    for (const r of stored) this.latency[Math.max(0, Math.min(MAX_LATENCY_MS, now - r.ts))]!++;
    // Rollups count each stored report once: every report a write of this process tried. One that
    // the check finds stored after a failed write was committed by that write (its answer lost) and
    // never counted; a redelivered one found stored without being tried here was written, and
    // counted, by the process before.
    for (const r of batch.reports) if (r.tried) this.rollups.add(r.device.id, r.device.timeZone, r.ts, r.values);
    for (const r of batch.reports) r.ack();
  }

  /**
   * Reports that may be stored already: those whose (device, ts, seq) the table holds were
   * committed before the crash or reconnect that kept their acknowledgement from the broker
   * (redelivered), or by a write whose answer was lost (retry); the rest are written. Returns the
   * ones written.
   */
  private async writeChecked(reports: PendingReport[], check: Check): Promise<PendingReport[]> {
    const key = (deviceId: number, ts: number, seq: number | null) => `${deviceId}:${ts}:${seq}`;
    const { rows } = await this.database.sql.query<{ device_id: number; ts: Date; seq: number | null }>(
      `select t.device_id, t.ts, t.seq from telemetry t
       join (select distinct * from unnest($1::int4[], $2::timestamptz[]) as k(device_id, ts)) k on t.device_id = k.device_id and t.ts = k.ts
       where t.ts between $3 and $4`, // the reports' time span: only the day partitions it touches are read
      [reports.map((r) => r.device.id), reports.map((r) => new Date(r.ts)), new Date(reports.reduce((a, r) => Math.min(a, r.ts), Infinity)), new Date(reports.reduce((a, r) => Math.max(a, r.ts), -Infinity))],
    );
    const seen = new Set(rows.map((r) => key(r.device_id, new Date(r.ts).getTime(), r.seq)));
    const fresh: PendingReport[] = [];
    for (const r of reports) {
      const k = key(r.device.id, r.ts, r.seq);
      if (seen.has(k)) {
        if (check === 'redelivered') this.counters.redeliveredStored++;
        else this.counters.retriedStored++;
        continue;
      }
      seen.add(k);
      fresh.push(r);
    }
    if (fresh.length > 0) {
      const enc = new CopyEncoder(fresh.length * 600 + 64);
      for (const r of fresh) {
        r.tried = true;
        enc.add(r.device.id, r.ts, r.seq, r.values);
      }
      await this.copy('telemetry', TELEMETRY_COLUMNS, enc.take());
    }
    return fresh;
  }

  /** Upserts the latest values and last-seen of every device that changed, and the new events. */
  flushLatest(): Promise<void> {
    // Each flush runs after the one before, whether that one failed or not (a failed one put back
    // what it took); the chain itself never stays rejected.
    const run = this.latestWrite.then(() => this.writeLatest());
    this.latestWrite = run.catch(() => undefined);
    return run;
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
    const acks = this.latestAcks;
    this.latestAcks = [];
    if (dirty.length === 0 && events.length === 0) {
      for (const a of acks) a();
      return this.flushRules();
    }
    const t0 = performance.now();
    try {
      // One transaction: the values and the events commit together or not at all; a retry checks
      // its events against the table (the commit may have happened and its answer been lost).
      await this.session(async (s) => {
        if (dirty.length) await this.upsertLatest(s, dirty);
        for (let i = 0; i < events.length; i += 1000) await this.insertEvents(s, events.slice(i, i + 1000));
      });
      this.counters.eventsStored += events.length;
      this.counters.latestFlushes++;
      this.counters.latestMs += performance.now() - t0;
    } catch (err) {
      // Put it back: the next flush tries again with whatever is newest by then.
      for (const [, st] of dirty) st.dirty = true;
      if (!isConnectionError(err) && ++this.latestFailures >= POISON_ATTEMPTS && events.length > 0) {
        // Refused for what it holds, not for being away: the events go (acknowledged, logged)
        // so that they cannot hold back every acknowledgement behind them.
        this.counters.droppedEvents += events.length;
        this.log.error({ err, events: events.length }, 'device events refused by the database; dropped');
        this.latestFailures = 0;
        for (const a of acks) a();
      } else {
        for (const e of events) e.checked = true;
        this.events.unshift(...events);
        this.latestAcks.unshift(...acks);
      }
      this.latestOutage.failed(err, { devices: dirty.length, events: events.length });
      throw err;
    }
    this.latestFailures = 0;
    this.latestOutage.ok();
    for (const a of acks) a();
    await this.flushRules();
  }

  /** Fault events; a checked one is skipped when the table, or this flush, has it already. */
  private async insertEvents(s: Session, all: EventRow[]): Promise<void> {
    const key = (e: EventRow) => `${e.deviceId}:${e.code}:${e.ts}:${e.active}`;
    const here = new Set(all.filter((e) => !e.checked).map(key));
    const events = all.filter((e) => {
      if (!e.checked) return true;
      if (here.has(key(e))) return false;
      here.add(key(e));
      return true;
    });
    const params: unknown[] = [];
    const rows = events.map((e) => {
      const b = params.length;
      params.push(e.deviceId, e.code, e.active, e.message, new Date(e.ts), new Date(e.receivedAt), e.checked);
      return `($${b + 1}::int4,$${b + 2},$${b + 3}::boolean,$${b + 4},$${b + 5}::timestamptz,$${b + 6}::timestamptz,$${b + 7}::boolean)`;
    });
    await s.query(
      `insert into device_event (device_id, code, active, message, ts, received_at)
       select v.device_id, v.code, v.active, v.message, v.ts, v.received_at
       from (values ${rows.join(',')}) as v(device_id, code, active, message, ts, received_at, checked)
       where exists (select 1 from device d where d.id = v.device_id)
         and not (v.checked and exists (
           select 1 from device_event e where e.device_id = v.device_id and e.ts = v.ts and e.code = v.code and e.active = v.active))`,
      params,
    );
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
    const run = this.rollupWrite.then(() => this.writeRollups(force));
    this.rollupWrite = run.catch(() => undefined);
    return run;
  }

  private async writeRollups(force: boolean): Promise<void> {
    const taken = this.rollups.take(Date.now(), force);
    const t0 = performance.now();
    const granularities = Object.keys(taken) as Granularity[];
    for (const [i, g] of granularities.entries()) {
      try {
        if (taken[g].length) await this.session((s) => writeAggregates(s, ROLLUP_TABLES[g], taken[g]));
        this.counters.rollupRows += taken[g].length;
      } catch (err) {
        // This granularity's aggregates and those of the ones not yet tried go back for the next flush.
        for (const rest of granularities.slice(i)) this.rollups.retry(taken[rest]);
        this.rollupOutage.failed(err);
        throw err;
      }
    }
    this.rollupOutage.ok();
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
    return this.reports.length + this.redelivered.length + this.retry.reduce((a, b) => a + b.reports.length, 0);
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

  /**
   * Stops the timers and writes what is held. A database still away after `waitMs` leaves it
   * unwritten and unacknowledged (an external broker delivers it again to the next session).
   */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    const flushed = await Promise.race([
      this.flush().then(
        () => true,
        () => false,
      ),
      pause(waitMs).then(() => false),
    ]);
    if (!flushed) {
      this.abandoned = true;
      this.log.warn({ reports: this.pendingReports, events: this.events.length }, 'ingest stopped with data not stored: left unacknowledged');
    }
    for (const r of this.rules) await r.stop();
  }
}
