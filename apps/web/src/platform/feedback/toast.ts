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

const consoleHost: ToastHost = {
  show: (x) => {
    if (x.type === 'error') console.error(x.text);
    else console.info(x.text);
  },
};

let host: ToastHost = consoleHost;

export function setToastHost(next: ToastHost | null): void {
  host = next ?? consoleHost;
}

export function toast(type: ToastType, text: string, extra: Pick<ToastRequest, 'align' | 'pauseOnHover'> = {}): void {
  host.show({ type, text, durationMs: TOAST_DURATION_MS, ...extra });
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
