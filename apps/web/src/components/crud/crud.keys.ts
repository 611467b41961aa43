/**
 * Query keys of a resource, all under its root, so one invalidation of the root refreshes every
 * page, list, tree and record of it after a change.
 */
export function resourceKeys(root: readonly string[]) {
  const all = [...root] as const;
  return {
    all,
    pages: () => [...all, 'page'] as const,
    page: (params: Record<string, unknown>) => [...all, 'page', params] as const,
    lists: () => [...all, 'list'] as const,
    list: (filters: Record<string, unknown>) => [...all, 'list', filters] as const,
    tree: (filters: Record<string, unknown> = {}) => [...all, 'tree', filters] as const,
    one: (id: number) => [...all, 'one', id] as const,
  };
}

export type ResourceKeys = ReturnType<typeof resourceKeys>;
