import { sharedKeys } from '../../components/options/keys.ts';

/** Site-monitoring figures (the comprehensive calls). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  list: (q: object) => ['dashboard', 'list', q] as const,
  site: (siteId: number, part: string, extra: object = {}) => ['dashboard', 'site', siteId, part, extra] as const,
  deviceStatus: (q: object) => ['dashboard', 'device-status', q] as const,
  /** The operations board's alarms in progress per station (read again on RefreshAlarmKanban). */
  boardAlarms: () => ['dashboard', 'board', 'alarms'] as const,
  /** The company tree of the pages that add up a company's stations. */
  companyTree: () => sharedKeys.company.tree({ as: 'tree-select' }),
};

/** Money figures (the home page, earnings and arbitrage calls). */
export const revenueKeys = {
  all: ['revenue'] as const,
  home: (part: string, companyId: number) => ['revenue', 'home', part, companyId] as const,
  earnings: (siteId: number, date: string | undefined) => ['revenue', 'earnings', siteId, date ?? null] as const,
  earningsChart: (siteId: number, type: string, date: string | undefined) => ['revenue', 'earnings-chart', siteId, type, date ?? null] as const,
  arbitrage: (part: string, body: object) => ['revenue', 'arbitrage', part, body] as const,
};
