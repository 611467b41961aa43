/**
 * Query keys of the demand screens (/demand/track, analysis, reconcile, setting): everything under
 * ['demand'] is read again after an entry (a setting, a bill's figure).
 */
export const demandKeys = {
  all: ['demand'] as const,
  month: (siteId: number, month: string) => ['demand', 'track', 'month', siteId, month] as const,
  day: (siteId: number, date: string) => ['demand', 'track', 'day', siteId, date] as const,
  analysis: (siteId: number, month: string) => ['demand', 'analysis', siteId, month] as const,
  measures: (q: object) => ['demand', 'analysis', 'measures', q] as const,
  measure: (id: number) => ['demand', 'analysis', 'measure', id] as const,
  reconcile: ['demand', 'reconcile'] as const,
  reconcileHeader: (q: object) => ['demand', 'reconcile', 'header', q] as const,
  reconcilePage: (q: object) => ['demand', 'reconcile', 'page', q] as const,
  /** Root of the settings list (the resource's key). */
  settings: ['demand', 'setting'] as const,
};
