import { strategyEndpoints as api } from '@ess/contract/strategy';
import { route } from '../../platform/http/route.ts';
import { addStrategy, editStrategy, strategyOfSite } from './strategy.service.ts';
import { simulate } from './strategy.simulate.ts';
import { synchronise } from './strategy.sync.ts';

const area = 'Strategy';
const idle = { start: '00:00', end: '24:00', mode: 'idle', powerKw: 0 } as const;
/** A valid strategy for the scope probes (one idle schedule for every day). */
const probeStrategy = (extra: Record<string, unknown>) => ({
  schedules: [{ name: 'probe', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7], windows: [idle] }],
  socMin: 10, socMax: 100, antiBackflow: true, ...extra,
});

export const strategyRoutes = [
  route(api.unique, {
    access: 'menu', name: '站点运行策略', area, kind: 'one', scope: { entity: 'site', input: (id: number) => ({ siteId: id }) },
    handler: ({ ctx, user, body }) => strategyOfSite(ctx, user, body.siteId),
  }),
  route(api.add, {
    access: 'menu', name: '新增运行策略', area, kind: 'add', scope: { entity: 'site', input: (id) => probeStrategy({ siteId: id }) },
    handler: ({ ctx, user, body }) => addStrategy(ctx, user, body),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑运行策略', area, kind: 'edit', scope: { entity: 'strategy', input: (id) => probeStrategy({ id }) },
    handler: async ({ ctx, user, body }) => {
      await editStrategy(ctx, user, body);
      return true;
    },
  }),
  route(api.synchronization, {
    access: 'menu', name: '同步运行策略', area, kind: 'action', scope: { entity: 'strategy' },
    handler: ({ ctx, user, query }) => synchronise(ctx, user, query.id),
  }),
  route(api.simulate, {
    access: 'menu', name: '模拟运行策略', area, kind: 'one', scope: { entity: 'site', input: (id) => ({ siteId: id, date: '2026-01-15' }) },
    handler: ({ ctx, user, body }) => simulate(ctx, user, body),
  }),
];
