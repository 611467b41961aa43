/**
 * Query keys of the metering and statement screens: everything under ['metering'] is read again
 * after an action. The resources' roots (['metering', 'zero'], ['metering', subsystem],
 * ['metering', 'statement']) are declared here too.
 */
export const meteringKeys = {
  all: ['metering'] as const,
  meters: (siteId: number | null, purpose: string | null, by: 'id' | 'code') => ['metering', 'options', 'meters', siteId, purpose, by] as const,
  electric: (q: object) => ['metering', 'electric', q] as const,
  /** Root of a subsystem's period readings (its list, its details). */
  subsystem: (s: string) => ['metering', s] as const,
  period: (s: string, id: number) => ['metering', s, 'detail', id] as const,
  /** Root of the statements (list and details). */
  statements: ['metering', 'statement'] as const,
  statement: (id: number, whatIf: object | null) => ['metering', 'statement', 'one', id, whatIf] as const,
  settings: (siteId: number) => ['metering', 'statement', 'settings', siteId] as const,
  users: () => ['metering', 'options', 'users'] as const,
  templates: () => ['metering', 'options', 'templates'] as const,
};
