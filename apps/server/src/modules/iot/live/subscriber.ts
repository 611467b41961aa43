import { deviceTopic, type TelemetryValue } from '@ess/contract';
import type { Logger } from '../../../platform/logging.ts';
import type { LiveSink, LiveStream, PlatformSession } from '../adapters/index.ts';
import { mapEvent, mapValue, type LiveDevice } from './mapping.ts';

/** Where the subscriber hands what it mapped: the ingest (as an MQTT device's message) and the inbox. */
export interface LiveOutput {
  /** One message on a device topic, as the ingest takes it from MQTT. */
  publish(topic: string, payload: unknown): void;
  /** A key no relation maps. */
  unmapped(device: LiveDevice, key: string, value: unknown, ts: number): void;
  /** The platform's connectivity of a device (kept on the synced platform device). */
  connectivity(device: LiveDevice, online: boolean): void;
}

export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;
/** Points of one device arriving within this window are one report (a platform may send keys one by one). */
const MERGE_MS = 100;

/**
 * The live stream of one IoT application (decision 0051): signs in, subscribes for every bound
 * device, maps what arrives through the relations and hands it to the ingest; when the socket
 * closes or cannot open it tries again after 1 s, doubling to 60 s (back to 1 s once a stream
 * stayed up a minute). The mapping is swapped in place when relations change; a different device
 * set reopens the stream. Never logs the session or its address (they carry the token).
 */
export class ConfigSubscriber {
  private devices = new Map<string, LiveDevice>();
  private stream: LiveStream | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  /** The newest ts taken of each device and key: a replay after a reconnect is not stored twice. */
  private readonly lastTs = new Map<string, number>();
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; points: { key: string; ts: number; value: unknown }[] }>();
  private seq = Math.floor(Date.now() / 1000) % 1_000_000_000;
  /** Connection attempts and drops, for tests and the logs. */
  readonly stats = { connects: 0, failures: 0, lastError: null as string | null, connected: false };

  constructor(
    readonly configId: number,
    private readonly open: () => Promise<PlatformSession>,
    private readonly out: LiveOutput,
    private readonly log: Logger,
  ) {}

  /** Sets the mapped devices; reopens the stream when the set of devices changed. */
  setDevices(devices: LiveDevice[]): void {
    const before = [...this.devices.keys()].sort().join('|');
    this.devices = new Map(devices.map((d) => [d.externalId, d]));
    if ([...this.devices.keys()].sort().join('|') !== before) this.reopen();
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Closes the stream now (the loop opens it again at once). */
  reopen(): void {
    this.stream?.close();
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stream?.close();
    this.wake?.();
    await this.loop;
    for (const [device, p] of this.pending) {
      clearTimeout(p.timer);
      this.emit(device);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    let delay = BACKOFF_MIN_MS;
    while (!this.stopped) {
      const targets = [...this.devices.values()].map((d) => ({ externalId: d.externalId, productExternalId: d.productExternalId }));
      let why: string;
      const opened = Date.now();
      try {
        const session = await this.open();
        if (this.stopped) break;
        this.stream = await session.subscribe(targets, this.sink());
        this.stats.connects++;
        this.stats.connected = true;
        this.log.info({ configId: this.configId, devices: targets.length }, 'iot live stream open');
        if (this.stopped) this.stream.close();
        why = await this.stream.closed;
        this.stats.connected = false;
      } catch (err) {
        why = (err as Error).message;
      }
      this.stream = null;
      if (this.stopped) break;
      if (why === 'stopped') {
        // Reopened on purpose (new device set): at once.
        delay = BACKOFF_MIN_MS;
        continue;
      }
      this.stats.failures++;
      this.stats.lastError = why;
      if (Date.now() - opened > 60_000) delay = BACKOFF_MIN_MS;
      this.log.warn({ configId: this.configId, reason: why, retryMs: delay }, 'iot live stream down');
      await this.sleep(delay);
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  private sink(): LiveSink {
    return {
      telemetry: (externalId, points) => {
        if (!this.devices.has(externalId)) return;
        let p = this.pending.get(externalId);
        if (!p) {
          p = { timer: setTimeout(() => this.emit(externalId), MERGE_MS), points: [] };
          this.pending.set(externalId, p);
        }
        p.points.push(...points);
      },
      event: (externalId, eventId, ts, data) => {
        const d = this.devices.get(externalId);
        if (!d) return;
        const rule = d.events.get(eventId);
        if (!rule) return;
        this.out.publish(deviceTopic(d.siteCode, d.deviceCode, 'event'), { ts: safeTs(ts), ...mapEvent(rule, data) });
      },
      connectivity: (externalId, online) => {
        const d = this.devices.get(externalId);
        if (!d) return;
        // The platform's word on connectivity, now (its ts is when the platform noticed).
        this.out.publish(deviceTopic(d.siteCode, d.deviceCode, 'status'), { ts: Date.now(), online });
        this.out.connectivity(d, online);
      },
    };
  }

  /** The device's merged points as reports (one per ts), through its relations. */
  private emit(externalId: string): void {
    const p = this.pending.get(externalId);
    this.pending.delete(externalId);
    const d = this.devices.get(externalId);
    if (!p || !d) return;
    const byTs = new Map<number, Record<string, TelemetryValue>>();
    for (const { key, ts, value } of p.points) {
      const t = safeTs(ts);
      const seenKey = `${externalId}\u0000${key}`;
      if ((this.lastTs.get(seenKey) ?? -1) >= t) continue;
      this.lastTs.set(seenKey, t);
      const rule = d.properties.get(key);
      if (!rule) {
        this.out.unmapped(d, key, value, t);
        continue;
      }
      const v = mapValue(rule, value);
      if (v === null) continue;
      const values = byTs.get(t) ?? {};
      values[rule.identifier] = v;
      byTs.set(t, values);
    }
    for (const [ts, values] of [...byTs].sort((a, b) => a[0] - b[0])) {
      this.seq = (this.seq + 1) % 2_000_000_000;
      this.out.publish(deviceTopic(d.siteCode, d.deviceCode, 'telemetry'), { ts, seq: this.seq, values });
    }
  }
}

/** A platform timestamp the contract takes (ms, non-negative integer); now when it is not one. */
function safeTs(ts: number): number {
  return Number.isInteger(ts) && ts >= 0 && ts < 8_640_000_000_000_000 ? ts : Date.now();
}
