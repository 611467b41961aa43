import { LOADING_DELAY_MS } from '@ess/contract/constants';
import { create } from 'zustand';

interface LoadingState {
  /** Tracked requests that have not finished. */
  running: number;
  /** The full-screen spinner (product-spec §4). */
  visible: boolean;
}

export const useLoadingStore = create<LoadingState>(() => ({ running: 0, visible: false }));

/**
 * Registers a running request. The spinner appears when this request is still running after
 * LOADING_DELAY_MS (1000 ms) and disappears once every running request has finished. Returns
 * the function that ends the request (calling it twice is harmless).
 */
export function trackRequest(): () => void {
  let ended = false;
  useLoadingStore.setState((s) => ({ running: s.running + 1 }));
  const timer = setTimeout(() => {
    if (!ended) useLoadingStore.setState({ visible: true });
  }, LOADING_DELAY_MS);
  return () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    useLoadingStore.setState((s) => {
      const running = s.running - 1;
      return running === 0 ? { running, visible: false } : { running };
    });
  };
}
