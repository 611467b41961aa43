import { alarmEndpoints } from '@ess/contract/alarm';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../platform/request.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { dashboardKeys } from './dashboard.keys.ts';

/**
 * The operations board's alarms in progress per station (the alarm kanban's station call): read
 * every `pollMs`, and at once when the server says a station's alarms changed.
 */
export function useBoardAlarms(pollMs: number) {
  const client = useQueryClient();
  useLiveEvent('RefreshAlarmKanban', () => void client.invalidateQueries({ queryKey: dashboardKeys.boardAlarms() }));
  return useQuery({
    queryKey: dashboardKeys.boardAlarms(),
    queryFn: () => call(alarmEndpoints.kanbanSite, {}, { loading: false }),
    refetchInterval: pollMs,
    placeholderData: keepPreviousData,
  });
}
