import {
  API_BASE, SSE_CHECK_INTERVAL_MS, SSE_HEARTBEAT_TIMEOUT_MS, SSE_MAX_RECONNECTS, SSE_RETRY_MS,
} from '@ess/contract/constants';
import type { LiveEventData, LiveEventName } from '@ess/contract/events';
import { LOGIN_PATH, navigateTo } from './navigation.ts';
import { commonHeaders } from './request.ts';

export const LIVE_EVENTS_URL = `${API_BASE}/basic/sse/connect`;
export const LIVE_EVENTS_CHANNEL = 'ess-live-events';

/** One server-sent event as parsed from the stream (product-spec §3). */
export interface StreamMessage {
  event: string;
  data: string;
  id: string;
  retry?: number;
}

/**
 * Incremental text/event-stream parser: feed it decoded chunks, it calls back once per event
 * (a blank line ends an event; `data:` lines join with a newline; `:` lines are comments).
 */
export class EventStreamParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id = '';
  private retry: number | undefined;

  constructor(private readonly onMessage: (m: StreamMessage) => void) {}

  feed(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A trailing \r may be the first half of \r\n: wait for more input.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0 || this.event) {
        this.onMessage({ event: this.event || 'message', data: this.data.join('\n'), id: this.id, retry: this.retry });
      }
      this.data = [];
      this.event = '';
      this.retry = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        this.id = value;
        break;
      case 'retry': {
        const n = Number(value);
        if (Number.isInteger(n) && n >= 0) this.retry = n;
        break;
      }
      default:
        break;
    }
  }
}

type Handler = (data: unknown, message: StreamMessage) => void;

interface ChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((ev: MessageEvent) => void) | null;
}

export interface LiveEventClientOptions {
  fetch?: typeof fetch;
  /** Cross-tab channel; defaults to a BroadcastChannel where the browser has one. */
  channel?: ChannelLike | null;
  now?: () => number;
  headers?: () => Record<string, string>;
  /** Where stream errors go; by default they are rethrown outside the stream (reported as uncaught). */
  onError?: (error: unknown) => void;
  url?: string;
}

export class ContentTypeError extends Error {
  constructor(contentType: string | null) {
    super(`expected text/event-stream, got ${contentType ?? 'no content type'}`);
    this.name = 'ContentTypeError';
  }
}

const rethrow = (error: unknown) => {
  setTimeout(() => {
    throw error;
  }, 0);
};

/**
 * The live-event client of product-spec §4: a fetch-based event stream (so it can send the
 * Authorization header) with a heartbeat watcher, bounded restarts, cross-tab broadcast and
 * reconnect on returning to the tab.
 */
export class LiveEventClient {
  private running = false;
  private controller: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watcher: ReturnType<typeof setInterval> | null = null;
  private retryMs = SSE_RETRY_MS;
  private readonly handlers = new Map<string, Set<Handler>>();
  private channel: ChannelLike | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly headers: () => Record<string, string>;
  private readonly onError: (error: unknown) => void;
  private readonly url: string;

  /** Restarts made by the watcher since the last successful open. */
  reconnects = 0;
  /** Time of the last heartbeat (or of the start). */
  lastHeartbeat = 0;
  /**
   * True after SSE_MAX_RECONNECTS restarts without a successful open, or after the server's
   * `close` event (the stream was superseded): the watcher stops restarting.
   */
  paused = false;

