import type { Config } from './config.ts';
import type { Database, Db } from './db/database.ts';
import type { EventBus } from './events/bus.ts';
import type { AccessLogWriter } from './http/access-log.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Logger } from './logging.ts';
import type { SseHub } from './sse/hub.ts';
import type { TelemetryRuntime } from '../modules/telemetry/runtime.ts';

/** What every module gets: the shared platform parts of one server instance. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  bus: EventBus;
  sse: SseHub;
  jobs: JobQueue;
  accessLog: AccessLogWriter;
  /** Catalogue path → api_interface id, loaded at start. */
  interfaceIds: Map<string, number>;
  /** The MQTT broker in use and, with the ingest role, the telemetry pipeline. */
  telemetry: TelemetryRuntime;
}
