import { basicEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { validateScript } from './script.service.ts';

export const basicRoutes = [
  route(api.validateScript, {
    access: 'menu', name: '校验脚本', area: 'Session and basics', kind: 'action',
    scope: { global: 'checks the script text it is sent; reads no stored object' },
    handler: ({ body }) => validateScript(body.script),
  }),
];
