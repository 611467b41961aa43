import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** Dictionaries shared by every company (api-catalogue "Session and basics"). */

/** One node of the administrative-region tree (GB/T 2260): province → city → district. */
export const regionNode = z.object({
  code: z.string(),
  name: z.string(),
  get children() {
    return z.array(regionNode).optional();
  },
});
export type RegionNode = z.infer<typeof regionNode>;

export const dictionaryEndpoints = {
  regionTree: endpoint({ method: 'GET', path: '/dictionary/region/query/tree', response: z.array(regionNode) }),
};
