/**
 * What the ingest's broker, crash and outage tests share: a station under codes of its own, a
 * Mosquitto run with the shipped example configuration (docs/mosquitto.conf), a TCP proxy that
 * plays a database outage for one test's connections only, and a publisher that counts what the
 * broker acknowledged.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect as netConnect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { demoFleet, type Fleet } from '@ess/simulator';
import type { SqlExecutor } from '../src/platform/db/database.ts';

/**
 * One station under codes of its own, so that concurrent runs sharing a broker never see each
 * other's devices (they arrive as unknown codes and are dropped).
 */
export function isolatedFleet(tag: string): Fleet {
  const base = demoFleet().stations[0]!;
  const rename = (c: string) => c.replace(/^SH01/, tag);
  return {
    seed: 1,
    stations: [
      {
        ...base,
        code: tag,
        name: `test ${tag}`,
        cabinets: base.cabinets.map((c) => ({ ...c, code: rename(c.code) })),
        devices: base.devices.map((d) => ({
          ...d, code: rename(d.code), parentCode: d.parentCode ? rename(d.parentCode) : null, ...(d.cabinetCode ? { cabinetCode: rename(d.cabinetCode) } : {}),
        })),
      },
    ],
  };
}

export const until = async (what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

export const MOSQUITTO_BIN = process.env.MOSQUITTO_BIN ?? '/usr/sbin/mosquitto';
export const hasMosquittoBinary = existsSync(MOSQUITTO_BIN);
const EXAMPLE_CONF = resolve(import.meta.dirname, '../../../docs/mosquitto.conf');

export interface TestMosquitto {
  url: string;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the test's own on a free loopback port, configured by docs/mosquitto.conf with
 * only the listener, the persistence directory and the credentials replaced.
 */
export async function startMosquitto(): Promise<TestMosquitto> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ess-mosquitto-'));
  const conf = readFileSync(EXAMPLE_CONF, 'utf8')
    .split('\n')
    .filter((l) => !/^password_file\b/.test(l))
    .map((l) => {
      if (/^listener\b/.test(l)) return `listener ${port} 127.0.0.1`;
      if (/^allow_anonymous\b/.test(l)) return 'allow_anonymous true';
      if (/^persistence_location\b/.test(l)) return `persistence_location ${dir}/`;
      return l;
    })
    .join('\n');
  const file = join(dir, 'mosquitto.conf');
  writeFileSync(file, conf);
  const child = spawn(MOSQUITTO_BIN, ['-c', file], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await until('mosquitto listening', () => portAnswers(port), 10_000);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface TcpProxy {
  port: number;
  /** The database URL with host and port replaced by the proxy's. */
  via(url: string): string;
  /** The outage: every connection through the proxy is dropped and new ones are refused. */
  cut(): Promise<void>;
  /** The database is back: connections are accepted (and forwarded) again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy to host:port for one test: cutting it looks to the application like its database
 * restarting (connections reset, then refused), while the shared server and everyone else's
 * connections to it go on.
 */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const listenPort = await freePort();
  const pairs = new Set<Socket>();
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const srv = createServer((client) => {
        const upstream = netConnect({ host, port });
        pairs.add(client);
        pairs.add(upstream);
        const end = () => {
          client.destroy();
          upstream.destroy();
          pairs.delete(client);
          pairs.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      srv.once('error', reject);
      srv.listen(listenPort, '127.0.0.1', () => {
        server = srv;
        resolve();
      });
    });
  const cut = async () => {
    const srv = server;
    server = null;
    const closed = srv ? new Promise<void>((r) => srv.close(() => r())) : Promise.resolve();
    for (const s of pairs) s.destroy();
    pairs.clear();
    await closed;
  };
  await listen();
  return {
    port: listenPort,
    via: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(listenPort);
      return u.toString();
    },
    cut,
    restore: listen,
    close: cut,
  };
}

export interface PublishedReport {
  device: string;
  seq: number;
  ts: number;
}

/**
 * Publishes telemetry with QoS 1 round the given devices at about `perSecond` reports a second
 * and counts those the broker acknowledged (`published`): what a device would take as delivered.
 */
export class ReportPublisher {
  published = 0;
  failed = 0;
  private seq = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** The newest report published to each device. */
  readonly newest = new Map<string, PublishedReport>();

  private constructor(
    private readonly client: MqttClient,
    private readonly siteCode: string,
    private readonly devices: string[],
  ) {}

  static async connect(url: string, siteCode: string, devices: string[], clientId: string): Promise<ReportPublisher> {
    const client = await connectAsync(url, { clientId, clean: true, reconnectPeriod: 500 });
    return new ReportPublisher(client, siteCode, devices);
  }

  start(perSecond: number): void {
    const perTick = Math.max(1, Math.round(perSecond / 100));
    this.timer = setInterval(() => {
      for (let i = 0; i < perTick; i++) this.publishOne();
    }, 10);
  }

  private publishOne(): void {
    const device = this.devices[this.next++ % this.devices.length]!;
    const seq = (this.seq.get(device) ?? 0) + 1;
    this.seq.set(device, seq);
    const ts = Date.now();
    this.newest.set(device, { device, seq, ts });
    const p = this.client
      .publishAsync(`ess/${this.siteCode}/${device}/telemetry`, JSON.stringify({ ts, seq, values: { soc: 50 + (seq % 10) } }), { qos: 1 })
      .then(
        () => {
          this.published++;
        },
        () => {
          this.failed++;
        },
      )
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Publishes one message (an event, a status) with QoS 1 and waits for the broker's acknowledgement. */
  async send(topic: string, body: unknown): Promise<void> {
    await this.client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
  }

  get sent(): number {
    let n = 0;
    for (const v of this.seq.values()) n += v;
    return n;
  }

  /** Stops publishing and waits (up to `timeoutMs`) until the broker acknowledged everything sent. */
  async stop(timeoutMs = 60_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await until('every publish acknowledged', () => this.inFlight.size === 0, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.client.endAsync(true);
  }
}

/** Rows stored for the station's devices, and distinct (device, seq) among them. */
export async function storedReports(sql: SqlExecutor, siteCode: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await sql.query<{ rows: number; distinct: number }>(
    `select count(*)::int as rows, count(distinct (t.device_id, t.seq))::int as distinct
     from telemetry t join device d on d.id = t.device_id join site s on s.id = d.site_id where s.code = $1`,
    [siteCode],
  );
  return rows[0]!;
}
