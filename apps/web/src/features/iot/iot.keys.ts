/**
 * Query keys of the IoT screens (/iot/*): a change under ['iot'] reads the screens' lists again
 * (a sync touches products, devices and relations at once).
 */
export const iotKeys = {
  all: ['iot'] as const,
  configs: ['iot', 'config'] as const,
  optionals: ['iot', 'config', 'optionals'] as const,
  syncs: ['iot', 'sync'] as const,
  sync: (id: number) => ['iot', 'sync', 'one', id] as const,
  products: ['iot', 'product'] as const,
  product: (id: number) => ['iot', 'product', 'one', id] as const,
  items: (kind: 'property' | 'event' | 'command') => ['iot', kind] as const,
  item: (kind: 'event' | 'command', id: number) => ['iot', kind, 'one', id] as const,
  params: (owner: 'command' | 'event', id: number) => ['iot', 'param', owner, id] as const,
  devices: ['iot', 'device'] as const,
  device: (id: number) => ['iot', 'device', 'one', id] as const,
  relations: (kind: 'property' | 'event' | 'command') => ['iot', 'relate', kind] as const,
  relation: (kind: 'event' | 'command', id: number) => ['iot', 'relate', kind, 'one', id] as const,
  paramRelations: (relateCommandId: number) => ['iot', 'relate', 'param', relateCommandId] as const,
  /** A picker's options (console products and their thing model, platform items). */
  options: (...what: readonly (string | number | null)[]) => ['iot', 'options', ...what] as const,
};
