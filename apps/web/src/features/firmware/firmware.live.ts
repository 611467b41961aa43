import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { firmwareKeys } from './firmware.keys.ts';

/**
 * How often an active rollout or a running capture is read again when no live event came: the
 * safety net of the event stream (a stream that is down or was superseded in this tab).
 */
export const FALLBACK_MS = 15_000;

/**
 * Live updates (the `FirmwareProgress` event of the event stream: a rollout's tasks or a
 * capture's devices changed): reads again what the screen shows of that rollout or capture.
 */
export function useFirmwareLive(): void {
  const client = useQueryClient();
  useLiveEvent('FirmwareProgress', (d) => {
    if (d.rolloutId !== undefined) {
      void client.invalidateQueries({ queryKey: firmwareKeys.rollout(d.rolloutId) });
      void client.invalidateQueries({ queryKey: firmwareKeys.tasks });
      void client.invalidateQueries({ queryKey: firmwareKeys.rolloutPages });
    }
    if (d.captureId !== undefined) {
      void client.invalidateQueries({ queryKey: firmwareKeys.log(d.captureId) });
      void client.invalidateQueries({ queryKey: firmwareKeys.logPages });
    }
  });
}
