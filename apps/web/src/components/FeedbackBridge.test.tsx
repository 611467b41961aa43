import { act, fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../platform/feedback/toast.ts';
import { FeedbackBridge } from './FeedbackBridge.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  document.body.innerHTML = '';
});

const mount = () =>
  render(
    <App>
      <FeedbackBridge />
    </App>,
  );

/** The toast text element while it is shown; null once antd has started closing it (jsdom never ends the leave motion). */
const shown = (text: string) => {
  const el = screen.queryByText(text);
  const wrapper = el?.closest('.ant-message-notice-wrapper');
  return el && wrapper && !wrapper.className.includes('-leave') ? el : null;
};

describe('toasts drawn with antd (§8, §9)', () => {
  it('an error toast closes after 3000 ms', async () => {
    mount();
    act(() => toast('error', '服务器繁忙，请稍后再试'));
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(shown('服务器繁忙，请稍后再试')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(shown('服务器繁忙，请稍后再试')).toBeNull();
  });

  it('a 406-style toast is left-aligned and stays while hovered', async () => {
    mount();
    act(() => toast('error', '操作不符合业务规则', { align: 'left', pauseOnHover: true }));
    const el = shown('操作不符合业务规则')!;
    expect(el.style.textAlign).toBe('left');
    fireEvent.mouseEnter(el);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(shown('操作不符合业务规则')).not.toBeNull();
    fireEvent.mouseLeave(el);
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(shown('操作不符合业务规则')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(shown('操作不符合业务规则')).toBeNull();
  });
});
