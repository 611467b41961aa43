import type { AuthUser, SessionCheck } from './auth.ts';

/** Notified on commit by every change that concerns session checks or profiles (migration 0015). */
export const AUTH_CHANNEL = 'ess_auth';

/** Kept at most this long: a bound on staleness should a notification ever be missed. */
export const AUTH_CACHE_TTL_MS = 60_000;
/** Entries held at once; past it the oldest go first. */
export const AUTH_CACHE_MAX = 10_000;

/**
 * Answers of the database kept by one server instance, all dropped when AUTH_CHANNEL says that
 * something they depend on changed. Every write that can end a session, change what a user may
 * call or what a profile shows notifies the channel on commit (migration 0015's triggers), and the
 * instance's own writes are heard before their statement returns (database.ts), so a change made
 * through this instance is seen by its very next call.
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

  delete(key: K): void {
    this.entries.delete(key);
  }
}

interface SessionEntry {
  user: AuthUser;
  /** Per interface id (null: no interface asked), whether the user's roles grant it. */
  allowed: Map<number | null, boolean>;
  lastSeenAt: number;
  expiresAt: number;
}

/**
 * The session checks of one instance, by the token's hash, so that a signed-in call does not ask
 * the database who is calling and whether the call is allowed each time. Only valid sessions are
 * kept, never past the session's absolute or idle limit.
 */
export class SessionCache extends ChangeCache<string, SessionEntry> {
  /** The cached check, or undefined when it must be asked of the database. */
  check(tokenHash: string, interfaceId: number | null, idleMs: number, now = Date.now()): SessionCheck | undefined {
    const e = this.get(tokenHash, now);
    if (!e) return undefined;
    if (now >= e.expiresAt || now - e.lastSeenAt >= idleMs) {
      this.delete(tokenHash);
      return undefined;
    }
    const allowed = e.allowed.get(interfaceId);
    if (allowed === undefined) return undefined;
    return { user: e.user, allowed, lastSeenAt: e.lastSeenAt, expiresAt: e.expiresAt };
  }

  keep(tokenHash: string, interfaceId: number | null, check: SessionCheck, stamp: number, now = Date.now()): void {
    if (!this.accepts(stamp)) return;
    const e = this.get(tokenHash, now);
    if (e?.user.sessionId === check.user.sessionId) {
      // The entry keeps its age: its other answers are as old as it is.
      Object.assign(e, { user: check.user, lastSeenAt: check.lastSeenAt, expiresAt: check.expiresAt });
      e.allowed.set(interfaceId, check.allowed);
      return;
    }
    const allowed = new Map([[interfaceId, check.allowed]]);
    this.put(tokenHash, { user: check.user, allowed, lastSeenAt: check.lastSeenAt, expiresAt: check.expiresAt }, stamp, now);
  }

  /** The session was just marked as seen in the database. */
  seen(tokenHash: string, at = Date.now()): void {
    const e = this.get(tokenHash, at);
    if (e) e.lastSeenAt = at;
  }
}
