/**
 * A small event-stream reader for tests: fetch + a ReadableStream reader parsing the
 * `id:` / `event:` / `data:` / `retry:` lines of GET /basic/sse/connect.
 */
export interface SseEvent {
  id: string | null;
  event: string;
  data: unknown;
  retry: number | null;
}

interface Waiter {
  match: (e: SseEvent) => boolean;
  resolve: (e: SseEvent) => void;
}

export class SseStream {
  /** Every event received so far, in order. */
  readonly events: SseEvent[] = [];
  /** Resolves when the server ends the stream (or the connection breaks). */
  readonly ended: Promise<void>;
  private readonly taken = new Set<SseEvent>();
  private waiters: Waiter[] = [];
  private isEnded = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly body: ReadableStream<Uint8Array> | null,
    private readonly abort: AbortController,
  ) {
    this.ended = this.pump();
  }

  /** Opens the stream; with a refused token the status is 401 and `json` holds the envelope. */
  static async open(base: string, token: string | null): Promise<SseStream & { json?: { errorCode: string; tipMsg: string } }> {
    const abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = token;
    const res = await fetch(new URL('/api/manager/basic/sse/connect', base), { headers, signal: abort.signal });
    if (!res.ok) {
      const json = (await res.json()) as { errorCode: string; tipMsg: string };
      return Object.assign(new SseStream(res.status, res.headers, null, abort), { json });
    }
    return new SseStream(res.status, res.headers, res.body, abort);
  }

  get closed(): boolean {
    return this.isEnded;
  }

  /** The first event not yet taken that matches, waiting up to `timeoutMs` for it. */
  next(match: (e: SseEvent) => boolean, timeoutMs = 10_000): Promise<SseEvent> {
    const have = this.events.find((e) => !this.taken.has(e) && match(e));
    if (have) {
      this.taken.add(have);
      return Promise.resolve(have);
    }
    return new Promise<SseEvent>((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching event within ${timeoutMs} ms; got: ${this.events.map((e) => e.event).join(', ')}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Waits for an event by name (and an optional condition on its data). */
  nextEvent<T = unknown>(name: string, where: (data: T) => boolean = () => true, timeoutMs?: number): Promise<SseEvent & { data: T }> {
    return this.next((e) => e.event === name && where(e.data as T), timeoutMs) as Promise<SseEvent & { data: T }>;
  }

  /** Whether the server ended the stream within `timeoutMs`. */
  async endsWithin(timeoutMs = 5000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const ended = await Promise.race([this.ended.then(() => true as const), timeout]);
    clearTimeout(timer);
    return ended;
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(): Promise<void> {
    if (!this.body) {
      this.isEnded = true;
      return;
    }
    const reader = this.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          this.dispatch(block);
        }
      }
    } catch {
      // aborted by close(), or the connection broke
    } finally {
      this.isEnded = true;
    }
  }

  private dispatch(block: string): void {
    let event = 'message';
    let id: string | null = null;
    let retry: number | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'retry') retry = Number(value);
    }
    if (data.length === 0) return;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // plain text data
    }
    const e: SseEvent = { id, event, data: parsed, retry };
    this.events.push(e);
    const waiter = this.waiters.find((w) => w.match(e));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      this.taken.add(e);
      waiter.resolve(e);
    }
  }
}
