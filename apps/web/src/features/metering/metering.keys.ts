/** Query keys of the metering and statement screens: everything under ['metering'] is read again after an action. */
export const meteringKeys = {
  all: ['metering'] as const,
  meters: (siteId: number | null, purpose: string | null) => ['metering', 'options', 'meters', siteId, purpose] as const,
  electric: (q: object) => ['metering', 'electric', q] as const,
};
