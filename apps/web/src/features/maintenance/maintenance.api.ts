import { maintenanceEndpoints } from '@ess/contract/maintenance';
import type { EndpointInput } from '@ess/contract/endpoint';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../platform/request.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { maintKeys } from './maintenance.keys.ts';

const quiet = { loading: false } as const;

/** One work order with its items and results. */
export const useWorkOrder = (id: number | null) =>
  useQuery({ queryKey: maintKeys.order(id ?? 0), queryFn: () => call(maintenanceEndpoints.orderOne, { id: id! }, quiet), enabled: id !== null });

/** The order's state journal, oldest first. */
export const useWorkOrderLog = (id: number | null) =>
  useQuery({
    queryKey: maintKeys.orderLog(id ?? 0),
    queryFn: async () => (await call(maintenanceEndpoints.orderLogPage, { orderId: id!, current: 1, pageSize: 200 }, quiet)).records,
    enabled: id !== null,
  });

/** Defects recorded from an order. */
export const useOrderDefects = (id: number | null) =>
  useQuery({
    queryKey: maintKeys.orderDefects(id ?? 0),
    queryFn: () => call(maintenanceEndpoints.defectList, { workOrderId: id! }, quiet),
    enabled: id !== null,
  });

/** Work orders of a filter, as a list (the phone's orders of today). */
/** The list's filters as sent (instants as epoch ms). */
export type OrderListBody = NonNullable<EndpointInput<typeof maintenanceEndpoints.orderList>>;

export const useOrderList = (q: OrderListBody, enabled = true) =>
  useQuery({ queryKey: maintKeys.todayOrders(q), queryFn: () => call(maintenanceEndpoints.orderList, q, quiet), enabled, placeholderData: keepPreviousData });

/** One repair order with its timeline, snapshot and the source alarm's state. */
export const useRepairOrder = (id: number | null) =>
  useQuery({ queryKey: maintKeys.repair(id ?? 0), queryFn: () => call(maintenanceEndpoints.repairOne, { id: id! }, quiet), enabled: id !== null });

/** Reads every maintenance query again after an action. */
export function useMaintRefresh(): () => Promise<void> {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: maintKeys.all });
}

/** A repair order's alarm state is live: read it again when the server says alarms changed. */
export function useAlarmStateRefresh(id: number | null): void {
  const client = useQueryClient();
  useLiveEvent('RefreshAlarmKanban', () => {
    if (id !== null) void client.invalidateQueries({ queryKey: maintKeys.repair(id) });
  });
}
