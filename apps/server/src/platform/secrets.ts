import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (decision 0043): a mail password or an SMS provider's secret is stored sealed
 * with AES-256-GCM (authenticated: a changed byte or another key fails to open) under a key from
 * the environment (SECRET_KEY). The sealed text is versioned so a later key rotation can tell
 * old from new:
 *
 *   v1.<key id>.<iv>.<ciphertext>.<tag>     (base64url parts; key id: 8 hex of SHA-256 of the key)
 *
 * The purpose ("mail.password", "sms.secret") is bound as additional authenticated data, so a
 * value sealed for one column does not open as another. A secret is never answered, logged or
 * exported: callers open it only to hand it to the transport.
 */

/** The documented key of the embedded demo; a start with it in production mode warns. */
export const DEMO_SECRET_KEY = 'ess-console-demo-secret-key (set SECRET_KEY in production)';
const VERSION = 'v1';

export class SecretError extends Error {}

export interface SecretBox {
  /** Seals a secret for a purpose; null stays null. */
  seal(plain: string, purpose: string): string;
  seal(plain: string | null, purpose: string): string | null;
  /** Opens a sealed secret (SecretError when it was sealed under another key or altered). */
  open(sealed: string, purpose: string): string;
  /** The key's id (8 hex characters), as written into each sealed value. */
  readonly keyId: string;
  /** Whether the key is the documented demo key. */
  readonly isDemoKey: boolean;
}

/**
 * The box for a key text: 32 bytes as 64 hex characters or base64 are used as they are, any other
 * text (at least 16 characters) is stretched with HKDF-SHA256.
 */
const boxes = new Map<string, SecretBox>();

/**
 * The box of a key: made once per key text and shared (modules, their demos and their jobs ask
 * for the configured key's box where they need it; nothing to keep per app).
 */
export function secretBox(keyText: string = DEMO_SECRET_KEY): SecretBox {
  let box = boxes.get(keyText);
  if (!box) {
    box = makeBox(keyText);
    boxes.set(keyText, box);
  }
  return box;
}

function makeBox(keyText: string): SecretBox {
  const key = deriveKey(keyText);
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  function seal(plain: string | null, purpose: string): string | null {
    if (plain === null) return null;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, keyId, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }
  return {
    keyId,
    isDemoKey: keyText === DEMO_SECRET_KEY,
    seal: seal as SecretBox['seal'],
    open(sealed, purpose) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretError('unknown secret format');
      if (parts[1] !== keyId) throw new SecretError(`secret sealed under key ${parts[1]}, not the configured key ${keyId}`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[2]!, 'base64url'));
        decipher.setAAD(Buffer.from(purpose, 'utf8'));
        decipher.setAuthTag(Buffer.from(parts[4]!, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretError('secret does not open (altered, or sealed for another purpose)');
      }
    },
  };
}

function deriveKey(text: string): Buffer {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const b = Buffer.from(text, 'base64');
    if (b.length === 32) return b;
  }
  if (text.length < 16) throw new SecretError('SECRET_KEY must be 32 bytes (64 hex characters or base64) or a passphrase of at least 16 characters');
  return Buffer.from(hkdfSync('sha256', Buffer.from(text, 'utf8'), Buffer.from('ess-console/secrets', 'utf8'), Buffer.from(VERSION, 'utf8'), 32));
}
