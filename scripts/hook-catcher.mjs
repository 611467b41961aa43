#!/usr/bin/env node
// `npm run hook-catcher`: a local receiver for the demo's hook ("本地接收器 · 告警产生", target
// http://127.0.0.1:8628/hooks/alarm), so a new user sees a hook's requests arrive without a system
// of their own. It prints every request (method, path, headers, body) and verifies its Standard
// Webhooks signature itself: webhook-signature holds "v1,<base64 HMAC-SHA256 of
// `${webhook-id}.${webhook-timestamp}.${body}`>" under the secret's base64 part (after "whsec_");
// the timestamp must lie within 5 minutes. It answers 200 (or HOOK_CATCHER_STATUS, to watch the
// dispatcher retry and its circuit open) and lists the requests at GET / (JSON, newest first).
// Never part of the product: the server does not import it. The station simulator hosts the same
// receiver (startHookCatcher, quiet: one line a request) when `npm start` plays the demo, so the
// demo hook has its receiver without a second terminal; run this one to watch the requests in full.
//   HOOK_CATCHER_PORT (default 8628; 0 = any free port), HOOK_CATCHER_HOST (default 127.0.0.1)
//   HOOK_SECRET (default: the demo hook's documented secret), HOOK_CATCHER_STATUS (default 200)
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** The demo hook's signing secret (apps/server/src/modules/hooks/hooks.demo.ts: DEMO_HOOK_SECRET). */
export const DEMO_SECRET = 'whsec_ZXNzLWNvbnNvbGUtZGVtby1ob29rLXNlY3JldC0zMmI=';
/** The demo hook's receiver (hooks.demo.ts: DEMO_HOOK_CATCHER_URL). */
export const DEMO_CATCHER_PORT = 8628;
const TOLERANCE_S = 300;
const MAX_KEPT = 500;

/** The Standard Webhooks check: "ok", or why not. */
export function verify(headers, body, whsec, now = Date.now()) {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (!id || !ts || !sigs) return 'missing webhook-id, webhook-timestamp or webhook-signature';
  if (!/^\d+$/.test(ts) || Math.abs(now / 1000 - Number(ts)) > TOLERANCE_S) return `timestamp ${ts} outside ±${TOLERANCE_S} s`;
  const key = Buffer.from(whsec.startsWith('whsec_') ? whsec.slice(6) : whsec, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest();
  for (const part of String(sigs).split(' ')) {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) continue;
    const got = Buffer.from(value, 'base64');
    if (got.length === expected.length && timingSafeEqual(got, expected)) return 'ok';
  }
  return 'signature does not match';
}

/**
 * Starts the receiver; resolves once it listens (rejects with the listen error, e.g. EADDRINUSE).
 * `quiet`: one line per request instead of its headers and body.
 */
export function startHookCatcher({ port = DEMO_CATCHER_PORT, host = '127.0.0.1', secret = DEMO_SECRET, status = 200, quiet = false, log = console.log } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'GET' && req.url === '/') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ count: requests.length, requests: [...requests].reverse() }, null, 2));
        return;
      }
      const signature = verify(req.headers, body, secret);
      const text = body.toString('utf8');
      const entry = { at: new Date().toISOString(), method: req.method, path: req.url, headers: req.headers, body: text, signature };
      requests.push(entry);
      if (requests.length > MAX_KEPT) requests.shift();
      if (quiet) log(`hook catcher: ${req.method} ${req.url} ${req.headers['x-ess-event-type'] ?? ''} ${req.headers['webhook-id'] ?? ''} signature ${signature}`);
      else {
        log(`\n── ${entry.at} ${req.method} ${req.url}  signature: ${signature}`);
        for (const [k, v] of Object.entries(req.headers)) log(`  ${k}: ${v}`);
        log(text.length > 4000 ? `${text.slice(0, 4000)}…` : text);
      }
      res.writeHead(signature === 'ok' ? status : 401, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ received: true, signature }));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const a = server.address();
      resolve({
        url: `http://${a.address}:${a.port}`,
        requests,
        close: () => new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

// Run as `npm run hook-catcher` (not when bundled into the simulator: its import.meta.url is the bundle's, the script then).
if (process.argv[1] && /hook-catcher\.mjs$/.test(process.argv[1]) && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const status = Number(process.env.HOOK_CATCHER_STATUS ?? 200);
  startHookCatcher({
    port: Number(process.env.HOOK_CATCHER_PORT ?? DEMO_CATCHER_PORT),
    host: process.env.HOOK_CATCHER_HOST ?? '127.0.0.1',
    secret: process.env.HOOK_SECRET ?? DEMO_SECRET,
    status,
  }).then(
    (c) => console.log(`hook catcher listening on ${c.url} (answers ${status}; GET / lists the requests)`),
    (err) => {
      console.error(err.code === 'EADDRINUSE'
        ? `hook catcher: the port is taken — \`npm start\` (its station simulator) already runs the demo's receiver; its requests: GET http://127.0.0.1:${DEMO_CATCHER_PORT}/`
        : `hook catcher: ${err.message}`);
      process.exit(1);
    },
  );
}
