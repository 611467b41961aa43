/** Query keys of the strategy screen (/operatecfg/strategy): a station's strategy with its limits and sync state. */
export const strategyKeys = {
  all: ['strategy'] as const,
  view: (siteId: number) => ['strategy', 'view', siteId] as const,
};
