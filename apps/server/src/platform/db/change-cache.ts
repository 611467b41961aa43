import type { ListenSignal } from './database.ts';

/** Notified on commit by every change that concerns session checks or profiles (migration 0015). */
export const AUTH_CHANNEL = 'ess_auth';
/** Notified on commit by every change of products and their properties (thing models; migration 0015). */
export const MODEL_CHANNEL = 'ess_model';
/** The channels every connection listens on (database.ts `channels`). */
export const CHANGE_CHANNELS = [AUTH_CHANNEL, MODEL_CHANNEL];

/** Kept at most this long: a bound on staleness should a notification ever be missed. */
export const AUTH_CACHE_TTL_MS = 60_000;
/** Entries held at once; past it the oldest go first. */
export const AUTH_CACHE_MAX = 10_000;

/**
 * Answers of the database kept by one server instance, all dropped when its channel says that
 * something they depend on changed. Triggers on the tables they are read from notify the channel on
 * commit (migration 0015), and the instance's own writes are heard before their statement returns
 * (database.ts), so a change made through this instance is seen by its very next call; other
 * instances' changes a moment after their commit.
 *
 * An answer that was being read while a notification came is not kept (it may predate the
 * change): take `stamp()` before reading and give it to `put`. While the instance is not
 * listening (start-up, connection lost) nothing is kept. An entry lives at most `ttlMs`.
 */
export class ChangeCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
  private generation = 0;
  private listening = false;

  constructor(
    private readonly ttlMs = AUTH_CACHE_TTL_MS,
    private readonly max = AUTH_CACHE_MAX,
  ) {}

  /** Listening for changes (or not): either way what is held may be stale, so it goes. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  stamp(): number {
    return this.generation;
  }

  get(key: K, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (now - e.at < this.ttlMs) return e.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Whether an answer read since `stamp` may be kept. */
  accepts(stamp: number): boolean {
    return this.listening && stamp === this.generation;
  }

  put(key: K, value: V, stamp: number, now = Date.now()): void {
    if (!this.accepts(stamp)) return;
    if (!this.entries.has(key) && this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: now });
  }

  /** The cached value, else `load()`'s, kept unless a change came while it loaded. */
  async through(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const stamp = this.stamp();
    const value = await load();
    this.put(key, value, stamp);
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

/**
 * The instance's change caches by channel: `signal` passes what a channel's listener hears to
 * each; a cache made later starts in the channel's current state. `cache(channel, name)` gives
 * the same cache for the same name, so a module can keep one per server instance.
 */
/** What the hub needs of a cache. */
interface Droppable {
  setListening(listening: boolean): void;
  invalidate(): void;
}

export class ChangeHub {
  private readonly byChannel = new Map<string, { listening: boolean; caches: Map<string, Droppable> }>();

  private channel(channel: string) {
    let c = this.byChannel.get(channel);
    if (!c) this.byChannel.set(channel, (c = { listening: false, caches: new Map() }));
    return c;
  }

  add<C extends Droppable>(channel: string, name: string, cache: C): C {
    const c = this.channel(channel);
    const existing = c.caches.get(name);
    if (existing) return existing as C;
    cache.setListening(c.listening);
    c.caches.set(name, cache);
    return cache;
  }

  cache<K, V>(channel: string, name: string): ChangeCache<K, V> {
    const existing = this.byChannel.get(channel)?.caches.get(name);
    return (existing ?? this.add(channel, name, new ChangeCache<K, V>())) as ChangeCache<K, V>;
  }

  signal(channel: string, signal: ListenSignal): void {
    const c = this.channel(channel);
    if (signal !== 'notify') c.listening = signal === 'listening';
    for (const cache of c.caches.values()) {
      if (signal === 'notify') cache.invalidate();
      else cache.setListening(c.listening);
    }
  }
}
