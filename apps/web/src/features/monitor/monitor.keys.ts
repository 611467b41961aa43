export const monitorKeys = {
  all: ['monitor'] as const,
  tree: () => ['monitor', 'tree'] as const,
  latestPage: (body: object) => ['monitor', 'latest-page', body] as const,
  latestList: (body: object) => ['monitor', 'latest-list', body] as const,
  device: (id: number) => ['monitor', 'device', id] as const,
  properties: (id: number) => ['monitor', 'properties', id] as const,
  faults: (id: number) => ['monitor', 'faults', id] as const,
  history: (body: object) => ['monitor', 'history', body] as const,
  energyOverview: (siteId: number) => ['monitor', 'energy-overview', siteId] as const,
  list: (body: object) => ['monitor', 'list', body] as const,
};
