import { TOKEN_STORAGE_KEY } from '@ess/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordUi } from '../test/http.ts';
import { ContentTypeError, EventStreamParser, LiveEventClient, type StreamMessage } from './live-events.ts';

/** A fake server: each fetch gets a stream the test writes to. */
function server(respond: 'stream' | 'pending' | 'reject' | Response = 'stream') {
  const streams: { push: (text: string) => void; close: () => void; signal: AbortSignal }[] = [];
  const calls: RequestInit[] = [];
  let mode = respond;
  const fetchImpl = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
    calls.push(init ?? {});
    const signal = init!.signal!;
    if (mode === 'pending') return new Promise<Response>(() => undefined);
    if (mode === 'reject') return Promise.reject(new TypeError('network down'));
    if (mode instanceof Response) return Promise.resolve(mode);
    const encoder = new TextEncoder();
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => (ctl = c) });
    signal.addEventListener('abort', () => ctl.error(new DOMException('aborted', 'AbortError')));
    streams.push({ push: (t) => ctl.enqueue(encoder.encode(t)), close: () => ctl.close(), signal });
    return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } }));
  });
  return {
    fetchImpl, streams, calls,
    set mode(m: typeof respond) {
      mode = m;
    },
  };
}

function channel() {
  const posted: unknown[] = [];
  return {
    posted,
    postMessage: (m: unknown) => posted.push(m),
    close: vi.fn(),
    onmessage: null as ((ev: MessageEvent) => void) | null,
  };
}

