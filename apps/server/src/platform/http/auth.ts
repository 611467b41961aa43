import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { SessionCache } from './session-cache.ts';

/** The signed-in caller as every handler sees it. */
export interface AuthUser {
  id: number;
  username: string;
  name: string;
  companyId: number;
  /** Materialised path of the user's company; the data scope is every company under it. */
  companyPath: string;
  buildIn: boolean;
  /** Sees every station of their companies, those created later too (the built-in user always does). */
  allSites: boolean;
  sessionId: number;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, base64url; only its SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url');

export function tokenFrom(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const t = h.startsWith('Bearer ') ? h.slice(7) : h;
  return t.length >= 20 && t.length <= 200 ? t : null;
}

interface SessionRow {
  session_id: number;
  user_id: number;
  username: string;
  name: string;
  company_id: number;
  company_path: string;
  build_in: boolean;
  all_sites: boolean;
  last_seen_at: Date | string;
  expires_at: Date | string;
  allowed: boolean | null;
}

export interface SessionCheck {
  user: AuthUser;
  allowed: boolean;
  lastSeenAt: number;
  expiresAt: number;
}

/**
 * Whether one of the user's roles grants the interface, through a menu or directly: the one
 * permission rule, read by the route guard (checkSession) and by the profile's permission list
 * (what the console shows actions for), both SQL expressions of a user id and an interface id.
 */
export const grantsInterface = (userId: string, interfaceId: string) => `exists (
              select 1 from user_role ur
              where ur.user_id = ${userId} and (
                exists (select 1 from role_menu rm join menu_interface mi on mi.menu_id = rm.menu_id
                        where rm.role_id = ur.role_id and mi.interface_id = ${interfaceId})
                or exists (select 1 from role_interface ri where ri.role_id = ur.role_id and ri.interface_id = ${interfaceId})))`;

/**
 * The live session and whether it may call the interface: from this instance's cache when it
 * holds the answer (session-cache.ts), else one round trip: the live session (not revoked, not past its absolute or idle limit, user
 * enabled) and, when an interface id is given, whether one of the user's roles grants it
 * through a menu or directly.
 */
export async function checkSession(
  database: Database,
  cache: SessionCache,
  tokenHash: string,
  interfaceId: number | null,
  idleMs: number,
): Promise<SessionCheck | null> {
  const cached = cache.check(tokenHash, interfaceId, idleMs);
  if (cached) return cached;
  const stamp = cache.stamp();
  const { rows } = await database.sql.query<SessionRow>(
    `select s.id as session_id, u.id as user_id, u.username, u.name, u.company_id, c.path as company_path,
            u.build_in, u.all_sites, s.last_seen_at, s.expires_at,
            case when $2::int is null then null else ${grantsInterface('u.id', '$2::int')} end as allowed
       from session s join app_user u on u.id = s.user_id join company c on c.id = u.company_id
      where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()
        and s.last_seen_at > now() - ($3::int * interval '1 millisecond') and u.status = 1`,
    [tokenHash, interfaceId, Math.round(idleMs)],
    'session_check',
  );
  const r = rows[0];
  if (!r) return null;
  const check: SessionCheck = {
    user: {
      id: r.user_id,
      username: r.username,
      name: r.name,
      companyId: r.company_id,
      companyPath: r.company_path,
      buildIn: r.build_in,
      allSites: r.all_sites,
      sessionId: Number(r.session_id),
    },
    allowed: r.allowed === true,
    lastSeenAt: new Date(r.last_seen_at).getTime(),
    expiresAt: new Date(r.expires_at).getTime(),
  };
  cache.keep(tokenHash, interfaceId, check, stamp);
  return check;
}
