import { dictionaryEndpoints, type RegionNode } from '@ess/contract/dictionary';
import { call } from '../../platform/request.ts';
import { sharedKeys } from './keys.ts';

/** GB/T 2260 administrative regions: province → city → district. */
export const regionQuery = {
  queryKey: sharedKeys.region.tree(),
  queryFn: () => call(dictionaryEndpoints.regionTree, undefined, { loading: false }),
  staleTime: Infinity,
};

/** The chain of regions from the province down to the code, or [] when the code is unknown. */
export function regionPath(tree: readonly RegionNode[], code: string | null | undefined): RegionNode[] {
  if (!code) return [];
  for (const node of tree) {
    if (node.code === code) return [node];
    const below = node.children ? regionPath(node.children, code) : [];
    if (below.length) return [node, ...below];
  }
  return [];
}
