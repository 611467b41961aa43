// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToastHost, toast, type ToastRequest } from './toast.ts';

describe('toast before the host is drawn', () => {
  afterEach(() => setToastHost(null));

  it('keeps a toast raised before the app mounts and shows it once the host arrives, for 3000 ms', () => {
    setToastHost(null);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    toast('error', '未登录或登录已过期');
    const shown: ToastRequest[] = [];
    setToastHost({ show: (x) => shown.push(x) });
    expect(shown).toEqual([{ type: 'error', text: '未登录或登录已过期', durationMs: 3000 }]);
    toast('success', '保存成功');
    expect(shown).toHaveLength(2);
  });
});
