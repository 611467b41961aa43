import { eq, sql } from 'drizzle-orm';
import { iotConfig, iotDevice, iotProduct, iotUnmapped } from '../../../db/schema/iot.ts';
import type { AppContext } from '../../../platform/context.ts';
import { isConnectionError, OutageLog, writeThroughOutage } from '../../../platform/db/outage.ts';
import { perApp } from '../../../platform/module.ts';
import { ingestOf } from '../../telemetry/index.ts';
import { sessionOf } from '../config.service.ts';
import { loadLiveDevices, type LiveDevice } from './mapping.ts';
import { ConfigSubscriber, type LiveOutput } from './subscriber.ts';

/**
 * The live streams of this instance (decision 0051): one subscriber per enabled IoT application
 * with devices bound to console devices, on the instance with the ingest role (the telemetry
 * module's ingest takes what they map, as from MQTT devices). Reconciled at start, every 30 s,
 * and at once when an application, a sync or a relation changes (nudgeLive).
 */
const RECONCILE_MS = 30_000;
const UNMAPPED_FLUSH_MS = 5000;
const SAMPLES = 5;
const DEVICES = 20;
/** How long a device's connectivity is held through a database outage before it is given up (the next change writes it again). */
const STATE_WITHIN_MS = 120_000;

interface Seen {
  companyId: number;
  configId: number;
  iotProductId: number;
  key: string;
  samples: string[];
  devices: { externalId: string; name: string }[];
  count: number;
  first: number;
  last: number;
}

/** A device sending the key, once each, up to DEVICES. */
function addDevice(s: Seen, d: Seen['devices'][number]): void {
  if (!s.devices.some((x) => x.externalId === d.externalId) && s.devices.length < DEVICES) s.devices.push(d);
}

export class LiveManager {
  readonly subscribers = new Map<number, { sub: ConfigSubscriber; updatedAt: number; companyId: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private seen = new Map<string, Seen>();
  private stopped = false;
  /** The last write of each platform device's connectivity (they go in order, each through an outage). */
  private readonly states = new Map<number, Promise<void>>();
  private readonly outage: OutageLog;

  constructor(private readonly ctx: AppContext) {
    this.outage = new OutageLog(ctx.log, 'iot unmapped keys flush');
  }

  start(): Promise<void> {
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_MS);
    this.timer.unref();
    this.flushTimer = setInterval(() => void this.flushUnmapped(), UNMAPPED_FLUSH_MS);
    this.flushTimer.unref();
    return this.reconcile();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.chain;
    await Promise.all([...this.subscribers.values()].map((s) => s.sub.stop()));
    this.subscribers.clear();
    await Promise.all(this.states.values());
    await this.flushUnmapped();
  }

  /** Brings the subscribers in line with the stored applications and relations (one run at a time). */
  reconcile(): Promise<void> {
    this.chain = this.chain.then(() => this.doReconcile()).catch((err: unknown) => this.ctx.log.warn({ err }, 'iot live reconcile failed'));
    return this.chain;
  }

  private async doReconcile(): Promise<void> {
    if (this.stopped) return;
    const { db } = this.ctx;
    const configs = await db.select({ id: iotConfig.id, companyId: iotConfig.companyId, enabled: iotConfig.enabled, updatedAt: iotConfig.updatedAt }).from(iotConfig);
    const wanted = new Set<number>();
    for (const c of configs) {
      if (!c.enabled) continue;
      const products = await db.select({ id: iotProduct.id, externalId: iotProduct.externalId }).from(iotProduct).where(eq(iotProduct.configId, c.id));
      const devices = await loadLiveDevices(db, c.id, new Map(products.map((p) => [p.id, p.externalId])));
      if (devices.length === 0) continue;
      wanted.add(c.id);
      let s = this.subscribers.get(c.id);
      if (s && s.updatedAt !== c.updatedAt.getTime()) {
        // Address, user or password changed: a new sign-in.
        s.updatedAt = c.updatedAt.getTime();
        s.sub.reopen();
      }
      if (!s) {
        s = { sub: this.subscriber(c.id), updatedAt: c.updatedAt.getTime(), companyId: c.companyId };
        this.subscribers.set(c.id, s);
        s.sub.setDevices(devices);
        s.sub.start();
      } else s.sub.setDevices(devices);
    }
    for (const [id, s] of this.subscribers) {
      if (wanted.has(id)) continue;
      this.subscribers.delete(id);
      await s.sub.stop();
    }
  }

  private subscriber(configId: number): ConfigSubscriber {
    const ctx = this.ctx;
    const out: LiveOutput = {
      publish: (topic, payload) => ingestOf(ctx)?.handle(topic, Buffer.from(JSON.stringify(payload)), false),
      unmapped: (d, key, value, ts) => this.noteUnmapped(configId, d, key, value, ts),
      connectivity: (d, online) => this.writeState(configId, d.iotDeviceId, online ? 'online' : 'offline'),
    };
    const open = async () => {
      const [c] = await ctx.db.select().from(iotConfig).where(eq(iotConfig.id, configId));
      if (!c) throw new Error('application deleted');
      return sessionOf(ctx, c);
    };
    return new ConfigSubscriber(configId, open, out, ctx.log.child({ part: 'iot-live' }));
  }

