import type { LiveEventData, LiveEventName } from '@ess/contract/events';
import { useEffect, useRef } from 'react';
import { liveEvents } from './live-events.ts';

/**
 * Calls `handler` for each live event of that name while the component is mounted; the latest
 * handler is used without re-subscribing. Typical use: invalidate the query keys the event concerns.
 */
export function useLiveEvent<N extends LiveEventName>(name: N, handler: (data: LiveEventData<N>) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => liveEvents.on(name, (data) => ref.current(data)), [name]);
}
