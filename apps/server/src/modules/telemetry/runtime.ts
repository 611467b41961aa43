import { hostname } from 'node:os';
import type { AppContext } from '../../platform/context.ts';
import { perApp } from '../../platform/module.ts';
import { startConsumer, type Consumer } from '../../platform/mqtt/consumer.ts';
import { Ingest, type IngestRules } from './ingest.ts';
import { DeviceRegistry } from './registry.ts';

/** The ingest pipeline of one server instance with the ingest role. */
export interface TelemetryRuntime {
  ingest: Ingest;
  close(): Promise<void>;
}

/**
 * All topics of all stations (contract SERVER_SUBSCRIPTIONS in one filter): telemetry, events,
 * statuses and command replies; our own commands on it are ignored.
 */
const ALL_DEVICE_TOPICS = 'ess/+/+/#';

/**
 * The ingest, subscribed to every device topic: inside the embedded broker (same process, no
 * network hop), or on an external broker as a persistent QoS 1 session through the shared
 * subscription `$share/<group>/…`, so several ingest instances split the stream. Either way a
 * message is acknowledged to the broker once the ingest has committed it (docs/decisions/0025).
 * The rule sinks (the alarm engine, …) are those the modules added before the telemetry module
 * started.
 */
export async function startTelemetry(ctx: AppContext, registry: DeviceRegistry, rules: readonly IngestRules[]): Promise<TelemetryRuntime> {
  const { config, database, log, mqtt } = ctx;
  const ingest = new Ingest(
    database,
    registry,
    {
      batchPoints: config.ingestBatchPoints, batchMs: config.ingestBatchMs, latestFlushMs: config.latestFlushMs,
      rollupFlushMs: config.rollupFlushMs, rollupSnapshotMs: config.rollupSnapshotMs,
    },
    log.child({ part: 'ingest' }),
    rules,
  );
  let consumer: Consumer | null = null;
  try {
    await ingest.start();
    if (mqtt.embedded) {
      // The embedded broker lives and dies with this process: subscribe inside it.
      await mqtt.embedded.subscribe(ALL_DEVICE_TOPICS, (t, payload, ack) => ingest.handle(t, payload, false, { ack }));
    } else {
      consumer = await startConsumer({
        url: mqtt.url,
        clientId: config.mqttClientId ?? `ess-ingest-${hostname()}`.slice(0, 64),
        topics: [`$share/${config.mqttShareGroup}/${ALL_DEVICE_TOPICS}`],
        username: config.mqttUsername,
        password: config.mqttPassword,
        receiveMaximum: config.mqttReceiveMaximum,
        log,
        onMessage: (d) => ingest.handle(d.topic, d.payload, d.retained, { ack: d.ack, redelivered: d.redelivered }),
      });
    }
  } catch (err) {
    await ingest.stop().catch(() => undefined);
    throw err;
  }
  log.info({ broker: mqtt.url }, 'telemetry ingest started');
  return {
    ingest,
    close: async () => {
      // Stop taking messages, write what is held (its acknowledgements still go out), then
      // disconnect: what arrived after the pause is delivered again to the next session.
      consumer?.pause();
      await ingest.stop();
      await consumer?.close();
    },
  };
}

const runtimes = perApp<TelemetryRuntime>('telemetry ingest');
const registries = perApp<DeviceRegistry>('device registry');
const sinks = perApp<IngestRules[]>('ingest rule sinks');

/** The device registry the ingest and the rule sinks share (made on first use). */
export function deviceRegistryOf(ctx: AppContext): DeviceRegistry {
  let r = registries.get(ctx);
  if (!r) {
    r = new DeviceRegistry(ctx.db);
    registries.set(ctx, r);
  }
  return r;
}

/** Adds a rule sink to the ingest; modules add theirs in their `start`, before the telemetry module's. */
export function addIngestRules(ctx: AppContext, rules: IngestRules): void {
  if (runtimes.get(ctx)) throw new Error('ingest rules must be added before the telemetry module starts (module list order)');
  sinks.set(ctx, [...(sinks.get(ctx) ?? []), rules]);
}

/** The running ingest of this instance, or null without the ingest role. */
export const ingestOf = (ctx: AppContext): Ingest | null => runtimes.get(ctx)?.ingest ?? null;

/** Starts the ingest with the ingest role (the telemetry module's `start`). */
export async function startIngestRole(ctx: AppContext): Promise<void> {
  if (!ctx.config.roles.has('ingest')) return;
  runtimes.set(ctx, await startTelemetry(ctx, deviceRegistryOf(ctx), sinks.get(ctx) ?? []));
}

export async function stopIngestRole(ctx: AppContext): Promise<void> {
  await runtimes.get(ctx)?.close();
  runtimes.delete(ctx);
}
