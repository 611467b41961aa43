/** Query keys of the report centre (/report/jimu). */
export const reportKeys = {
  all: ['report'] as const,
  templates: ['report', 'template'] as const,
  /** A preview of the parameters at a table page (each table card pages on its own). */
  preview: (q: Record<string, unknown>) => ['report', 'preview', q] as const,
  exports: ['report', 'export'] as const,
  exportPage: (current: number) => ['report', 'export', 'page', current] as const,
  schedules: ['report', 'schedule'] as const,
  schedulePage: (current: number) => ['report', 'schedule', 'page', current] as const,
  runPage: (current: number, scheduleId?: number) => ['report', 'schedule', 'run', current, scheduleId ?? null] as const,
  embed: ['report', 'embed'] as const,
};
