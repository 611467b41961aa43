import type { FastifyRequest } from 'fastify';

/** Time zone of the caller (UTC-Zone header: minutes east of UTC), for exported times. */
export function zoneOf(req: FastifyRequest): number {
  const h = req.headers['utc-zone'];
  const n = typeof h === 'string' && /^-?\d{1,4}$/.test(h.trim()) ? Number(h.trim()) : 0;
  return Math.abs(n) <= 14 * 60 ? n : 0;
}

/** "YYYY-MM-DD HH:mm:ss" at the given offset from UTC (minutes). */
export function formatInZone(d: Date, offsetMinutes: number): string {
  return new Date(d.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}
