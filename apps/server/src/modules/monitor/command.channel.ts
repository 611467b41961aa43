import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { connect, type MqttClient } from 'mqtt';
import {
  MQTT_QOS, SERVER_SUBSCRIPTIONS, commandReplySchema, deviceTopic, parseDeviceTopic, type CommandReply, type DeviceCommandName, type DeviceCommandPayload,
} from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { Logger } from '../../platform/logging.ts';

/** Marks an error thrown before the command was handed to the broker: it certainly did not reach the device. */
function notSent(err: unknown): Error {
  return Object.assign(err instanceof Error ? err : new Error(String(err)), { commandNotSent: true });
}

/** Whether `send` failed before the command was handed to the broker (no connection): it never reached the device. */
export function commandNotSent(err: unknown): boolean {
  return (err as { commandNotSent?: unknown } | null)?.commandNotSent === true;
}

export type CommandOutcome =
  | { kind: 'reply'; reply: CommandReply; durationMs: number }
  | { kind: 'timeout'; durationMs: number };

interface Pending {
  siteCode: string;
  deviceCode: string;
  resolve: (o: CommandOutcome) => void;
  startedAt: number;
  timer: NodeJS.Timeout;
}

/**
 * Commands to devices and their replies, for one server instance. The instance keeps its own
 * MQTT connection (clean session, random client id) that publishes `ess/{site}/{device}/command`
 * and subscribes to `ess/+/+/command/reply` without `$share`: every API instance sees every
 * reply and keeps those whose requestId it is waiting for, so a reply always reaches the
 * instance that sent the command, however many instances share the broker (the ingest's shared
 * subscription, which splits the stream between instances, only counts replies). Replies are
 * few — one per operator action — so the fan-out costs nothing. Connected on first use.
 */
export class CommandChannel {
  private client: MqttClient | null = null;
  private connecting: Promise<MqttClient> | null = null;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** When the connection to the broker was last lost (0: never). */
  private lostAt = 0;

  constructor(private readonly url: string, private readonly log: Logger, private readonly auth: { username?: string; password?: string } = {}) {}

  private async connection(): Promise<MqttClient> {
    if (this.client?.connected) return this.client;
    if (this.connecting) return this.connecting;
    this.connecting = this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<MqttClient> {
    if (this.client) {
      // Reconnecting on its own: wait for it (bounded), else report the broker unreachable.
      const c = this.client;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('MQTT broker not reachable')), 3000);
        c.once('connect', () => {
          clearTimeout(t);
          resolve();
        });
      });
      return c;
    }
    const client = connect(this.url, {
      clientId: `ess-cmd-${hostname()}-${randomUUID().slice(0, 8)}`.slice(0, 64),
      clean: true,
      protocolVersion: 4,
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      keepalive: 30,
      resubscribe: true,
      ...(this.auth.username ? { username: this.auth.username } : {}),
      ...(this.auth.password ? { password: this.auth.password } : {}),
    });
    client.on('error', (err) => this.log.warn({ err: err.message }, 'mqtt command client error'));
    client.on('message', (topic, payload) => this.onReply(topic, payload));
    client.on('close', () => {
      this.lostAt = Date.now();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`MQTT broker ${this.url} did not answer within 5 s`)), 5000);
        client.once('connect', () => {
          clearTimeout(t);
          resolve();
        });
      });
      await client.subscribeAsync(SERVER_SUBSCRIPTIONS.commandReply, { qos: MQTT_QOS });
    } catch (err) {
      await client.endAsync(true);
      throw err;
    }
    this.client = client;
    return client;
  }

  private onReply(topic: string, payload: Buffer): void {
    const parsed = parseDeviceTopic(topic);
    if (parsed?.kind !== 'command/reply') return;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const r = commandReplySchema.safeParse(body);
    if (!r.success) return;
    const p = this.pending.get(r.data.requestId);
    // Another instance's command, or a reply from a device it was not sent to: not ours.
    if (!p || p.deviceCode !== parsed.deviceCode || p.siteCode !== parsed.siteCode) return;
    this.pending.delete(r.data.requestId);
    clearTimeout(p.timer);
    p.resolve({ kind: 'reply', reply: r.data, durationMs: Date.now() - p.startedAt });
  }

  /**
   * Publishes a command and waits for the device's reply, or `timeoutMs`. Throws when the broker is
   * unreachable. `requestId` (default: a new one) repeats an earlier command: a device that had it
   * answers as the first time and does not run it again (docs/mqtt.md).
   */
  async send(
    siteCode: string,
    deviceCode: string,
    command: DeviceCommandName,
    params: DeviceCommandPayload['params'],
    timeoutMs: number,
    requestId: string = randomUUID(),
  ): Promise<{ requestId: string; outcome: CommandOutcome }> {
    if (this.closed) throw notSent(new Error('command channel closed'));
    let client: MqttClient;
    try {
      client = await this.connection();
    } catch (err) {
      throw notSent(err);
    }
    const startedAt = Date.now();
    const outcome = new Promise<CommandOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve({ kind: 'timeout', durationMs: Date.now() - startedAt });
      }, timeoutMs);
      this.pending.set(requestId, { siteCode, deviceCode, resolve, startedAt, timer });
    });
    const payload = { requestId, command, params, ts: startedAt };
    try {
      await client.publishAsync(deviceTopic(siteCode, deviceCode, 'command'), JSON.stringify(payload), { qos: MQTT_QOS });
    } catch (err) {
      const p = this.pending.get(requestId);
      if (p) clearTimeout(p.timer);
      this.pending.delete(requestId);
      throw err;
    }
    return { requestId, outcome: await outcome };
  }

  /**
   * Whether the connection to the broker was lost since `sinceMs` (or is down now): a command sent
   * then that timed out may never have reached the device, or its reply may have been lost.
   */
  interruptedSince(sinceMs: number): boolean {
    return this.lostAt >= sinceMs || !this.client?.connected;
  }

  /** Whether the connection to the broker is up now. */
  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** Closed at the instance's stop: nothing is sent any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ kind: 'timeout', durationMs: Date.now() - p.startedAt });
      this.pending.delete(id);
    }
    const c = this.client;
    this.client = null;
    if (c) await c.endAsync(true);
  }
}

const channels = new WeakMap<AppContext, CommandChannel>();

/** The instance's command channel (created on first use), or null when no broker is configured. */
export function commandChannel(ctx: AppContext): CommandChannel | null {
  let ch = channels.get(ctx);
  if (!ch) {
    if (!ctx.mqtt.url) return null;
    ch = new CommandChannel(ctx.mqtt.url, ctx.log.child({ part: 'commands' }), {
      username: ctx.config.mqttUsername, password: ctx.config.mqttPassword,
    });
    channels.set(ctx, ch);
  }
  return ch;
}

/** Closes the instance's command channel at shutdown (app.ts). */
export async function closeCommandChannel(ctx: AppContext): Promise<void> {
  const ch = channels.get(ctx);
  channels.delete(ctx);
  await ch?.close();
}
