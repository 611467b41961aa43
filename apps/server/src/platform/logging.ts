import { pino, type DestinationStream } from 'pino';

export type Logger = pino.Logger;

/**
 * Fields that carry secrets: mail passwords, SMS channel secrets (Aliyun AccessKey secret,
 * Tencent SecretKey, Twilio auth token), sealed values, session tokens, credentials in headers.
 * A log line never shows them, at whatever depth up to three objects down they are logged (pino's
 * redaction takes one wildcard per segment), nor in the request headers Fastify logs.
 */
export const SECRET_FIELDS = [
  'password', 'passwordEnc', 'newPassword', 'oldPassword', 'confirmPassword', 'secret', 'secretEnc', 'accessKeySecret', 'authToken', 'secretKey',
  'apiKey', 'token', 'credentials',
] as const;
export const REDACTED = '[redacted]';
export const REDACT_PATHS: string[] = [
  ...SECRET_FIELDS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]),
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', 'res.headers["set-cookie"]',
];
const redact = { paths: REDACT_PATHS, censor: REDACTED };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { svc: 'ess-server' }, redact };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger handed in (tests capture the lines) writes through the same redaction. */
export const redacted = (log: Logger): Logger => log.child({}, { redact });
