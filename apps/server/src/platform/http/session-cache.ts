import type { AuthUser, SessionCheck } from './auth.ts';

interface Entry {
  user: AuthUser;
  /** Per interface id (null: no interface asked), whether the user's roles grant it. */
  allowed: Map<number | null, boolean>;
  lastSeenAt: number;
  expiresAt: number;
  fetchedAt: number;
}

/** Notified on commit by every change that concerns session checks (migration 0015). */
export const AUTH_CHANNEL = 'ess_auth';

/** Kept at most this long: a bound on staleness should a notification ever be missed. */
export const SESSION_CACHE_TTL_MS = 60_000;
/** Sessions cached at once; past it the oldest go first. */
export const SESSION_CACHE_MAX = 10_000;

/**
 * The session checks of one server instance, so that a signed-in call does not ask the database
 * who is calling and whether the call is allowed each time. Only valid sessions are kept, by the
 * token's hash.
 *
 * Correctness rests on invalidation: every write that can end a session or change what a user may
 * call (sessions, users, companies, user roles, role menus and interfaces, menu interfaces)
 * notifies channel `ess_auth` on commit (migration 0015), and `invalidate()` then drops every
 * entry. A check that was running while a notification came is not kept (its answer may predate
 * the change). While the instance is not listening (start-up, connection lost) nothing is cached.
 * On top of that an entry lives at most SESSION_CACHE_TTL_MS, and never past the session's
 * absolute or idle limit.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly max = SESSION_CACHE_MAX,
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

  /** The cached check, or undefined when it must be asked of the database. */
  get(tokenHash: string, interfaceId: number | null, idleMs: number, now = Date.now()): SessionCheck | undefined {
    const e = this.entries.get(tokenHash);
    if (!e) return undefined;
    if (now - e.fetchedAt >= this.ttlMs || now >= e.expiresAt || now - e.lastSeenAt >= idleMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    const allowed = e.allowed.get(interfaceId);
    if (allowed === undefined) return undefined;
    return { user: e.user, allowed, lastSeenAt: e.lastSeenAt, expiresAt: e.expiresAt };
  }

  /** Taken before asking the database; `put` keeps the answer only if nothing changed since. */
  stamp(): number {
    return this.generation;
  }

  put(tokenHash: string, interfaceId: number | null, check: SessionCheck, stamp: number, now = Date.now()): void {
    if (!this.listening || stamp !== this.generation) return;
    let e = this.entries.get(tokenHash);
    if (e?.user.sessionId === check.user.sessionId) {
      // Keep fetchedAt: the entry's other answers are as old as it says.
      Object.assign(e, { user: check.user, lastSeenAt: check.lastSeenAt, expiresAt: check.expiresAt });
    } else {
      if (!e && this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
      e = { user: check.user, allowed: new Map(), lastSeenAt: check.lastSeenAt, expiresAt: check.expiresAt, fetchedAt: now };
      this.entries.set(tokenHash, e);
    }
    e.allowed.set(interfaceId, check.allowed);
  }

  /** The session was just marked as seen in the database. */
  seen(tokenHash: string, at = Date.now()): void {
    const e = this.entries.get(tokenHash);
    if (e) e.lastSeenAt = at;
  }
}
