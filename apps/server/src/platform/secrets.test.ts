import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRET_KEY, secretBox, SecretError } from './secrets.ts';

describe('secrets at rest', () => {
  const box = secretBox('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');

  it('seals with AES-256-GCM in the versioned format and opens again', () => {
    const sealed = box.seal('smtp-pa55word', 'mail.password');
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(sealed).not.toContain('smtp-pa55word');
    expect(box.open(sealed, 'mail.password')).toBe('smtp-pa55word');
    // Two seals of one secret differ (a fresh IV each time).
    expect(box.seal('smtp-pa55word', 'mail.password')).not.toBe(sealed);
    expect(box.seal(null, 'mail.password')).toBeNull();
  });

  it('is standard AES-256-GCM: opened independently with node:crypto and the raw key', () => {
    const [, keyId, iv, ct, tag] = box.seal('独立解密', 'sms.secret').split('.');
    const key = Buffer.from('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'hex');
    expect(keyId).toBe(createHash('sha256').update(key).digest('hex').slice(0, 8));
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
    d.setAAD(Buffer.from('sms.secret'));
    d.setAuthTag(Buffer.from(tag!, 'base64url'));
    expect(Buffer.concat([d.update(Buffer.from(ct!, 'base64url')), d.final()]).toString()).toBe('独立解密');
  });

  it('refuses an altered value, another purpose and another key', () => {
    const sealed = box.seal('secret', 'mail.password');
    const parts = sealed.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0]! ^= 1;
    parts[3] = ct.toString('base64url');
    expect(() => box.open(parts.join('.'), 'mail.password')).toThrow(SecretError);
    expect(() => box.open(sealed, 'sms.secret')).toThrow(SecretError);
    expect(() => secretBox('another passphrase of enough length').open(sealed, 'mail.password')).toThrow(/sealed under key/);
    expect(() => box.open('plain text', 'mail.password')).toThrow(/format/);
  });

  it('stretches a passphrase with HKDF-SHA256 and refuses a short one; the demo key is named', () => {
    const pass = 'correct horse battery staple';
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(pass), Buffer.from('ess-console/secrets'), Buffer.from('v1'), 32));
    expect(secretBox(pass).keyId).toBe(createHash('sha256').update(key).digest('hex').slice(0, 8));
    expect(() => secretBox('short')).toThrow(SecretError);
    expect(secretBox().isDemoKey).toBe(true);
    expect(secretBox(DEMO_SECRET_KEY).keyId).toBe(secretBox().keyId);
    expect(box.isDemoKey).toBe(false);
  });
});
