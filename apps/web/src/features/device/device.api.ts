import { deviceEndpoints } from '@ess/contract/device';
import type { EndpointInput } from '@ess/contract/endpoint';
import type { OptionSource } from '../../components/crud/index.ts';
import { call, callFile } from '../../platform/request.ts';
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

/** Devices of one station (parent picker of the edit form). */
export const stationDeviceSource = (siteId: number | undefined): OptionSource | null =>
  siteId
    ? {
        queryKey: deviceKeys.stationDevices(siteId),
        load: async () => (await equipmentApi.devices({ siteId })).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` })),
      }
    : null;
