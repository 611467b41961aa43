/**
 * Query keys of the hook screens (/hook/*): a change under ['hooks', area] reads that area's lists
 * and pickers again.
 */
export const hookKeys = {
  all: ['hooks'] as const,
  triggers: ['hooks', 'trigger'] as const,
  /** One trigger, by id or by event type. */
  trigger: (q: { id?: number; eventType?: string }) => ['hooks', 'trigger', 'one', q.id ?? null, q.eventType ?? null] as const,
  /** The installation's hook settings. */
  setting: ['hooks', 'setting'] as const,
  hooks: ['hooks', 'relate'] as const,
  hook: (id: number) => ['hooks', 'relate', 'one', id] as const,
  params: ['hooks', 'param'] as const,
  /** What a script can use (payload fields and the company's parameters). */
  scriptParams: (eventType: string | null, companyId: number | null) => ['hooks', 'param', 'script', eventType, companyId] as const,
  records: ['hooks', 'record'] as const,
  /** A picker's options under its area's root (refreshed with the area). */
  options: (area: readonly string[], what: string) => [...area, 'options', what] as const,
};
