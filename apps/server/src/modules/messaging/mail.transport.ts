import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailTlsMode } from '@ess/contract/messaging';

/**
 * The SMTP side of mail (decision 0043): one nodemailer transporter per conversation, with the
 * account's TLS mode honoured exactly —
 *
 * - `none`: plain SMTP, STARTTLS not attempted even when offered (ignoreTLS);
 * - `starttls`: plain connect, then STARTTLS required (requireTLS: a server without it is refused);
 * - `tls`: TLS from the first byte (secure, port 465 style).
 *
 * The certificate is verified unless the account says not to (a known self-signed server).
 * Nodemailer's own logger stays off: nothing of the conversation (AUTH included) is logged.
 */
export interface SmtpSettings {
  host: string;
  port: number;
  tlsMode: MailTlsMode;
  verifyCertificate: boolean;
  username: string | null;
  password: string | null;
  timeoutMs: number;
}

export function smtpTransport(s: SmtpSettings): Transporter<SMTPTransport.SentMessageInfo> {
  return createTransport({
    host: s.host,
    port: s.port,
    secure: s.tlsMode === 'tls',
    requireTLS: s.tlsMode === 'starttls',
    ignoreTLS: s.tlsMode === 'none',
    auth: s.username ? { user: s.username, pass: s.password ?? '' } : undefined,
    tls: { rejectUnauthorized: s.verifyCertificate, servername: /^[\d.]+$|:/.test(s.host) ? undefined : s.host },
    connectionTimeout: s.timeoutMs,
    greetingTimeout: s.timeoutMs,
    socketTimeout: s.timeoutMs,
    dnsTimeout: s.timeoutMs,
    logger: false,
    debug: false,
  });
}

export interface SmtpFailure {
  /** The peer's reason: its SMTP reply, or the TLS/socket error. */
  reason: string;
  /** Worth retrying: connection trouble, timeouts, 4xx replies. Permanent: 5xx replies, authentication refused. */
  temporary: boolean;
}

/** What an SMTP failure means, with every occurrence of the password (and its base64) removed from the reason. */
export function smtpFailure(err: unknown, password: string | null): SmtpFailure {
  const e = (err ?? {}) as { message?: string; response?: string; responseCode?: number; code?: string; command?: string };
  // The command's verb only (an AUTH command line carries credentials).
  const verb = typeof e.command === 'string' ? e.command.split(' ')[0]!.toUpperCase() : '';
  let reason = `${verb && e.response ? `${verb}: ` : ''}${e.response ?? e.message ?? String(err)}`.trim().slice(0, 900);
  if (password) {
    for (const p of [password, Buffer.from(password).toString('base64')]) reason = reason.split(p).join('***');
  }
  const code = e.responseCode;
  const temporary = code !== undefined ? code < 500 : e.code !== 'EAUTH' && e.code !== 'EENVELOPE' && e.code !== 'EMESSAGE';
  return { reason, temporary };
}
