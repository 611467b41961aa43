import { deviceEndpoints } from '@ess/contract/device';
import type { MeterPurpose } from '@ess/contract/telemetry';
import type { DataOption, OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { meteringKeys } from './metering.keys.ts';

/** The meters of a station (or of every station in scope), of one purpose or all: "name (code)". */
export const meterSourceOf = (siteId: number | null | undefined, purpose?: MeterPurpose | null, by: 'id' | 'code' = 'id'): OptionSource => ({
  queryKey: meteringKeys.meters(siteId ?? null, purpose ?? null, by),
  load: async () =>
    (await call(deviceEndpoints.list, { type: 'meter', ...(siteId ? { siteId } : {}), ...(purpose ? { meterPurpose: purpose } : {}) }, { loading: false })).map(
      (d): DataOption => ({ value: by === 'id' ? d.id : d.code, label: siteId ? `${d.name} (${d.code})` : `${d.name} (${d.code}) · ${d.siteName}` }),
    ),
});
