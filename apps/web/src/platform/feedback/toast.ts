import { TOAST_DURATION_MS } from '@ess/contract/constants';

export type ToastType = 'error' | 'success' | 'info' | 'warning';

export interface ToastRequest {
  type: ToastType;
  text: string;
  /** product-spec §8: 406 and other statuses show left-aligned text. */
  align?: 'left';
  /** product-spec §8: 406 and other statuses pause auto-close while hovered. */
  pauseOnHover?: boolean;
  /** Always TOAST_DURATION_MS (3000 ms, product-spec §9). */
  durationMs: number;
}

/** Where toasts are drawn; the app installs an antd-backed host, tests install a recorder. */
export interface ToastHost {
  show(toast: ToastRequest): void;
}

let host: ToastHost | null = null;
/** Toasts raised before the app has drawn its host (e.g. the guard's first 401) wait for it. */
let pending: ToastRequest[] = [];
const MAX_PENDING = 20;

export function setToastHost(next: ToastHost | null): void {
  host = next;
  if (!host) return;
  const waiting = pending;
  pending = [];
  for (const x of waiting) host.show(x);
}

export function toast(type: ToastType, text: string, extra: Pick<ToastRequest, 'align' | 'pauseOnHover'> = {}): void {
  const request: ToastRequest = { type, text, durationMs: TOAST_DURATION_MS, ...extra };
  if (host) {
    host.show(request);
    return;
  }
  if (type === 'error') console.error(text);
  if (pending.length < MAX_PENDING) pending.push(request);
}

/**
 * Auto-close timer that pauses while the pointer is over the toast and starts the full
 * duration again when it leaves.
 */
export class HoverTimer {
  private handle: ReturnType<typeof setTimeout> | null = null;
  private done = false;

  constructor(
    private readonly durationMs: number,
    private readonly onExpire: () => void,
  ) {
    this.arm();
  }

  pause(): void {
    if (this.handle !== null) clearTimeout(this.handle);
    this.handle = null;
  }

  resume(): void {
    if (!this.done && this.handle === null) this.arm();
  }

  cancel(): void {
    this.pause();
    this.done = true;
  }

  private arm(): void {
    this.handle = setTimeout(() => {
      this.handle = null;
      this.done = true;
      this.onExpire();
    }, this.durationMs);
  }
}
