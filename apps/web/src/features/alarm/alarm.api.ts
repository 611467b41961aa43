import { alarmEndpoints } from '@ess/contract/alarm';
import type { EndpointInput } from '@ess/contract/endpoint';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, callFile } from '../../platform/request.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { alarmKeys } from './alarm.keys.ts';

/** The kanban calls' optional query (contract alarmKanbanQuery): a station and a range of epoch ms. */
export interface KanbanQuery {
  siteId?: number;
  start?: number;
  end?: number;
}

/** The list's filters as sent (instants as epoch ms). */
export type AlarmListBody = NonNullable<EndpointInput<typeof alarmEndpoints.list>>;

/** Polling and live reads stay out of the full-screen spinner. */
const quiet = { loading: false } as const;
const clean = (q: KanbanQuery) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, number>;

export const alarmApi = {
  site: (q: KanbanQuery) => call(alarmEndpoints.kanbanSite, clean(q), quiet),
  chart: (q: KanbanQuery) => call(alarmEndpoints.kanbanChart, clean(q), quiet),
  cabinet: (q: KanbanQuery) => call(alarmEndpoints.kanbanCabinet, clean(q), quiet),
  list: (body: AlarmListBody) => call(alarmEndpoints.list, body, quiet),
  /** The alarms of a range (and station) as xlsx, in the user's language and zone. */
  exportFile: (q: KanbanQuery) => callFile(alarmEndpoints.export, clean(q)),
};

export const useKanbanSite = (q: KanbanQuery) => useQuery({ queryKey: alarmKeys.site(q), queryFn: () => alarmApi.site(q), placeholderData: keepPreviousData });
export const useKanbanChart = (q: KanbanQuery) => useQuery({ queryKey: alarmKeys.chart(q), queryFn: () => alarmApi.chart(q), placeholderData: keepPreviousData });
export const useKanbanCabinet = (q: KanbanQuery) =>
  useQuery({ queryKey: alarmKeys.cabinet(q), queryFn: () => alarmApi.cabinet(q), placeholderData: keepPreviousData });
export const useAlarmList = (body: AlarmListBody) => useQuery({ queryKey: alarmKeys.list(body), queryFn: () => alarmApi.list(body), placeholderData: keepPreviousData });

/** Reads every alarm query again when the server says a station's alarms changed. */
export function useAlarmLiveRefresh(): void {
  const client = useQueryClient();
  useLiveEvent('RefreshAlarmKanban', () => void client.invalidateQueries({ queryKey: alarmKeys.all }));
}