let visibility: DocumentVisibilityState = 'visible';
let ui: ReturnType<typeof recordUi>;
beforeEach(() => {
  vi.useFakeTimers();
  ui = recordUi();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
let client: LiveEventClient | null = null;
afterEach(() => {
  client?.stop();
  client = null;
});

function make(s: ReturnType<typeof server>, extra: { onError?: (e: unknown) => void } = {}) {
  const ch = channel();
  const errors: unknown[] = [];
  client = new LiveEventClient({ fetch: s.fetchImpl, channel: ch, onError: extra.onError ?? ((e) => errors.push(e)) });
  return { client, ch, errors };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('event-stream parser', () => {
  it('joins data lines, keeps id and retry, ignores comments, survives split chunks and CRLF', () => {
    const got: StreamMessage[] = [];
    const p = new EventStreamParser((m) => got.push(m));
    p.feed(': comment\r\nevent: Unr');
    p.feed('ead\r\ndata: {"count"\r');
    p.feed('\ndata: :3}\r\nid: 7\r\nretry: 1500\r\n\r\n');
    p.feed('data: plain\n\n');
    expect(got).toEqual([
      { event: 'Unread', data: '{"count"\n:3}', id: '7', retry: 1500 },
      { event: 'message', data: 'plain', id: '7', retry: undefined },
    ]);
  });
});

describe('live-event client (§4)', () => {
  it('opens the stream with the request headers', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-9');
    const s = server();
    make(s).client.start();
    await flush();
    const headers = s.calls[0]!.headers as Record<string, string>;
    expect(headers.Authorization).toBe('tok-9');
    expect(headers.Accept).toBe('text/event-stream');
    expect(s.fetchImpl.mock.calls[0]![0]).toBe('/api/manager/basic/sse/connect');
  });

  it('opens the stream at low priority (the page loads first)', async () => {
    const s = server();
    make(s).client.start();
    await flush();
    expect(s.calls[0]!.priority).toBe('low');
  });

  describe('started while the page is still loading', () => {
    let readyState: DocumentReadyState = 'loading';
    beforeEach(() => {
      readyState = 'loading';
      Object.defineProperty(document, 'readyState', { configurable: true, get: () => readyState });
    });
    afterEach(() => {
      // Back to jsdom's own (a loaded document).
      delete (document as { readyState?: DocumentReadyState }).readyState;
    });

    it("opens the stream on the window's load event, once", async () => {
      const s = server();
      const { client: c } = make(s);
      c.start();
      await flush();
      expect(s.fetchImpl).not.toHaveBeenCalled();
      readyState = 'complete';
      window.dispatchEvent(new Event('load'));
      window.dispatchEvent(new Event('load'));
      await flush();
      expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    });

    it('a tab that comes back before the load event opens it then, and the load event does not open a second', async () => {
      const s = server();
      const { client: c } = make(s);
      c.start();
      document.dispatchEvent(new Event('visibilitychange'));
      await flush();
      expect(s.fetchImpl).toHaveBeenCalledTimes(1);
      window.dispatchEvent(new Event('load'));
      await flush();
      expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    });

    it('stopped before the load event, it never opens', async () => {
      const s = server();
      const { client: c } = make(s);
      c.start();
      c.stop();
      window.dispatchEvent(new Event('load'));
      await flush();
      expect(s.fetchImpl).not.toHaveBeenCalled();
    });
  });

  it('on 401 goes to the login page (replace) and stops', async () => {
    const s = server(new Response('', { status: 401, headers: { 'content-type': 'application/json' } }));
    const { client: c } = make(s);
    c.start();
    await flush();
    expect(ui.navigations).toEqual([{ to: '/login', replace: true }]);
    expect(c.isRunning).toBe(false);
    await vi.advanceTimersByTimeAsync(200_000);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('errors when the content type is not text/event-stream, without retrying', async () => {
    const s = server(new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }));
    const { client: c, errors } = make(s);
    c.start();
    await flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ContentTypeError);
    expect((errors[0] as Error).message).toContain('expected text/event-stream');
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('by default rethrows stream errors outside the stream', async () => {
    const s = server(new Response('{}', { status: 200, headers: { 'content-type': 'text/html' } }));
    client = new LiveEventClient({ fetch: s.fetchImpl, channel: null });
    client.start();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(() => vi.advanceTimersByTime(0)).toThrow('expected text/event-stream');
  });

  it('a heartbeat updates the last-heartbeat time and is not dispatched', async () => {
    const s = server();
    const { client: c, ch } = make(s);
    const seen = vi.fn();
    c.on('heartbeat', seen);
    c.start();
    await flush();
    const before = c.lastHeartbeat;
    await vi.advanceTimersByTimeAsync(30_000);
    s.streams[0]!.push('event: heartbeat\ndata: {"time":1}\n\n');
    await flush();
    expect(c.lastHeartbeat - before).toBe(30_000);
    expect(seen).not.toHaveBeenCalled();
    expect(ch.posted).toEqual([]);
  });

  it('other events go to other tabs and to local listeners by name with parsed JSON', async () => {
    const s = server();
    const { client: c, ch } = make(s);
    const unread = vi.fn();
    const popup = vi.fn();
    c.on('Unread', unread);
    c.on('PopupWindow', popup);
    c.start();
    await flush();
    s.streams[0]!.push('event: Unread\nid: 3\ndata: {"count":4}\n\n');
    await flush();
    expect(unread).toHaveBeenCalledWith({ count: 4 }, expect.objectContaining({ event: 'Unread', id: '3' }));
    expect(popup).not.toHaveBeenCalled();
    expect(ch.posted).toEqual([{ event: 'Unread', data: '{"count":4}', id: '3' }]);
  });

  it('dispatches events broadcast by another tab without broadcasting them again', async () => {
    const s = server();
    const { client: c, ch } = make(s);
    const kanban = vi.fn();
    c.on('RefreshAlarmKanban', kanban);
    c.start();
    await flush();
    ch.onmessage!(new MessageEvent('message', { data: { event: 'RefreshAlarmKanban', data: '{"siteId":2}', id: '1' } }));
    expect(kanban).toHaveBeenCalledWith({ siteId: 2 }, expect.anything());
    expect(ch.posted).toEqual([]);
  });

  it('the watcher runs every 65 s and restarts after 60 s without a heartbeat, counting a reconnect', async () => {
    const s = server();
    const { client: c } = make(s);
    c.start();
    await flush();
    // A heartbeat at 5.001 s is 59.999 s old at the first check: no restart.
    await vi.advanceTimersByTimeAsync(5001);
    s.streams[0]!.push('event: heartbeat\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(65_000 - 5001 - 1);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    expect(c.reconnects).toBe(0);
    // At the next check (130 s) the heartbeat is 124.999 s old.
    await vi.advanceTimersByTimeAsync(64_999);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    s.mode = 'pending';
    await vi.advanceTimersByTimeAsync(1);
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
    expect(s.streams[0]!.signal.aborted).toBe(true);
    expect(c.reconnects).toBe(1);
  });

  it('a heartbeat exactly 60 s old at a check counts as missing', async () => {
    const s = server();
    const { client: c } = make(s);
    c.start();
    await flush();
    await vi.advanceTimersByTimeAsync(5000);
    s.streams[0]!.push('event: heartbeat\ndata: {}\n\n');
    s.mode = 'pending';
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
    expect(c.reconnects).toBe(1);
  });

  it('pauses after 3 reconnects, and an open with 200 resets the counter and resumes the watcher', async () => {
    const s = server('pending');
    const { client: c } = make(s);
    c.start();
    await vi.advanceTimersByTimeAsync(65_000 * 3);
    expect(s.fetchImpl).toHaveBeenCalledTimes(4);
    expect(c.reconnects).toBe(3);
    expect(c.paused).toBe(true);
    await vi.advanceTimersByTimeAsync(65_000 * 5);
    expect(s.fetchImpl).toHaveBeenCalledTimes(4);
    // Back on the tab: a fresh stream opens with 200.
    s.mode = 'stream';
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(s.fetchImpl).toHaveBeenCalledTimes(5);
    expect(c.reconnects).toBe(0);
    expect(c.paused).toBe(false);
    s.mode = 'pending';
    await vi.advanceTimersByTimeAsync(65_000);
    expect(s.fetchImpl).toHaveBeenCalledTimes(6);
  });

  it('retries 1000 ms after a stream error', async () => {
    const s = server('reject');
    const { client: c, errors } = make(s);
    c.start();
    await flush();
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    s.mode = 'stream';
    await vi.advanceTimersByTimeAsync(1);
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('stays open while the tab is hidden and reconnects when it is visible again', async () => {
    const s = server();
    const { client: c } = make(s);
    c.start();
    await flush();
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(s.streams[0]!.signal.aborted).toBe(false);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(s.streams[0]!.signal.aborted).toBe(true);
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
    expect(c.reconnects).toBe(0);
  });

  it('when the server closes the stream it stays closed until the watcher restarts it', async () => {
    const s = server();
    const { client: c } = make(s);
    c.start();
    await flush();
    s.streams[0]!.close();
    await vi.advanceTimersByTimeAsync(64_999);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    s.mode = 'pending';
    await vi.advanceTimersByTimeAsync(1);
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
    expect(c.reconnects).toBe(1);
  });

  it("a stream the server ends with a close event (superseded) is not restarted by the watcher, only by the tab's return", async () => {
    const s = server();
    const { client: c, ch } = make(s);
    const closed = vi.fn();
    c.on('close', closed);
    c.start();
    await flush();
    s.streams[0]!.push('event: close\ndata: {"reason":"superseded"}\n\n');
    s.streams[0]!.close();
    await flush();
    expect(c.paused).toBe(true);
    // Not broadcast to the other tabs (their streams are open) nor dispatched.
    expect(ch.posted).toEqual([]);
    expect(closed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(65_000 * 4);
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    expect(c.reconnects).toBe(0);
    // Back on the tab: it opens again and the watcher resumes.
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(s.fetchImpl).toHaveBeenCalledTimes(2);
    expect(c.paused).toBe(false);
  });

  it('stop closes the stream, the watcher, the retries and the channel; start twice opens one stream', async () => {
    const s = server();
    const { client: c, ch } = make(s);
    c.start();
    c.start();
    await flush();
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
    c.stop();
    expect(s.streams[0]!.signal.aborted).toBe(true);
    expect(ch.close).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(65_000 * 4);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(s.fetchImpl).toHaveBeenCalledTimes(1);
  });
});
