import {
  FIRMWARE_CHUNK_BYTES, firmwarePackageEndpoints, type FirmwareUploadStart, type FirmwareUploadStatus,
} from '@ess/contract/firmware';
import { call, request, RequestError } from '../../platform/request.ts';

/**
 * The console's side of the chunked, resumable package upload (issue 22). The rules:
 *
 * - `start` checks the description on the server (semver, type, limit) before any byte is sent;
 *   the server answers with the session and the chunk size to send.
 * - Chunks are sent one at a time from the offset the server holds (`received`).
 * - A chunk that fails for the connection (no answer, 5xx, 408, 409 offset mismatch, 429) is not
 *   re-sent blindly: after a back-off (1 s, 2 s, 4 s … up to 30 s) the upload status call says how
 *   many bytes the server holds, and the upload goes on from there. After MAX_ATTEMPTS failures in
 *   a row it stops as "interrupted"; resume() asks the status again and continues.
 * - Any other refusal (4xx: too large, session gone) ends the upload as failed with the server's text.
 * - pause() aborts the chunk in flight; resume() asks the status and continues from what arrived.
 * - When every byte is there, `finish` makes the package (the server computes the SHA-256 and
 *   checks the signature) and returns its id.
 * - The session id is kept per file (name, size, modification time) in sessionStorage, so picking
 *   the same file again after a reload resumes the session instead of sending everything again.
 */

export type UploadPhase = 'idle' | 'starting' | 'uploading' | 'paused' | 'retrying' | 'interrupted' | 'finishing' | 'done' | 'failed' | 'aborted';

export interface UploadSnapshot {
  phase: UploadPhase;
  uploadId: string | null;
  size: number;
  received: number;
  /** 0–100. */
  percent: number;
  /** Failures in a row of the current chunk. */
  attempts: number;
  /** The package made by finish. */
  packageId: number | null;
  /** Why it failed or is interrupted (already a text for the user). */
  error: string | null;
}

export const MAX_ATTEMPTS = 6;
export const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000] as const;
const STORE_PREFIX = 'ess.firmware.upload.';

/** Statuses of a chunk refusal that mean "ask where the server is and go on". */
export const isResumable = (e: unknown): boolean =>
  e instanceof RequestError && (e.status === 0 || e.status >= 500 || e.status === 408 || e.status === 409 || e.status === 429);

/** The key a file's session is kept under. */
export const fileKey = (f: File | Blob & { name?: string; lastModified?: number }): string => `${STORE_PREFIX}${f.name ?? 'blob'}|${f.size}|${f.lastModified ?? 0}`;

