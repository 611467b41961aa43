import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local LibreTranslate peer for the e2e tests and screenshot scripts (docs.libretranslate.com):
 * POST /translate { q, source, target, format } answers { translatedText } of q's shape, each text
 * marked with the target ("[de] …", placeholders `{1}` kept as sent); GET /languages lists the
 * codes with their targets; a JSON body it cannot read answers 400 { error } as the service does.
 */
export async function startLibrePeer(): Promise<{ url: string; requests: { q: string[]; target: string }[]; close: () => Promise<void> }> {
  const codes = ['zh', 'zt', 'en', 'es', 'ja', 'id', 'fr', 'pt', 'de', 'ko', 'it', 'th', 'vi', 'ms', 'km', 'ar'];
  const requests: { q: string[]; target: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url?.startsWith('/languages')) return send(200, codes.map((code) => ({ code, name: code, targets: codes.filter((c) => c !== code) })));
      if (req.method !== 'POST' || !req.url?.startsWith('/translate')) return send(404, { error: 'Not Found' });
      let body: { q?: string | string[]; target?: string };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return send(400, { error: 'Invalid request: could not parse JSON' });
      }
      if (!body.q || !body.target) return send(400, { error: 'Invalid request: missing q or target parameter' });
      const q = Array.isArray(body.q) ? body.q : [body.q];
      requests.push({ q, target: body.target });
      const out = q.map((s) => `[${body.target}] ${s}`);
      send(200, { translatedText: Array.isArray(body.q) ? out : out[0] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
