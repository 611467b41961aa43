import WebSocket from 'ws';
import { PlatformError, type LiveStream } from './types.ts';

/**
 * A platform's WebSocket for the live streams: opened within the timeout (else `unreachable`),
 * pinged every 30 s (ThingsBoard drops a socket idle for 90 s), its text messages parsed as JSON
 * and handed over; `closed` resolves with why it ended. The address carries the session token
 * (both platforms' documented way), so it is never logged or put in an error.
 */
export interface OpenedSocket extends LiveStream {
  send(message: unknown): void;
  /** Ends the socket; `closed` resolves with this reason. */
  end(reason: string): void;
}

export const wsBase = (baseUrl: string) => baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '');

export function openSocket(url: string, timeoutMs: number, onMessage: (m: unknown) => void): Promise<OpenedSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, followRedirects: false });
    let opened = false;
    let why = 'closed';
    let ping: NodeJS.Timeout | undefined;
    const closed = new Promise<string>((done) => {
      ws.on('close', (code) => {
        clearInterval(ping);
        done(why === 'closed' ? `socket closed (${code})` : why);
      });
    });
    ws.on('error', (err: Error & { code?: string }) => {
      why = err.code ?? err.message.replace(/\?.*$/, '');
      if (!opened) reject(new PlatformError('unreachable', why));
    });
    ws.on('unexpected-response', (_req, res) => {
      why = `HTTP ${res.statusCode ?? 0}`;
      ws.terminate();
      reject(new PlatformError(res.statusCode === 401 || res.statusCode === 403 ? 'auth' : 'protocol', `WebSocket refused: ${why}`));
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let m: unknown;
      try {
        m = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
      } catch {
        return;
      }
      onMessage(m);
    });
    ws.on('open', () => {
      opened = true;
      ping = setInterval(() => ws.ping(), 30_000);
      ping.unref();
      resolve({
        closed,
        send: (message) => ws.send(JSON.stringify(message)),
        end: (reason) => {
          why = reason;
          ws.terminate();
        },
        close: () => {
          why = 'stopped';
          ws.terminate();
        },
      });
    });
  });
}
