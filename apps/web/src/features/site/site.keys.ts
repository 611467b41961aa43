import { resourceKeys } from '../../components/crud/index.ts';
import { sharedKeys } from '../../components/options/keys.ts';

/** Query keys of the station configuration screens beyond their resources' own. */
export const siteKeys = {
  productOptions: () => ['configure', 'product', 'options'] as const,
  callback: resourceKeys(['configure', 'callback']),
  keyValue: (siteId: number | null) => [...sharedKeys.site.all, 'keyValue', siteId] as const,
  diagramDevices: (siteId: number | null) => ['configure', 'diagram', 'devices', siteId] as const,
  diagramLatest: (siteId: number | null, deviceIds: readonly number[], identifiers: readonly string[]) =>
    ['configure', 'diagram', 'latest', siteId, deviceIds, identifiers] as const,
};
