import type { DeviceRecord, DeviceTreeNode } from '@ess/contract/device';
import type { DeviceChangeProduct, DeviceChangeRecord, EmsCheckResult, ImportRefusal, ImportResult, ImportRowError } from '@ess/contract/equipment';
import type { DataOption, OptionSource } from '../../components/crud/index.ts';
import { download, get, post, request, RequestError } from '../../platform/request.ts';

/** The calls of /product/equipment and /product/replace beyond the resource layer. */
export const equipmentApi = {
  sites: async (): Promise<DataOption[]> =>
    (await post<DeviceTreeNode[]>('/configure/device/query/tree', {}, { loading: false }))
      .filter((n) => n.kind === 'site')
      .map((n) => ({ value: n.id, label: n.name })),
  products: async (): Promise<DataOption[]> =>
    (await post<{ id: number; code: string; name: string }[]>('/configure/product/query/list', {}, { loading: false, noMessage: true }))
      .map((p) => ({ value: p.id, label: `${p.name} (${p.code})` })),
  devices: (body: { siteId: number; productId?: number }) => post<DeviceRecord[]>('/configure/device/query/list', body, { loading: false }),
  checkEms: (siteId: number) => post<EmsCheckResult>('/configure/device/check/ems', { siteId }),
  changeProducts: (siteId: number) => get<DeviceChangeProduct[]>('/configure/device/change/product/list', { siteId }, { loading: false }),
  change: (body: Record<string, unknown>) => post<DeviceChangeRecord>('/configure/device/change/change', body),
  exportProductData: (productId: number, siteId?: number) =>
    download({ url: '/configure/device/product/export', method: 'POST', data: { productId, ...(siteId ? { siteId } : {}) } }),
};

export type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; tip: string; errors: ImportRowError[] };

/**
 * An xlsx import whose refusal carries a per-row report: the server answers 406 with the first
 * error as tipMsg and `{ historyId, errors }` as JSON in errorMsg. Other failures keep the tip only.
 */
export async function importSheet(url: string, file: File): Promise<ImportOutcome> {
  try {
    const result = await request<ImportResult>({ url, method: 'POST', bodyKind: 'form', data: { file }, noMessage: true });
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

export const siteSource: OptionSource = { queryKey: ['equipment', 'sites'], load: equipmentApi.sites };
export const productSource: OptionSource = { queryKey: ['equipment', 'products'], load: equipmentApi.products };
/** Devices of one station (parent picker of the edit form). */
export const stationDeviceSource = (siteId: number | undefined): OptionSource | null =>
  siteId
    ? {
        queryKey: ['equipment', 'station-devices', siteId],
        load: async () => (await equipmentApi.devices({ siteId })).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` })),
      }
    : null;
