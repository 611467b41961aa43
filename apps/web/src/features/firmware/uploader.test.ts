import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch, recordUi, type Call } from '../../test/http.ts';
import { callPath } from '../../test/page-test.ts';
import { BACKOFF_MS, ChunkedUpload, fileKey, MAX_ATTEMPTS } from './uploader.ts';

// The chunked uploader's client rules against a fake server behind a fake fetch: it holds the
// bytes it received, answers status calls, and can be told to drop the connection.

const CHUNK = 4;
const desc = { companyId: 1, deviceType: 'bms' as const, name: 'bms-fw', version: '1.2.0' };

interface FakeServer {
  received: number;
  size: number;
  /** Chunk calls to fail before answering (a broken connection: fetch rejects). */
  dropNext: number;
  /** Chunk calls whose bytes arrive but whose answer is lost. */
  loseAnswerNext: number;
  chunks: { offset: number; bytes: number }[];
  statusCalls: number;
  finished: boolean;
  started: number;
  refuseStart?: string;
  /** The server loses what it held once (the next chunk after the first is refused with 409). */
  rewindOnce?: boolean;
}

function fakeServer(size: number) {
  const s: FakeServer = { received: 0, size, dropNext: 0, loseAnswerNext: 0, chunks: [], statusCalls: 0, finished: false, started: 0 };
  const status = () => envelope({ uploadId: 'u_0123456789abcdef', state: s.finished ? 'finished' : 'uploading', size: s.size, received: s.received, chunkSize: CHUNK, expiresAt: '2026-11-30T00:00:00Z', packageId: s.finished ? 42 : null });
  const mock = mockFetch((c: Call) => {
    const path = callPath(c);
    if (path === '/firmware/package/upload/start') {
      s.started += 1;
      if (s.refuseStart) return json(envelope(null, 'A0400', s.refuseStart), 400);
      return json(status());
    }
    if (path === '/firmware/package/upload/query/one') {
      s.statusCalls += 1;
      return json(status());
    }
    if (path === '/firmware/package/upload/chunk') {
      const offset = Number(new URL(c.url, 'http://x').searchParams.get('offset'));
      if (s.dropNext > 0) {
        s.dropNext -= 1;
        throw new TypeError('Failed to fetch');
      }
      const file = (c.init.body as FormData).get('file') as Blob;
      if (s.rewindOnce && offset > 0) {
        s.rewindOnce = false;
        s.received = 0;
      }
      if (offset > s.received) return json(envelope(null, 'A0409', `分片偏移量不正确，服务器已接收 ${s.received} 字节，请从该位置续传`), 409);
      s.chunks.push({ offset, bytes: file.size });
      s.received = Math.max(s.received, offset + file.size);
      if (s.loseAnswerNext > 0) {
        s.loseAnswerNext -= 1;
        throw new TypeError('network changed');
      }
      return json(status());
    }
    if (path === '/firmware/package/upload/finish') {
      s.finished = true;
      return json(envelope({ id: 42 }));
    }
    if (path === '/firmware/package/upload/abort') return json(envelope(null));
    return json(envelope(null, 'A0404', 'unknown'), 404);
  });
  return { s, ...mock };
}

const file = (size: number) => new File([new Uint8Array(size).map((_, i) => i % 251)], 'fw.bin', { lastModified: 1000 });

