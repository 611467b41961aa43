import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, refusal, TargetRefused } from './dispatch.guard.ts';

/**
 * One HTTP request of a hook: to the guarded address (dispatch.guard.ts), within the hook's
 * timeout (connect + answer), no redirects followed (a 3xx is an answer, not a success), the
 * response's first 64 KB kept.
 */

export const BODY_KEEP_BYTES = 64 * 1024;

export interface HookRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface HookResponse {
  status: number;
  headers: Record<string, string>;
  /** The first BODY_KEEP_BYTES of the body (UTF-8, a cut character replaced). */
  body: string;
  truncated: boolean;
}

/** Why a request got no answer: refused by the guard, timed out, or the connection failed. */
export type NoAnswer = { kind: 'refused' | 'timeout' | 'connection'; message: string };

export type HookOutcome = { ok: true; response: HookResponse; durationMs: number } | { ok: false; error: NoAnswer; durationMs: number };

const flatHeaders = (h: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(h).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])));

/** Sends the request; never throws (every failure is an outcome). */
export function sendHookRequest(r: HookRequest): Promise<HookOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(r.url);
    } catch {
      resolve({ ok: false, error: { kind: 'refused', message: '目标 URL 格式不正确' }, durationMs: 0 });
      return;
    }
    const host = hostOf(url);
    if (isIP(host)) {
      const why = refusal(host, r.allowPrivate);
      if (why) {
        resolve({ ok: false, error: { kind: 'refused', message: why }, durationMs: 0 });
        return;
      }
    }
    const lib = url.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (o: HookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const body = r.body === null ? null : Buffer.from(r.body, 'utf8');
    const req = lib.request(
      url,
      {
        method: r.method,
        headers: { ...r.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        lookup: guardedLookup(r.allowPrivate),
        agent: false,
        // TLS: SNI and certificate checks are against the URL's name, whatever address it resolved to.
        ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let truncated = false;
        res.on('data', (c: Buffer) => {
          if (kept >= BODY_KEEP_BYTES) {
            truncated = true;
            return;
          }
          const part = c.subarray(0, BODY_KEEP_BYTES - kept);
          if (part.length < c.length) truncated = true;
          chunks.push(part);
          kept += part.length;
          if (truncated) res.destroy();
        });
        const finish = () =>
          done({
            ok: true,
            response: { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8'), truncated },
            durationMs: took(),
          });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ ok: false, error: { kind: 'timeout', message: `请求超时（${r.timeoutMs} 毫秒内没有应答）` }, durationMs: took() });
      req.destroy();
    }, r.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof TargetRefused || err.code === 'ESSRF') done({ ok: false, error: { kind: 'refused', message: err.message }, durationMs: took() });
      else done({ ok: false, error: { kind: 'connection', message: `${err.code ? `${err.code}: ` : ''}${err.message}` }, durationMs: took() });
    });
    if (body) req.end(body);
    else req.end();
  });
}
