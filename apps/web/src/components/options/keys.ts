import { resourceKeys } from '../crud/crud.keys.ts';

/**
 * Query keys of the records that several features list or pick. Each sits under the root of the
 * resource whose screen changes it, so saving a station, a company or a product there refreshes
 * every picker of it elsewhere.
 */
export const sharedKeys = {
  site: resourceKeys(['configure', 'site']),
  company: resourceKeys(['system', 'company']),
  product: resourceKeys(['product', 'product']),
  region: resourceKeys(['dictionary', 'region']),
  device: resourceKeys(['equipment', 'device']),
  /** The currencies of /globalization/currency (its resource key), picked by stations and price templates. */
  currency: resourceKeys(['globalization', 'currency']),
};
