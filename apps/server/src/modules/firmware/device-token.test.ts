import { describe, expect, it } from 'vitest';
import { signDeviceToken, verifyDeviceToken } from './device-token.ts';

const KEY = 'a-test-secret-key-of-this-server';
const pkg = { kind: 'package', taskId: 7, packageId: 3, deviceId: 42 } as const;

describe('device tokens', () => {
  it('verifies its own token until it expires, with its claims', () => {
    const now = 1_800_000_000_000;
    const token = signDeviceToken(KEY, pkg, 30 * 60_000, now);
    expect(verifyDeviceToken(KEY, token, 'package', now + 29 * 60_000)).toEqual({ ...pkg, expiresAt: now + 30 * 60_000 });
    expect(verifyDeviceToken(KEY, token, 'package', now + 30 * 60_000)).toBeNull();
    const log = signDeviceToken(KEY, { kind: 'log', logId: 5, captureId: 2, deviceId: 42 }, 60_000, now);
    expect(verifyDeviceToken(KEY, log, 'log', now)).toEqual({ kind: 'log', logId: 5, captureId: 2, deviceId: 42, expiresAt: now + 60_000 });
  });

  it('refuses another purpose, another key, a changed claim or signature, and garbage', () => {
    const token = signDeviceToken(KEY, pkg, 60_000);
    expect(verifyDeviceToken(KEY, token, 'log')).toBeNull();
    expect(verifyDeviceToken('another-secret-key-entirely', token, 'package')).toBeNull();
    const [v, body, mac] = token.split('.') as [string, string, string];
    const changed = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"d":42', '"d":43')).toString('base64url');
    expect(verifyDeviceToken(KEY, `${v}.${changed}.${mac}`, 'package')).toBeNull();
    expect(verifyDeviceToken(KEY, `${v}.${body}.${mac.slice(1)}`, 'package')).toBeNull();
    for (const bad of ['', 'v1', 'v1..', `v2.${body}.${mac}`, 'x'.repeat(100)]) expect(verifyDeviceToken(KEY, bad, 'package')).toBeNull();
    // The demo key stands in when SECRET_KEY is not set, and is a key like any other.
    expect(verifyDeviceToken(undefined, signDeviceToken(undefined, pkg, 60_000), 'package')).not.toBeNull();
    expect(verifyDeviceToken(KEY, signDeviceToken(undefined, pkg, 60_000), 'package')).toBeNull();
  });
});
