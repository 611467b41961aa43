#!/usr/bin/env node
// `npm run sms-catcher`: a local stand-in for Twilio's Messages API, so the demo's SMS channel
// ("演示短信（本地）", endpoint http://127.0.0.1:8627) sends somewhere a new user can watch
// without a provider account. It answers POST /2010-04-01/Accounts/{AccountSid}/Messages.json as
// Twilio documents it (HTTP Basic auth required, form body To/From/Body, 201 with the message's
// sid; 400 with code 21211 for a "To" that is not E.164, 401 with 20003 without credentials),
// prints every message, and lists them at GET / (JSON, newest first). Any credentials are taken:
// it is a catcher, not a check. Never part of the product: the server does not import it.
//   SMS_CATCHER_PORT (default 8627; 0 = any free port), SMS_CATCHER_HOST (default 127.0.0.1)
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.SMS_CATCHER_PORT ?? 8627);
const host = process.env.SMS_CATCHER_HOST ?? '127.0.0.1';
const messages = [];
const MAX_KEPT = 500;

function answer(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body, null, 2));
}
const twilioError = (res, status, code, message) =>
  answer(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/') return answer(res, 200, { count: messages.length, messages: [...messages].reverse() });
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (req.method !== 'POST' || !m) return twilioError(res, 404, 20404, 'The requested resource was not found');
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const user = scheme === 'Basic' ? Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':')[0] : '';
    if (!user) return twilioError(res, 401, 20003, 'Authenticate');
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? form.get('MessagingServiceSid') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const now = new Date();
    const message = { sid, account_sid: decodeURIComponent(m[1]), to, from, body, status: 'queued', date_created: now.toUTCString(), api_version: '2010-04-01', direction: 'outbound-api', num_segments: '1', error_code: null, error_message: null, price: null };
    messages.push(message);
    if (messages.length > MAX_KEPT) messages.shift();
    process.stdout.write(`[${now.toISOString()}] SMS ${sid} ${from || '-'} → ${to}\n  ${body.replace(/\n/g, '\n  ')}\n`);
    return answer(res, 201, message);
  });
});

server.listen(port, host, () => {
  const { port: bound } = server.address();
  process.stdout.write(`SMS catcher (Twilio Messages API) listening on http://${host}:${bound}; messages at GET /\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