function readStore(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStore(key: string, v: string | null): void {
  try {
    if (v === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, v);
  } catch {
    // storage unavailable: no resume across reloads
  }
}

const quiet = { loading: false, noMessage: true } as const;

export class ChunkedUpload {
  private snap: UploadSnapshot;
  private chunkSize = FIRMWARE_CHUNK_BYTES;
  private controller: AbortController | null = null;
  private running = false;
  private wantPause = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<(s: UploadSnapshot) => void>();

  constructor(
    private readonly file: Blob & { name?: string; lastModified?: number },
    private readonly description: Omit<FirmwareUploadStart, 'size' | 'fileName'>,
  ) {
    this.snap = { phase: 'idle', uploadId: null, size: file.size, received: 0, percent: 0, attempts: 0, packageId: null, error: null };
  }

  get snapshot(): UploadSnapshot {
    return this.snap;
  }

  subscribe(fn: (s: UploadSnapshot) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<UploadSnapshot>): void {
    const next = { ...this.snap, ...patch };
    next.percent = next.size > 0 ? Math.floor((next.received / next.size) * 100) : 0;
    this.snap = next;
    for (const fn of this.listeners) fn(next);
  }

  /** Starts the session (or takes up the one kept for this file) and sends the file. Resolves when it ended (done, failed, paused, interrupted or aborted). */
  async start(): Promise<UploadSnapshot> {
    if (this.running) return this.snap;
    this.set({ phase: 'starting', error: null });
    const kept = readStore(fileKey(this.file));
    let status: FirmwareUploadStatus | null = null;
    if (kept) {
      status = await call(firmwarePackageEndpoints.uploadStatus, { uploadId: kept }, quiet).catch(() => null);
      if (status && status.state !== 'uploading') status = null;
    }
    if (!status) {
      try {
        status = await call(
          firmwarePackageEndpoints.uploadStart,
          { ...this.description, fileName: this.file.name ?? 'firmware.bin', size: this.file.size },
          { loading: false, noMessage: true },
        );
      } catch (e) {
        this.set({ phase: 'failed', error: e instanceof Error ? e.message : String(e) });
        return this.snap;
      }
    }
    this.accept(status);
    writeStore(fileKey(this.file), status.uploadId);
    return this.run();
  }

  /** Stops after aborting the chunk in flight; resume() goes on. */
  pause(): void {
    if (this.snap.phase === 'done' || this.snap.phase === 'failed' || this.snap.phase === 'aborted') return;
    this.wantPause = true;
    this.clearTimer();
    this.controller?.abort();
    if (!this.running) this.set({ phase: 'paused' });
  }

  /** Asks the server how much it holds and goes on from there (after a pause or an interruption). */
  async resume(): Promise<UploadSnapshot> {
    if (this.running || !this.snap.uploadId) return this.snap;
    this.wantPause = false;
    this.set({ phase: 'uploading', attempts: 0, error: null });
    try {
      this.accept(await call(firmwarePackageEndpoints.uploadStatus, { uploadId: this.snap.uploadId }, quiet));
    } catch (e) {
      if (!isResumable(e)) return this.fail(e);
      this.set({ phase: 'interrupted', error: e instanceof Error ? e.message : String(e) });
      return this.snap;
    }
    return this.run();
  }

  /** Drops the session and its bytes on the server. */
  async abort(): Promise<void> {
    this.wantPause = true;
    this.clearTimer();
    this.controller?.abort();
    const id = this.snap.uploadId;
    this.set({ phase: 'aborted' });
    writeStore(fileKey(this.file), null);
    if (id) await call(firmwarePackageEndpoints.uploadAbort, { uploadId: id }, quiet).catch(() => undefined);
  }

  private accept(s: FirmwareUploadStatus): void {
    if (s.chunkSize > 0) this.chunkSize = s.chunkSize;
    this.set({ uploadId: s.uploadId, size: s.size, received: s.received, packageId: s.packageId ?? this.snap.packageId });
  }

  private fail(e: unknown): UploadSnapshot {
    this.set({ phase: 'failed', error: e instanceof Error ? e.message : String(e) });
    writeStore(fileKey(this.file), null);
    return this.snap;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.timer = setTimeout(() => {
        this.timer = null;
        resolve();
      }, ms);
    });
  }

  private async sendChunk(uploadId: string, offset: number): Promise<FirmwareUploadStatus> {
    const blob = this.file.slice(offset, Math.min(offset + this.chunkSize, this.snap.size));
    this.controller = new AbortController();
    try {
      return await request<FirmwareUploadStatus>({
        url: firmwarePackageEndpoints.uploadChunk.path,
        method: 'POST',
        bodyKind: 'form',
        data: { file: blob },
        query: { uploadId, offset },
        signal: this.controller.signal,
        ...quiet,
      });
    } finally {
      this.controller = null;
    }
  }

  private async run(): Promise<UploadSnapshot> {
    this.running = true;
    try {
      const uploadId = this.snap.uploadId!;
      this.set({ phase: 'uploading' });
      while (this.snap.received < this.snap.size) {
        if (this.wantPause) {
          this.set({ phase: 'paused' });
          return this.snap;
        }
        try {
          this.accept(await this.sendChunk(uploadId, this.snap.received));
          if (this.snap.attempts) this.set({ attempts: 0, phase: 'uploading', error: null });
        } catch (e) {
          if (this.wantPause) {
            this.set({ phase: 'paused' });
            return this.snap;
          }
          if (!isResumable(e)) return this.fail(e);
          const attempts = this.snap.attempts + 1;
          const error = e instanceof Error ? e.message : String(e);
          if (attempts >= MAX_ATTEMPTS) {
            this.set({ phase: 'interrupted', attempts, error });
            return this.snap;
          }
          this.set({ phase: 'retrying', attempts, error });
          await this.wait(BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)]!);
          if (this.wantPause) {
            this.set({ phase: 'paused' });
            return this.snap;
          }
          // Where is the server? Resume from what it holds (a chunk may have arrived without its answer).
          try {
            this.accept(await call(firmwarePackageEndpoints.uploadStatus, { uploadId }, quiet));
            this.set({ phase: 'uploading' });
          } catch (s) {
            if (!isResumable(s)) return this.fail(s);
          }
        }
      }
      this.set({ phase: 'finishing' });
      try {
        const made = await call(firmwarePackageEndpoints.uploadFinish, { uploadId }, quiet);
        writeStore(fileKey(this.file), null);
        this.set({ phase: 'done', packageId: made.id, error: null });
      } catch (e) {
        // A refused finish (wrong SHA-256, signature that does not verify) ends the session on the server.
        return this.fail(e);
      }
      return this.snap;
    } finally {
      this.running = false;
    }
  }
}
