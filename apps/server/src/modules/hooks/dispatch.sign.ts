import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): each request carries
 *   webhook-id         the message id (the same on every attempt of one delivery, so receivers dedupe)
 *   webhook-timestamp  seconds since the epoch at this attempt
 *   webhook-signature  "v1," + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`
 * with the key = the base64 part of the hook's secret "whsec_<base64>".
 */

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ + 32 random bytes in base64. */
export const newSigningSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/** The key bytes of a whsec_ secret (a secret without the prefix is taken as base64 too). */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The webhook-signature header value of one message. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three signing headers of one attempt. */
export function signingHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const ts = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature(secret, id, ts, body) };
}
