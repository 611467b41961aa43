import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DEMO_SECRET_KEY } from '../../platform/secrets.ts';

/**
 * Short-lived tokens that authorise a device's HTTP call instead of a session (decision 0047): the
 * package download (`/firmware/device/package?token=…`) and the log upload
 * (`/firmware/device/log?token=…`). A token names what it is for and binds the ids it was made
 * for (task, package and device; or capture row and device) and its expiry, signed with
 * HMAC-SHA256 under a key derived (HKDF) from the server's SECRET_KEY, so every instance with the
 * same key accepts it and a changed byte or another purpose fails:
 *
 *   v1.<base64url(JSON claims)>.<base64url(HMAC)>
 *
 * Nothing is stored: the handler checks the claims against the rows (the task still exists and is
 * not cancelled, its rollout's package is the one named, the device is the task's).
 */

export interface PackageTokenClaims {
  kind: 'package';
  taskId: number;
  packageId: number;
  deviceId: number;
}
export interface LogTokenClaims {
  kind: 'log';
  /** The capture's device row (firmware_log_device.id). */
  logId: number;
  captureId: number;
  deviceId: number;
}
export type DeviceTokenClaims = PackageTokenClaims | LogTokenClaims;
export type DeviceTokenKind = DeviceTokenClaims['kind'];

/** The claims as signed (short keys), with the expiry in epoch milliseconds. */
type Wire = { k: DeviceTokenKind; e: number; d: number; t?: number; p?: number; l?: number; c?: number };

const keys = new Map<string, Buffer>();
function macKey(secretKey: string | undefined): Buffer {
  const text = secretKey ?? DEMO_SECRET_KEY;
  let key = keys.get(text);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', text, 'ess.firmware', 'device-token v1', 32));
    keys.set(text, key);
  }
  return key;
}

const mac = (secretKey: string | undefined, body: string) => createHmac('sha256', macKey(secretKey)).update(`v1.${body}`).digest();

/** Makes a token for these claims, valid `ttlMs` from `now`. */
export function signDeviceToken(secretKey: string | undefined, claims: DeviceTokenClaims, ttlMs: number, now = Date.now()): string {
  const wire: Wire =
    claims.kind === 'package'
      ? { k: 'package', t: claims.taskId, p: claims.packageId, d: claims.deviceId, e: now + ttlMs }
      : { k: 'log', l: claims.logId, c: claims.captureId, d: claims.deviceId, e: now + ttlMs };
  const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `v1.${body}.${mac(secretKey, body).toString('base64url')}`;
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * The claims of a token of `kind` that is well formed, signed with this key and not expired at
 * `now`; null otherwise (the caller answers every null alike).
 */
export function verifyDeviceToken<K extends DeviceTokenKind>(
  secretKey: string | undefined,
  token: string,
  kind: K,
  now = Date.now(),
): (Extract<DeviceTokenClaims, { kind: K }> & { expiresAt: number }) | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') return null;
  const [, body, sig] = parts as [string, string, string];
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secretKey, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let wire: Wire;
  try {
    wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Wire;
  } catch {
    return null;
  }
  if (wire.k !== kind || typeof wire.e !== 'number' || wire.e <= now || !isId(wire.d)) return null;
  if (wire.k === 'package') {
    if (!isId(wire.t) || !isId(wire.p)) return null;
    return { kind: 'package', taskId: wire.t, packageId: wire.p, deviceId: wire.d, expiresAt: wire.e } as Extract<DeviceTokenClaims, { kind: K }> & { expiresAt: number };
  }
  if (!isId(wire.l) || !isId(wire.c)) return null;
  return { kind: 'log', logId: wire.l, captureId: wire.c, deviceId: wire.d, expiresAt: wire.e } as Extract<DeviceTokenClaims, { kind: K }> & { expiresAt: number };
}