  /** A platform device's connectivity, written after the device's earlier one, held through a database outage. */
  private writeState(configId: number, iotDeviceId: number, state: 'online' | 'offline'): void {
    const write = () => writeThroughOutage(() => this.ctx.db.update(iotDevice).set({ state }).where(eq(iotDevice.id, iotDeviceId)), STATE_WITHIN_MS, () => this.stopped);
    const next = (this.states.get(iotDeviceId) ?? Promise.resolve())
      .then(write)
      .then(() => undefined, (err: unknown) => this.ctx.log.warn({ err, configId }, 'iot device state not written'));
    this.states.set(iotDeviceId, next);
    void next.then(() => {
      if (this.states.get(iotDeviceId) === next) this.states.delete(iotDeviceId);
    });
  }

  private noteUnmapped(configId: number, d: LiveDevice, key: string, value: unknown, ts: number): void {
    const companyId = this.subscribers.get(configId)?.companyId;
    if (companyId === undefined || key.length > 128) return;
    const id = `${configId}|${d.iotProductId}|${key}`;
    let s = this.seen.get(id);
    if (!s) {
      s = { companyId, configId, iotProductId: d.iotProductId, key, samples: [], devices: [], count: 0, first: ts, last: ts };
      this.seen.set(id, s);
    }
    s.count++;
    s.first = Math.min(s.first, ts);
    s.last = Math.max(s.last, ts);
    const sample = (typeof value === 'string' ? value : JSON.stringify(value) ?? 'null').slice(0, 64);
    s.samples = [sample, ...s.samples.filter((x) => x !== sample)].slice(0, SAMPLES);
    addDevice(s, { externalId: d.externalId, name: d.name });
  }

  /** Writes the keys seen since the last flush (counts added, samples and devices merged). */
  async flushUnmapped(): Promise<void> {
    if (this.seen.size === 0) return;
    const rows = [...this.seen.values()];
    this.seen = new Map();
    try {
      await this.ctx.db
        .insert(iotUnmapped)
        .values(rows.map((r) => ({
          companyId: r.companyId, configId: r.configId, iotProductId: r.iotProductId, key: r.key, samples: r.samples, devices: r.devices, count: r.count,
          firstSeenAt: new Date(r.first), lastSeenAt: new Date(r.last),
        })))
        .onConflictDoUpdate({
          target: [iotUnmapped.configId, iotUnmapped.iotProductId, iotUnmapped.key],
          set: {
            count: sql`${iotUnmapped.count} + excluded.count`,
            lastSeenAt: sql`greatest(${iotUnmapped.lastSeenAt}, excluded.last_seen_at)`,
            firstSeenAt: sql`least(${iotUnmapped.firstSeenAt}, excluded.first_seen_at)`,
            samples: sql`excluded.samples`,
            devices: sql`(select coalesce(jsonb_agg(x), '[]'::jsonb) from (select distinct x from jsonb_array_elements(${iotUnmapped.devices} || excluded.devices) x limit ${DEVICES}) s)`,
          },
        });
    } catch (err) {
      if (isConnectionError(err) && !this.stopped) {
        // The database is away: kept, with what comes meanwhile, for the next flush.
        for (const r of rows) this.keep(r);
        this.outage.failed(err, { keys: this.seen.size });
        return;
      }
      // A product deleted by a sync meanwhile (its foreign key): the keys seen go with it.
      this.ctx.log.warn({ err }, 'iot unmapped keys not written');
      return;
    }
    this.outage.ok({ keys: rows.length });
  }

  /** Puts back a key a flush could not write, merged with what was seen of it since. */
  private keep(r: Seen): void {
    const id = `${r.configId}|${r.iotProductId}|${r.key}`;
    const now = this.seen.get(id);
    if (!now) {
      this.seen.set(id, r);
      return;
    }
    now.count += r.count;
    now.first = Math.min(now.first, r.first);
    now.last = Math.max(now.last, r.last);
    now.samples = [...new Set([...now.samples, ...r.samples])].slice(0, SAMPLES);
    for (const d of r.devices) addDevice(now, d);
  }
}

const managers = perApp<LiveManager>('iot live streams');

/** The iot module's start: the live streams where this instance ingests. */
export async function startLive(ctx: AppContext): Promise<void> {
  if (!ctx.config.roles.has('ingest')) return;
  const m = new LiveManager(ctx);
  managers.set(ctx, m);
  await m.start();
}

export async function stopLive(ctx: AppContext): Promise<void> {
  await managers.get(ctx)?.stop();
  managers.delete(ctx);
}

/** After a change of an application, a sync or a relation: the streams follow at once (no-op without the ingest role). */
export function nudgeLive(ctx: AppContext): Promise<void> {
  return managers.get(ctx)?.reconcile() ?? Promise.resolve();
}

/** The live streams of this instance (tests, diagnostics). */
export const liveOf = (ctx: AppContext): LiveManager | undefined => managers.get(ctx);
