import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { SSE_RETRY_MS, type LiveEventName } from '@ess/contract';
import type { BusMessage, EventBus } from '../events/bus.ts';

interface Stream {
  userId: number;
  sessionId: number;
  res: ServerResponse;
}

/** How many streams an instance, a user and a session may hold. */
export interface StreamLimits {
  perSession: number;
  perUser: number;
  /** Streams of this instance in all; further connects are refused (hasRoom). */
  total: number;
}

/** The soft open-file limit of this process (Linux /proc), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The instance's stream cap: SSE_MAX_STREAMS when set, else the open-file limit less the reserve
 * kept for API calls, database connections and files (half the limit where the limit is
 * smaller than twice the reserve); no cap where the limit is unknown.
 */
export function totalStreamLimit(configured: number, reserve: number, fdLimit: number | null): number {
  if (configured > 0) return configured;
  if (fdLimit === null) return Number.POSITIVE_INFINITY;
  return Math.max(fdLimit - reserve, Math.floor(fdLimit / 2));
}

/**
 * Holds this instance's open event streams, writes heartbeats, and delivers bus messages to
 * the streams of the users they name. Publishing always goes through the bus, so a message
 * reaches a stream whichever instance holds it.
 *
 * A session (one browser, all its tabs) and a user hold at most `perSession` / `perUser`
 * streams here: a new stream ends the oldest one over the cap with a `close` event (reason
 * superseded), which the console does not reconnect on its own. Past `total` streams the route
 * refuses new ones (hasRoom), so descriptors stay for API calls and sign-ins.
 */
export class SseHub {
  /** Per user, the streams in opening order (a Set iterates in insertion order: oldest first). */
  private readonly byUser = new Map<number, Set<Stream>>();
  private count = 0;
  private seq = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly bus: EventBus,
    heartbeatMs: number,
    readonly limits: StreamLimits = { perSession: Number.POSITIVE_INFINITY, perUser: Number.POSITIVE_INFINITY, total: Number.POSITIVE_INFINITY },
  ) {
    bus.subscribe((m) => this.deliver(m));
    this.timer = setInterval(() => this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  /** Open streams on this instance. */
  get size(): number {
    return this.count;
  }

  /** Whether another stream may open on this instance (the total cap). */
  hasRoom(): boolean {
    return this.count < this.limits.total;
  }

  open(userId: number, sessionId: number, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const stream: Stream = { userId, sessionId, res };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    const own = set;
    own.add(stream);
    this.count += 1;
    // A write racing a client that went away must not become an unhandled 'error' event.
    res.on('error', () => res.destroy());
    res.on('close', () => this.remove(own, stream));
    this.write(stream, 'heartbeat', JSON.stringify({ time: Date.now() }));
    this.enforceCaps(own, sessionId);
  }

  /** Sends a live event to users, on whichever instance holds their streams. */
  send<N extends LiveEventName>(userIds: number[], event: N, data: unknown): Promise<void> {
    if (userIds.length === 0) return Promise.resolve();
    return this.bus.publish({ type: 'live', userIds, event, data });
  }

  /**
   * Ends the streams of users whose sessions were revoked (disabled accounts; changed
   * passwords keep the caller's own session and its streams).
   */
  revoke(userIds: number[], exceptSessionId?: number): Promise<void> {
    if (userIds.length === 0) return Promise.resolve();
    return this.bus.publish(exceptSessionId ? { type: 'revoke', userIds, exceptSessionId } : { type: 'revoke', userIds });
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const set of this.byUser.values()) for (const s of set) s.res.end();
    this.byUser.clear();
  }

  /** Ends the oldest streams of the session, then of the user, beyond their caps. */
  private enforceCaps(set: Set<Stream>, sessionId: number): void {
    let ofSession = 0;
    for (const s of set) if (s.sessionId === sessionId) ofSession += 1;
    for (const s of set) {
      if (ofSession <= this.limits.perSession) break;
      if (s.sessionId !== sessionId) continue;
      this.supersede(set, s);
      ofSession -= 1;
    }
    for (const s of set) {
      if (set.size <= this.limits.perUser) break;
      this.supersede(set, s);
    }
  }

  private supersede(set: Set<Stream>, s: Stream): void {
    this.write(s, 'close', JSON.stringify({ reason: 'superseded' }));
    this.remove(set, s);
    s.res.end();
  }

  private remove(set: Set<Stream>, s: Stream): void {
    if (!set.delete(s)) return;
    this.count -= 1;
    if (set.size === 0 && this.byUser.get(s.userId) === set) this.byUser.delete(s.userId);
  }

  private deliver(m: BusMessage): void {
    if (m.type === 'reload') return;
    // Serialised once for every stream it goes to.
    let json: string | undefined;
    for (const uid of m.userIds) {
      const set = this.byUser.get(uid);
      if (!set) continue;
      for (const s of [...set]) {
        if (m.type === 'live') this.write(s, m.event, (json ??= JSON.stringify(m.data)));
        else if (s.sessionId !== m.exceptSessionId) s.res.end();
      }
    }
  }

  private heartbeat(): void {
    const data = JSON.stringify({ time: Date.now() });
    for (const set of this.byUser.values()) for (const s of set) this.write(s, 'heartbeat', data);
  }

  /** Writes one event; `json` is its data, already serialised. */
  private write(s: Stream, event: string, json: string): void {
    if (s.res.writableEnded || s.res.destroyed) return;
    this.seq += 1;
    try {
      s.res.write(`id: ${this.seq}\nevent: ${event}\nretry: ${SSE_RETRY_MS}\ndata: ${json}\n\n`);
    } catch {
      s.res.destroy();
    }
  }
}
