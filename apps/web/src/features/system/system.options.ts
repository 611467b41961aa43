import type { DataOption, OptionSource } from '../../components/crud/index.ts';
import { get, post } from '../../platform/request.ts';

/**
 * Pickers of the system screens. Each key sits under the root of the resource it lists, so a
 * change to companies, roles or users refreshes the pickers too.
 */

export interface CompanyNode {
  id: number;
  name: string;
  children?: CompanyNode[];
}

const companyOption = (n: CompanyNode): DataOption => ({
  value: n.id,
  label: n.name,
  children: n.children?.length ? n.children.map(companyOption) : undefined,
});

/** The caller's company and every company under it. */
export const companyTreeSource: OptionSource = {
  queryKey: ['system', 'company', 'options', 'tree'],
  load: async () => (await post<CompanyNode[]>('/system/company/query/tree', {}, { loading: false })).map(companyOption),
};

export interface RoleRef {
  id: number;
  name: string;
  companyName?: string;
}

export const roleSource: OptionSource = {
  queryKey: ['system', 'role', 'options'],
  load: async () =>
    (await post<RoleRef[]>('/system/role/query/list', {}, { loading: false })).map((r) => ({
      value: r.id,
      label: r.companyName ? `${r.name} · ${r.companyName}` : r.name,
    })),
};

export interface UserRef {
  id: number;
  username: string;
  name: string;
  status: number;
}

export const userSource: OptionSource = {
  queryKey: ['system', 'user', 'options'],
  load: async () =>
    (await post<UserRef[]>('/system/user/query/list', {}, { loading: false })).map((u) => ({
      value: u.id,
      label: `${u.name} (${u.username})`,
    })),
};

/** GB/T 2260 administrative regions: province → city → district. */
export interface RegionNode {
  code: string;
  name: string;
  children?: RegionNode[];
}

export const regionQuery = {
  queryKey: ['dictionary', 'region', 'tree'] as const,
  queryFn: () => get<RegionNode[]>('/dictionary/region/query/tree', undefined, { loading: false }),
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

export interface InterfaceRow {
  id: number;
  method: string;
  path: string;
  name: string;
  area: string | null;
  kind: string | null;
  access: string;
  selectable: boolean;
}

export const interfaceQuery = {
  queryKey: ['system', 'interface', 'list'] as const,
  queryFn: () => post<InterfaceRow[]>('/system/interface/query/list', {}, { loading: false }),
  staleTime: 60_000,
};

export interface SiteRef {
  id: number;
  name: string;
  code?: string;
  companyName?: string;
}

/** Stations of a company (the configuration domain's list call). */
export const siteQuery = (companyId: number | undefined) => ({
  queryKey: ['configure', 'site', 'options', companyId ?? null] as const,
  queryFn: () => post<SiteRef[]>('/configure/site/query/list', companyId ? { companyId } : {}, { loading: false, noMessage: true }),
  staleTime: 60_000,
  retry: false,
});
