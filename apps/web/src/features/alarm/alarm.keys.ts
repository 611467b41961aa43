/** Query keys of the alarm screens: everything under ['alarm'] is read again on RefreshAlarmKanban. */
export const alarmKeys = {
  all: ['alarm'] as const,
  site: (q: object) => ['alarm', 'kanban', 'site', q] as const,
  chart: (q: object) => ['alarm', 'kanban', 'chart', q] as const,
  cabinet: (q: object) => ['alarm', 'kanban', 'cabinet', q] as const,
  list: (body: object) => ['alarm', 'monitor', 'list', body] as const,
  deviceOptions: () => ['alarm', 'options', 'devices'] as const,
  /** The thing-model options a dictionary entry may watch: of a product, or of a device type. */
  dictModel: (by: 'product' | 'type', target: string | number, kind: string) => ['alarm-dict', 'model', by, target, kind] as const,
};
