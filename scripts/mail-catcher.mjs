#!/usr/bin/env node
// `npm run mail-catcher`: a local SMTP catcher for the demo (decision 0043). The demo's mail
// account (seeded by `npm start`) sends to 127.0.0.1:2525 with plain SMTP; this prints each mail
// received (envelope, subject, size) and saves it as an .eml file under .data/mail-catcher/.
// Not part of the product: it accepts any sender, recipient, user and password.
//   MAIL_CATCHER_PORT   port to listen on (default 2525; the server's setting of the same name)
//   MAIL_CATCHER_DIR    where the .eml files go (default .data/mail-catcher)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.MAIL_CATCHER_PORT ?? 2525);
const dir = resolve(process.env.MAIL_CATCHER_DIR ?? '.data/mail-catcher');
mkdirSync(dir, { recursive: true });
let n = 0;

const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth: (_auth, _session, cb) => cb(null, { user: 'demo' }),
  onData(stream, session, cb) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks);
      const subject = /^Subject: (.*)$/im.exec(raw.toString('utf8'))?.[1] ?? '';
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++n}.eml`);
      writeFileSync(file, raw);
      const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
      process.stdout.write(`${new Date().toISOString()}  from ${session.envelope.mailFrom ? session.envelope.mailFrom.address : '?'}  to ${to}\n  subject: ${subject}\n  ${raw.length} bytes → ${file}\n`);
      cb();
    });
  },
});
server.on('error', (err) => process.stderr.write(`mail catcher: ${err.message}\n`));
server.listen(port, '127.0.0.1', () => process.stdout.write(`Mail catcher listening on 127.0.0.1:${port}; mails are saved in ${dir}\n`));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
