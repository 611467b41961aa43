import { route } from '../../platform/http/route.ts';
import { regionTree } from './region.service.ts';

export const dictionaryRoutes = [
  route({
    method: 'GET', path: '/dictionary/region/query/tree', access: 'user', name: '行政区划树', area: 'Session and basics', kind: 'list',
    handler: () => regionTree(),
  }),
];
