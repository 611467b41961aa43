import { dictionaryEndpoints, type RegionNode } from '@ess/contract/dictionary';
import { siteEndpoints } from '@ess/contract/site';
import { companyEndpoints, menuEndpoints, roleEndpoints, userEndpoints, type CompanyNode } from '@ess/contract/system';
import type { DataOption, OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';

/**
 * Pickers of the system screens. Each key sits under the root of the resource it lists, so a
 * change to companies, roles or users refreshes the pickers too.
 */

const companyOption = (n: CompanyNode): DataOption => ({
  value: n.id,
  label: n.name,
  children: n.children.length ? n.children.map(companyOption) : undefined,
});

/** The caller's company and every company under it. */
export const companyTreeSource: OptionSource = {
  queryKey: ['system', 'company', 'options', 'tree'],
  load: async () => (await call(companyEndpoints.tree, {}, { loading: false })).map(companyOption),
};

export const roleSource: OptionSource = {
  queryKey: ['system', 'role', 'options'],
  load: async () =>
    (await call(roleEndpoints.list, {}, { loading: false })).map((r) => ({
      value: r.id,
      label: r.companyName ? `${r.name} · ${r.companyName}` : r.name,
    })),
};

export const userSource: OptionSource = {
  queryKey: ['system', 'user', 'options'],
  load: async () =>
    (await call(userEndpoints.list, {}, { loading: false })).map((u) => ({
      value: u.id,
      label: `${u.name} (${u.username})`,
    })),
};

/** GB/T 2260 administrative regions: province → city → district. */
export const regionQuery = {
  queryKey: ['dictionary', 'region', 'tree'] as const,
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

export const interfaceQuery = {
  queryKey: ['system', 'interface', 'list'] as const,
  queryFn: () => call(menuEndpoints.interfaces, {}, { loading: false }),
  staleTime: 60_000,
};

/** Stations of a company (the configuration domain's list call). */
export const siteQuery = (companyId: number | undefined) => ({
  queryKey: ['configure', 'site', 'options', companyId ?? null] as const,
  queryFn: () => call(siteEndpoints.list, companyId ? { companyId } : {}, { loading: false, noMessage: true }),
  staleTime: 60_000,
  retry: false,
});
