import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { LiveEventName } from '@ess/contract';
import type { Logger } from '../logging.ts';

/** Messages that every server instance must see. */
export type BusMessage =
  | { type: 'live'; userIds: number[]; event: LiveEventName; data: unknown }
  | { type: 'revoke'; userIds: number[]; exceptSessionId?: number }
  /** Cached rules changed in the database (e.g. the alarm dictionary or shields): every instance reloads them. */
  | { type: 'reload'; what: 'alarm' | 'translation' };

export interface EventBus {
  publish(msg: BusMessage): Promise<void>;
  subscribe(handler: (msg: BusMessage) => void): void;
  close(): Promise<void>;
}

/** Single-process fan-out: the default with no REDIS_URL. */
export function inProcessBus(): EventBus {
  const em = new EventEmitter();
  em.setMaxListeners(0);
  return {
    publish: (msg) => {
      em.emit('msg', msg);
      return Promise.resolve();
    },
    subscribe: (handler) => em.on('msg', handler),
    close: () => {
      em.removeAllListeners();
      return Promise.resolve();
    },
  };
}

/**
 * Pub/sub channels are global to a Redis server (not per database index), so the channel is
 * named after the deployment: instances sharing one database share one channel, and other
 * deployments (or parallel test servers) on the same Redis never see each other's messages.
 */
export function busChannel(databaseUrl: string | undefined, dataDir: string): string {
  if (!databaseUrl) return `ess:bus:pglite:${dataDir}`;
  try {
    const u = new URL(databaseUrl);
    return `ess:bus:${decodeURIComponent(u.pathname.replace(/^\//, '')) || u.username || 'postgres'}`;
  } catch {
    return 'ess:bus';
  }
}

/** Cross-instance fan-out over Redis pub/sub: every instance delivers to the streams it holds. */
export async function redisBus(url: string, log: Logger, channel = 'ess:bus'): Promise<EventBus> {
  const CHANNEL = channel;
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true });
  pub.on('error', (e) => log.warn({ err: e }, 'redis publisher error'));
  sub.on('error', (e) => log.warn({ err: e }, 'redis subscriber error'));
  try {
    await Promise.all([pub.connect(), sub.connect()]);
    await sub.subscribe(CHANNEL);
  } catch (err) {
    // A failed first connect leaves ioredis reconnecting forever: stop both clients.
    pub.disconnect();
    sub.disconnect();
    throw new Error(`cannot connect to Redis for live-event fan-out: ${(err as Error).message}`, { cause: err });
  }
  const handlers: ((m: BusMessage) => void)[] = [];
  sub.on('message', (_channel: string, text: string) => {
    let msg: BusMessage;
    try {
      msg = JSON.parse(text) as BusMessage;
    } catch {
      log.warn('ignored a malformed bus message');
      return;
    }
    for (const h of handlers) {
      try {
        h(msg);
      } catch (err) {
        log.warn({ err }, 'bus handler failed');
      }
    }
  });
  return {
    publish: async (msg) => {
      await pub.publish(CHANNEL, JSON.stringify(msg));
    },
    subscribe: (h) => handlers.push(h),
    close: async () => {
      sub.disconnect();
      pub.disconnect();
      await Promise.resolve();
    },
  };
}
