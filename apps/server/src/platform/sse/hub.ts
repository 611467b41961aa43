import type { ServerResponse } from 'node:http';
import { SSE_RETRY_MS, type LiveEventName } from '@ess/contract';
import type { BusMessage, EventBus } from '../events/bus.ts';

interface Stream {
  userId: number;
  sessionId: number;
  res: ServerResponse;
}

/**
 * Holds this instance's open event streams, writes heartbeats, and delivers bus messages to
 * the streams of the users they name. Publishing always goes through the bus, so a message
 * reaches a stream whichever instance holds it.
 */
export class SseHub {
  private readonly byUser = new Map<number, Set<Stream>>();
  private seq = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly bus: EventBus, heartbeatMs: number) {
    bus.subscribe((m) => this.deliver(m));
    this.timer = setInterval(() => this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  get size(): number {
    let n = 0;
    for (const s of this.byUser.values()) n += s.size;
    return n;
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
    set.add(stream);
    // A write racing a client that went away must not become an unhandled 'error' event.
    res.on('error', () => res.destroy());
    res.on('close', () => {
      set.delete(stream);
      if (set.size === 0 && this.byUser.get(userId) === set) this.byUser.delete(userId);
    });
    this.write(stream, 'heartbeat', { time: Date.now() });
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

  private deliver(m: BusMessage): void {
    if (m.type === 'reload') return;
    for (const uid of m.userIds) {
      const set = this.byUser.get(uid);
      if (!set) continue;
      for (const s of [...set]) {
        if (m.type === 'live') this.write(s, m.event, m.data);
        else if (s.sessionId !== m.exceptSessionId) s.res.end();
      }
    }
  }

  private heartbeat(): void {
    const data = { time: Date.now() };
    for (const set of this.byUser.values()) for (const s of set) this.write(s, 'heartbeat', data);
  }

  private write(s: Stream, event: string, data: unknown): void {
    if (s.res.writableEnded || s.res.destroyed) return;
    this.seq += 1;
    try {
      s.res.write(`id: ${this.seq}\nevent: ${event}\nretry: ${SSE_RETRY_MS}\ndata: ${JSON.stringify(data)}\n\n`);
    } catch {
      s.res.destroy();
    }
  }
}
