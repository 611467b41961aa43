import { deviceEndpoints, type ImportRefusal, type ImportResult, type ImportRowError } from '@ess/contract/device';
import type { EndpointInput } from '@ess/contract/endpoint';
import type { OptionSource } from '../../components/crud/index.ts';
import { call, callFile, RequestError } from '../../platform/request.ts';
import { deviceKeys } from './device.keys.ts';

/** The calls of /product/equipment and /product/replace beyond the resource layer. */
export const equipmentApi = {
  devices: (body: { siteId: number; productId?: number }) => call(deviceEndpoints.list, body, { loading: false }),
  checkEms: (siteId: number) => call(deviceEndpoints.checkEms, { siteId }),
  changeProducts: (siteId: number) => call(deviceEndpoints.changeProducts, { siteId }, { loading: false }),
  change: (body: ChangeBody) => call(deviceEndpoints.change, body),
  exportProductData: (productId: number, siteId?: number) => callFile(deviceEndpoints.productExport, { productId, ...(siteId ? { siteId } : {}) }),
};

export type ChangeBody = NonNullable<EndpointInput<typeof deviceEndpoints.change>>;
/** The device and the product data imports (the same declaration type): xlsx uploads answering the counts. */
export type ImportEndpoint = typeof deviceEndpoints.import;

export type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; tip: string; errors: ImportRowError[] };

/**
 * An xlsx import whose refusal carries a per-row report: the server answers 406 with the first
 * error as tipMsg and `{ historyId, errors }` as JSON in errorMsg. Other failures keep the tip only.
 */
export async function importSheet(ep: ImportEndpoint, file: File): Promise<ImportOutcome> {
  try {
    const result = await call(ep, { file }, { noMessage: true });
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    const tip = err.envelope?.tipMsg ?? err.message;
    let errors: ImportRowError[] = [];
    try {
      errors = (JSON.parse(err.envelope?.errorMsg ?? '') as ImportRefusal).errors ?? [];
    } catch {
      errors = [];
    }
    return { ok: false, tip, errors };
  }
}

/** Devices of one station (parent picker of the edit form). */
export const stationDeviceSource = (siteId: number | undefined): OptionSource | null =>
  siteId
    ? {
        queryKey: deviceKeys.stationDevices(siteId),
        load: async () => (await equipmentApi.devices({ siteId })).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` })),
      }
    : null;
