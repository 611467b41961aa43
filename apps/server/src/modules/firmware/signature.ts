import { createHash, createPublicKey, createVerify, verify, type KeyObject, type Verify } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { FIRMWARE_ERRORS, type FirmwareKeyAlgorithm } from '@ess/contract/firmware';
import { AppError } from '../../platform/http/errors.ts';

/**
 * Package signatures (decision 0047): a detached signature, base64, over the file's bytes, made
 * with the private half of one of the company's public keys:
 *
 * - Ed25519 (RFC 8032, pure): `openssl pkeyutl -sign -rawin -inkey key.pem -in fw.bin`, 64 bytes;
 * - ECDSA P-256 with SHA-256: `openssl dgst -sha256 -sign key.pem fw.bin`, DER (or the 64-byte
 *   IEEE P1363 r‖s form some HSMs give).
 */

export interface ParsedKey {
  algorithm: FirmwareKeyAlgorithm;
  /** Normalised PEM (SPKI). */
  pem: string;
  /** SHA-256 of the DER (SPKI), hex. */
  fingerprint: string;
}

/** Reads a PEM public key; refuses anything but an Ed25519 or P-256 public key (a private key too). */
export function parsePublicKey(pem: string): ParsedKey {
  if (/PRIVATE KEY/.test(pem)) throw new AppError('INVALID_PARAM', FIRMWARE_ERRORS.keyInvalid);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new AppError('INVALID_PARAM', FIRMWARE_ERRORS.keyInvalid);
  }
  const algorithm = algorithmOf(key);
  if (!algorithm) throw new AppError('INVALID_PARAM', FIRMWARE_ERRORS.keyInvalid);
  const der = key.export({ type: 'spki', format: 'der' });
  return { algorithm, pem: String(key.export({ type: 'spki', format: 'pem' })), fingerprint: createHash('sha256').update(der).digest('hex') };
}

function algorithmOf(key: KeyObject): FirmwareKeyAlgorithm | null {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsaP256';
  return null;
}

export interface CandidateKey {
  id: number;
  algorithm: FirmwareKeyAlgorithm;
  publicKeyPem: string;
}

/** Decodes the signature text (base64); refuses what is not. */
export function decodeSignature(text: string): Buffer {
  const sig = Buffer.from(text, 'base64');
  if (sig.length < 32 || sig.length > 256 || sig.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) {
    throw new AppError('INVALID_PARAM', FIRMWARE_ERRORS.signatureMalformed);
  }
  return sig;
}

/**
 * The first key that verifies the signature of the file at `path`, or null. ECDSA keys are
 * checked in one streaming pass over the file; Ed25519 (which signs the message, not a digest)
 * reads the file once into memory, only when a 64-byte signature and an Ed25519 key are there.
 */
export async function verifyFileSignature(path: string, signature: Buffer, keys: readonly CandidateKey[]): Promise<CandidateKey | null> {
  const ecdsa = keys.filter((k) => k.algorithm === 'ecdsaP256');
  if (ecdsa.length) {
    const verifiers: [CandidateKey, Verify][] = ecdsa.map((k) => [k, createVerify('sha256')]);
    for await (const chunk of createReadStream(path)) for (const [, v] of verifiers) v.update(chunk as Buffer);
    const dsaEncoding = signature.length === 64 ? 'ieee-p1363' : 'der';
    for (const [k, v] of verifiers) {
      try {
        if (v.verify({ key: k.publicKeyPem, dsaEncoding }, signature)) return k;
      } catch {
        // A signature that is not a valid encoding verifies with no key.
      }
    }
  }
  const ed = keys.filter((k) => k.algorithm === 'ed25519');
  if (ed.length && signature.length === 64) {
    const data = await readFile(path);
    for (const k of ed) if (verify(null, data, k.publicKeyPem, signature)) return k;
  }
  return null;
}
