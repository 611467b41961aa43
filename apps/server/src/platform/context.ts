import type { Config } from './config.ts';
import type { Database, Db } from './db/database.ts';
import type { EventBus } from './events/bus.ts';
import type { CatalogueEvent } from './events/catalogue.ts';
import type { Outbox } from './events/outbox.ts';
import type { AccessLogWriter } from './http/access-log.ts';
import type { ChangeHub } from './db/change-cache.ts';
import type { SessionCache } from './http/session-cache.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Logger } from './logging.ts';
import type { SseHub } from './sse/hub.ts';
import type { EmbeddedBroker } from './mqtt/broker.ts';

/** What every module gets: the shared platform parts of one server instance. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  bus: EventBus;
  sse: SseHub;
  jobs: JobQueue;
  /** The domain-event outbox: nudge() after committing emitted events. */
  outbox: Outbox;
  accessLog: AccessLogWriter;
  /** This instance's cached session checks, dropped whenever sessions or permissions change. */
  sessions: SessionCache;
  /** This instance's caches of database answers, each dropped when its tables change (change-cache.ts). */
  changes: ChangeHub;
  /** Catalogue path → api_interface id, loaded at start. */
  interfaceIds: Map<string, number>;
  /** The domain events the modules declare (their manifests' `events`): the hooks' trigger catalogue. */
  events: readonly CatalogueEvent[];
  /** The device broker: MQTT_URL, or the embedded one this instance runs (ingest role). */
  mqtt: DeviceBroker;
}

/** Where devices (and the simulator) publish, and the command channel connects. */
export interface DeviceBroker {
  /** '' when this instance has no broker (no MQTT_URL and no ingest role). */
  url: string;
  /** The embedded broker of this process, when MQTT_URL is unset. */
  embedded: EmbeddedBroker | null;
}
