/**
 * Query keys of the firmware screens (/firmware/*): a change under ['firmware', area] reads that
 * area's lists and pickers again.
 */
export const firmwareKeys = {
  all: ['firmware'] as const,
  packages: ['firmware', 'package'] as const,
  package: (id: number) => ['firmware', 'package', 'one', id] as const,
  keys: ['firmware', 'key'] as const,
  setting: ['firmware', 'setting'] as const,
  compliance: (q: Record<string, unknown>) => ['firmware', 'compliance', q] as const,
  rollouts: ['firmware', 'rollout'] as const,
  /** Every page of the rollout list. */
  rolloutPages: ['firmware', 'rollout', 'page'] as const,
  /** The rollouts that used a package (its detail page). */
  rolloutsOf: (packageId: number) => ['firmware', 'rollout', 'page', { packageId }] as const,
  rollout: (id: number) => ['firmware', 'rollout', 'one', id] as const,
  tasks: ['firmware', 'task'] as const,
  taskPage: (q: Record<string, unknown>) => ['firmware', 'task', 'page', q] as const,
  task: (id: number) => ['firmware', 'task', 'one', id] as const,
  logs: ['firmware', 'log'] as const,
  logPages: ['firmware', 'log', 'page'] as const,
  log: (id: number) => ['firmware', 'log', 'one', id] as const,
  /** A picker's options under its area's root (refreshed with the area). */
  options: (area: readonly string[], what: string) => [...area, 'options', what] as const,
};
