import type { AuthUser, SessionCheck } from './auth.ts';
import { ChangeCache } from '../db/change-cache.ts';

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