beforeEach(() => {
  recordUi();
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('chunked upload (client rules)', () => {
  it('sends the file in the server\'s chunk size from offset 0 and finishes with the package id', async () => {
    const { s } = fakeServer(10);
    const up = new ChunkedUpload(file(10), desc);
    const seen: number[] = [];
    up.subscribe((x) => seen.push(x.percent));
    const end = await up.start();
    expect(end.phase).toBe('done');
    expect(end.packageId).toBe(42);
    expect(s.chunks).toEqual([{ offset: 0, bytes: 4 }, { offset: 4, bytes: 4 }, { offset: 8, bytes: 2 }]);
    expect(seen).toContain(40);
    expect(seen.at(-1)).toBe(100);
    // the session is forgotten once the package exists
    expect(sessionStorage.getItem(fileKey(file(10)))).toBeNull();
  });

  it('after a broken connection waits, asks the status and resumes from what the server holds (no byte sent twice)', async () => {
    vi.useFakeTimers();
    const { s } = fakeServer(12);
    s.loseAnswerNext = 1; // the first chunk arrives, its answer does not
    const up = new ChunkedUpload(file(12), desc);
    const done = up.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(up.snapshot.phase).toBe('retrying');
    expect(up.snapshot.attempts).toBe(1);
    expect(s.statusCalls).toBe(0);
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    const end = await done;
    expect(s.statusCalls).toBe(1);
    expect(end.phase).toBe('done');
    // bytes 0-3 were sent once: the upload went on from offset 4, not 0
    expect(s.chunks.map((c) => c.offset)).toEqual([0, 4, 8]);
  });

  it('backs off 1 s, 2 s, 4 s … and stops as interrupted after MAX_ATTEMPTS failures; resume() continues', async () => {
    vi.useFakeTimers();
    const { s } = fakeServer(8);
    s.dropNext = 100;
    const up = new ChunkedUpload(file(8), desc);
    const first = up.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(up.snapshot.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0] - 1);
    expect(s.statusCalls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(up.snapshot.attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(BACKOFF_MS.slice(1, MAX_ATTEMPTS - 1).reduce((a, b) => a + b, 0));
    const stopped = await first;
    expect(stopped.phase).toBe('interrupted');
    expect(stopped.attempts).toBe(MAX_ATTEMPTS);
    expect(stopped.error).toBeTruthy();
    // the network is back
    s.dropNext = 0;
    const end = await up.resume();
    expect(end.phase).toBe('done');
    expect(s.received).toBe(8);
  });

  it('a 409 offset refusal (the server holds less than the client sent) is resumed from the offset the status gives', async () => {
    vi.useFakeTimers();
    const { s } = fakeServer(8);
    s.rewindOnce = true;
    const up = new ChunkedUpload(file(8), desc);
    const done = up.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(up.snapshot.phase).toBe('retrying');
    expect(up.snapshot.error).toContain('服务器已接收 0 字节');
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    const end = await done;
    expect(end.phase).toBe('done');
    // chunk 0-3 sent again from the server's offset, then 4-7
    expect(s.chunks.map((c) => c.offset)).toEqual([0, 0, 4]);
  });

  it('pause aborts the chunk in flight; resume asks the status and goes on', async () => {
    const { s, fn } = fakeServer(12);
    let release: (() => void) | null = null;
    const base = fn.getMockImplementation()!;
    fn.mockImplementation(async (input, init) => {
      if (callPath({ url: input as string, init: {} as Call['init'] }).includes('/upload/chunk') && s.chunks.length === 1 && !release) {
        await new Promise<void>((resolve, reject) => {
          release = resolve;
          (init as RequestInit).signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      }
      return base(input, init);
    });
    const up = new ChunkedUpload(file(12), desc);
    const first = up.start();
    await vi.waitFor(() => expect(release).not.toBeNull());
    up.pause();
    const paused = await first;
    expect(paused.phase).toBe('paused');
    expect(paused.received).toBe(4);
    const before = s.statusCalls;
    const end = await up.resume();
    expect(s.statusCalls).toBe(before + 1);
    expect(end.phase).toBe('done');
    expect(s.chunks.map((c) => c.offset)).toEqual([0, 4, 8]);
  });

  it('a refusal that is not about the connection fails at once with the server\'s text, sending nothing', async () => {
    const { s } = fakeServer(8);
    s.refuseStart = '升级包超过大小上限 256 MB';
    const up = new ChunkedUpload(file(8), desc);
    const end = await up.start();
    expect(end.phase).toBe('failed');
    expect(end.error).toBe('升级包超过大小上限 256 MB');
    expect(s.chunks).toEqual([]);
  });

  it('picking the same file again after a reload takes up the kept session from where the server is', async () => {
    const { s } = fakeServer(12);
    s.received = 8; // an earlier page sent two chunks
    sessionStorage.setItem(fileKey(file(12)), 'u_0123456789abcdef');
    const up = new ChunkedUpload(file(12), desc);
    const end = await up.start();
    expect(s.started).toBe(0);
    expect(s.chunks).toEqual([{ offset: 8, bytes: 4 }]);
    expect(end.phase).toBe('done');
  });
});