  constructor(private readonly options: LiveEventClientOptions = {}) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.now = options.now ?? (() => Date.now());
    this.headers = options.headers ?? commonHeaders;
    this.onError = options.onError ?? rethrow;
    this.url = options.url ?? LIVE_EVENTS_URL;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Starts the stream (after a successful user-info fetch); calling it while running does nothing.
   * While the page is still loading (the first page of a visit) the stream opens once the window's
   * load event has fired: a request that never ends would otherwise hold one of the browser's
   * connections to the server while the page's own files and data are fetched. The watcher and
   * everything else start at once.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.reconnects = 0;
    this.paused = false;
    this.lastHeartbeat = this.now();
    this.retryMs = SSE_RETRY_MS;
    this.openChannel();
    document.addEventListener('visibilitychange', this.onVisibility);
    this.watcher = setInterval(() => this.check(), SSE_CHECK_INTERVAL_MS);
    if (document.readyState === 'complete') this.connect();
    else this.waitForLoad(true);
  }

  /** Waits for the window's load event before the first connect (start), or stops waiting. */
  private waitForLoad(wait: boolean): void {
    if (wait) window.addEventListener('load', this.onLoad);
    else window.removeEventListener('load', this.onLoad);
  }

  private readonly onLoad = () => {
    this.waitForLoad(false);
    if (this.running) this.connect();
  };

  /** Stops the stream, the watcher and the retries (the login page, sign-out). */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.waitForLoad(false);
    this.abort();
    if (this.watcher !== null) clearInterval(this.watcher);
    this.watcher = null;
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.channel?.close();
    this.channel = null;
  }

  /** Listens to one live event by name; returns the function that stops listening. */
  on<N extends LiveEventName>(name: N, handler: (data: LiveEventData<N>, message: StreamMessage) => void): () => void;
  on(name: string, handler: Handler): () => void;
  on(name: string, handler: Handler): () => void {
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  private openChannel(): void {
    if (this.options.channel !== undefined) this.channel = this.options.channel;
    else this.channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LIVE_EVENTS_CHANNEL);
    if (this.channel) {
      this.channel.onmessage = (ev: MessageEvent) => {
        const m = ev.data as StreamMessage | undefined;
        if (m && typeof m.event === 'string' && typeof m.data === 'string') this.deliver(m);
      };
    }
  }

  private readonly onVisibility = () => {
    // The stream stays open while hidden; coming back opens a fresh one.
    if (document.visibilityState === 'visible' && this.running) this.restart();
  };

  /** Heartbeat watcher, every SSE_CHECK_INTERVAL_MS. */
  private check(): void {
    if (!this.running || this.paused) return;
    if (this.now() - this.lastHeartbeat < SSE_HEARTBEAT_TIMEOUT_MS) return;
    this.reconnects += 1;
    this.restart();
    if (this.reconnects >= SSE_MAX_RECONNECTS) this.paused = true;
  }

  private restart(): void {
    // A restart before the load event (the watcher, the tab's return) is the first connect.
    this.waitForLoad(false);
    this.abort();
    this.connect();
  }

  private abort(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.controller?.abort();
    this.controller = null;
  }

  private scheduleRetry(controller: AbortController): void {
    if (!this.running || this.controller !== controller) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running && this.controller === controller) this.connect();
    }, this.retryMs);
  }

  private connect(): void {
    const controller = new AbortController();
    this.controller = controller;
    void this.run(controller);
  }

  private async run(controller: AbortController): Promise<void> {
    let res: Response;
    try {
      res = await this.fetchImpl(this.url, {
        method: 'GET',
        headers: { ...this.headers(), Accept: 'text/event-stream' },
        credentials: 'include',
        cache: 'no-store',
        // A request that stays open for the whole visit: it must not compete with the page's
        // files and data (and a page-load measurement such as Lighthouse does not wait for it).
        priority: 'low',
        signal: controller.signal,
      });
    } catch (e) {
      if (controller.signal.aborted) return;
      this.onError(e);
      this.scheduleRetry(controller);
      return;
    }
    if (controller.signal.aborted) return;
    if (res.status === 401) {
      this.stop();
      navigateTo(LOGIN_PATH, { replace: true });
      return;
    }
    const type = res.headers.get('content-type');
    if (!type?.toLowerCase().startsWith('text/event-stream')) {
      // Not an event stream: fatal for this connection (the watcher may restart it later).
      controller.abort();
      this.onError(new ContentTypeError(type));
      return;
    }
    if (res.status !== 200 || !res.body) {
      this.onError(new Error(`live events: HTTP ${res.status}`));
      this.scheduleRetry(controller);
      return;
    }
    this.reconnects = 0;
    this.paused = false;
    const parser = new EventStreamParser((m) => this.receive(m));
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (controller.signal.aborted) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch (e) {
      if (controller.signal.aborted) return;
      this.onError(e);
      this.scheduleRetry(controller);
      return;
    }
    // The server closed the stream: it stays closed until the watcher or the tab restarts it.
    if (this.controller === controller) this.controller = null;
  }

  private receive(m: StreamMessage): void {
    if (m.retry !== undefined) this.retryMs = m.retry;
    if (m.event === 'heartbeat') {
      this.lastHeartbeat = this.now();
      return;
    }
    if (m.event === 'close') {
      // The server ended this stream for a newer one of the same session or user (its stream
      // cap): the watcher must not restart it, or the tabs would take turns closing each other.
      // Coming back to the tab opens it again (and an open with 200 resumes the watcher).
      this.paused = true;
      return;
    }
    this.channel?.postMessage({ event: m.event, data: m.data, id: m.id });
    this.deliver(m);
  }

  /**
   * Hands a message to the local listeners of its event name, with its data parsed as JSON
   * (messages from this tab's stream and broadcasts from other tabs both arrive here).
   */
  deliver(m: StreamMessage): void {
    const set = this.handlers.get(m.event);
    if (!set || set.size === 0) return;
    let data: unknown;
    try {
      data = m.data === '' ? null : (JSON.parse(m.data) as unknown);
    } catch (e) {
      this.onError(e);
      return;
    }
    for (const h of [...set]) h(data, m);
  }
}

/** The console's one live-event client. */
export const liveEvents = new LiveEventClient();
