/** Query keys of the maintenance screens: everything under ['maintenance'] is read again after an action. */
export const maintKeys = {
  all: ['maintenance'] as const,
  order: (id: number) => ['maintenance', 'work-order', 'one', id] as const,
  orderLog: (id: number) => ['maintenance', 'work-order', 'log', id] as const,
  orderDefects: (id: number) => ['maintenance', 'work-order', 'defects', id] as const,
  todayOrders: (q: object) => ['maintenance', 'work-order', 'today', q] as const,
  repair: (id: number) => ['maintenance', 'repair', 'one', id] as const,
  overview: (what: string, q: object) => ['maintenance', 'overview', what, q] as const,
  users: () => ['maintenance', 'options', 'users'] as const,
  items: () => ['maintenance', 'options', 'items'] as const,
  devices: (siteId: number | null) => ['maintenance', 'options', 'devices', siteId] as const,
  deviceDefects: (siteId: number | null) => ['maintenance', 'options', 'devices', siteId, 'defects'] as const,
  repairs: () => ['maintenance', 'repair'] as const,
  autoRule: (companyId: number) => ['maintenance', 'repair-auto-rule', companyId] as const,
  photo: (suffix: string) => ['maintenance', 'photo', suffix] as const,
};
