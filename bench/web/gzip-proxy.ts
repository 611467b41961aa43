/**
 * A reverse proxy that gzips text responses (JS, CSS, HTML, JSON, SVG) on the way, as a
 * compressing load balancer in front of the server would (nginx `gzip on`, level 6 here). The
 * server itself sends the console's files uncompressed; `run.ts --compress` measures through this.
 * The live-event stream (text/event-stream) passes through untouched.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

const COMPRESSIBLE = /javascript|css|html|json|svg|text\/plain/;

export async function startGzipProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (ur) => {
        const type = String(ur.headers['content-type'] ?? '');
        const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
        const gzip = accepts && COMPRESSIBLE.test(type) && !type.includes('event-stream') && !ur.headers['content-encoding'] && req.method !== 'HEAD';
        const headers = { ...ur.headers };
        if (gzip) {
          delete headers['content-length'];
          headers['content-encoding'] = 'gzip';
          headers.vary = 'Accept-Encoding';
        }
        res.writeHead(ur.statusCode ?? 502, headers);
        if (gzip) ur.pipe(createGzip({ level: 6 })).pipe(res);
        else ur.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
