import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

/** One mail as an SMTP peer received it: the envelope, the raw message, and how the client came. */
export interface SmtpReceived {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | undefined;
}

export interface SmtpPeer {
  port: number;
  received: SmtpReceived[];
  close: () => Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on a free port of 127.0.0.1 that keeps every mail it accepts;
 * `opts` set its TLS (secure, key/cert for STARTTLS), authentication and refusals (onRcptTo …).
 */
export async function smtpPeer(opts: Partial<SMTPServerOptions> = {}): Promise<SmtpPeer> {
  const received: SmtpReceived[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: opts.secure || opts.key ? [] : ['STARTTLS'],
    logger: false,
    ...opts,
    onData(stream, session: SMTPServerSession, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  // A client speaking plain SMTP to the TLS port is the peer's problem, not the test's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
