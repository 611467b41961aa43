import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trackRequest, useLoadingStore } from '../platform/feedback/loading.ts';
import { FullScreenLoading } from './FullScreenLoading.tsx';

beforeEach(() => {
  vi.useFakeTimers();
  useLoadingStore.setState({ running: 0, visible: false });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('full-screen spinner component (§4)', () => {
  it('shows "Loading..." at size 32 once a request has run for 1000 ms, and goes when it ends', () => {
    render(<FullScreenLoading />);
    let end = () => undefined as void;
    act(() => {
      end = trackRequest();
    });
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(screen.queryByText('Loading...')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('Loading...')).toBeTruthy();
    const icon = document.querySelector('.anticon-loading') as HTMLElement;
    expect(icon.style.fontSize).toBe('32px');
    act(() => end());
    expect(screen.queryByText('Loading...')).toBeNull();
  });
});
