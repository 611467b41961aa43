import { deviceEndpoints, type DeviceRecord, type DeviceStatus } from '@ess/contract/device';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../platform/request.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { deviceKeys } from './device.keys.ts';

/** How often the state column is read again (the simulator reports every 5 s). */
export const LIVE_STATUS_MS = 5000;

/** Devices whose state cells are on screen: one request reads them all. */
const shown = new Map<number, number>();

async function readStates(): Promise<Map<number, DeviceStatus>> {
  const ids = [...shown.keys()];
  if (ids.length === 0) return new Map();
  // `identifiers` names no property: only the devices' states come back, not their values.
  const rows = await call(deviceEndpoints.latestList, { deviceIds: ids.slice(0, 500), identifiers: ['stateOnly'] }, { loading: false, noMessage: true });
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** A device's state, refreshed every few seconds while it is shown; the listed state until then. */
export function LiveStatus({ row }: { row: Pick<DeviceRecord, 'id' | 'status'> }) {
  useEffect(() => {
    shown.set(row.id, (shown.get(row.id) ?? 0) + 1);
    return () => {
      const n = (shown.get(row.id) ?? 1) - 1;
      if (n <= 0) shown.delete(row.id);
      else shown.set(row.id, n);
    };
  }, [row.id]);
  const live = useQuery({ queryKey: deviceKeys.liveStatus(), queryFn: readStates, refetchInterval: LIVE_STATUS_MS, staleTime: LIVE_STATUS_MS / 2 });
  return <StatusBadge status={live.data?.get(row.id) ?? row.status} />;
}
