import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a protocol peer saw it. */
export interface PeerRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface PeerAnswer {
  status: number;
  /** An object is sent as JSON; a string as it is (an HTML error page). */
  body: unknown;
  /** Held back this long before answering (timeouts). */
  delayMs?: number;
}

export interface HttpPeer {
  url: string;
  requests: PeerRequest[];
  /** The HTTP server (a peer that also speaks WebSocket takes its upgrades). */
  server: Server;
  close(): Promise<void>;
}

/**
 * A local HTTP server on a free port standing in for a third party's API (SMS providers): it
 * records every request and answers what the test's handler says, which checks the documented
 * request format and signature itself.
 */
export async function startHttpPeer(handler: (req: PeerRequest) => PeerAnswer): Promise<HttpPeer> {
  const requests: PeerRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: PeerRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      let answer: PeerAnswer;
      try {
        answer = handler(seen);
      } catch (e) {
        answer = { status: 599, body: { peerError: String(e) } };
      }
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json;charset=utf-8' });
        res.end(text);
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A port nothing listens on (bound, then released), for "connection refused". */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
