import { dictionaryEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { regionTree } from './region.service.ts';

export const dictionaryRoutes = [
  route(api.regionTree, {
    access: 'user', name: '行政区划树', area: 'Session and basics', kind: 'list',
    scope: { global: 'the administrative regions are shared by every company' },
    handler: () => regionTree(),
  }),
];
