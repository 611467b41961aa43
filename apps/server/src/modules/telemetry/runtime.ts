import { hostname } from 'node:os';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import type { EventBus } from '../../platform/events/bus.ts';
import type { Logger } from '../../platform/logging.ts';
import type { SseHub } from '../../platform/sse/hub.ts';
import { AlarmEngine } from '../alarm/alarm.engine.ts';
import { alarmNotifier } from '../alarm/alarm.live.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../platform/mqtt/broker.ts';
import { startConsumer, type Consumer } from '../../platform/mqtt/consumer.ts';
import { Ingest } from './ingest.ts';
import { DeviceRegistry } from './registry.ts';

/** The device side of one server instance: the broker it uses and, with the ingest role, the pipeline. */
export interface TelemetryRuntime {
  /** The broker devices and the simulator publish to (embedded, or MQTT_URL). */
  brokerUrl: string;
  embedded: boolean;
  ingest: Ingest | null;
  /** With the ingest role: the alarm rules evaluated on the stream. */
  alarms: AlarmEngine | null;
  close(): Promise<void>;
}

/**
 * All topics of all stations (contract SERVER_SUBSCRIPTIONS in one filter): telemetry, events,
 * statuses and command replies; our own commands on it are ignored.
 */
const ALL_DEVICE_TOPICS = 'ess/+/+/#';

/**
 * Starts the embedded broker when MQTT_URL is unset, and with the ingest role the pipeline
 * subscribed to every device topic: inside the embedded broker (same process, no network hop),
 * or on an external broker as a persistent QoS 1 session through the shared subscription
 * `$share/<group>/…`, so several ingest instances split the stream.
 */
export async function startTelemetry(config: Config, database: Database, log: Logger, live: { bus: EventBus; sse: SseHub }): Promise<TelemetryRuntime> {
  const ingestRole = config.roles.has('ingest');
  let broker: EmbeddedBroker | null = null;
  if (!config.mqttUrl && ingestRole) {
    broker = await startEmbeddedBroker(config.mqttPort, config.host);
    log.info({ url: broker.url }, 'embedded MQTT broker started');
  }
  const brokerUrl = config.mqttUrl ?? broker?.url ?? '';
  if (!ingestRole) {
    return { brokerUrl, embedded: false, ingest: null, alarms: null, close: () => Promise.resolve() };
  }
  const registry = new DeviceRegistry(database.db);
  const alarms = new AlarmEngine(
    database,
    registry,
    { syncMs: config.alarmSyncMs },
    alarmNotifier(database.sql, live.sse, config.alarmPopupLevel, log),
    log.child({ part: 'alarms' }),
    live.bus,
  );
  const ingest = new Ingest(
    database,
    registry,
    {
      batchPoints: config.ingestBatchPoints, batchMs: config.ingestBatchMs, latestFlushMs: config.latestFlushMs,
      rollupFlushMs: config.rollupFlushMs, rollupSnapshotMs: config.rollupSnapshotMs,
    },
    log.child({ part: 'ingest' }),
    alarms,
  );
  let consumer: Consumer | null = null;
  try {
    await ingest.start();
    if (broker) {
      // The embedded broker lives and dies with this process: subscribe inside it.
      await broker.subscribe(ALL_DEVICE_TOPICS, (t, payload) => ingest.handle(t, payload, false));
    } else {
      consumer = await startConsumer({
        url: brokerUrl,
        clientId: config.mqttClientId ?? `ess-ingest-${hostname()}`.slice(0, 64),
        topics: [`$share/${config.mqttShareGroup}/${ALL_DEVICE_TOPICS}`],
        username: config.mqttUsername,
        password: config.mqttPassword,
        log,
        onMessage: (t, payload, retained) => ingest.handle(t, payload, retained),
      });
    }
  } catch (err) {
    await ingest.stop().catch(() => undefined);
    await broker?.close();
    throw err;
  }
  log.info({ broker: brokerUrl }, 'telemetry ingest started');
  return {
    brokerUrl,
    embedded: broker !== null,
    ingest,
    alarms,
    close: async () => {
      // Stop receiving first; everything received (and acknowledged) is then written.
      await consumer?.close();
      await ingest.stop();
      await broker?.close();
    },
  };
}
