import { validateScriptBody } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { validateScript } from './script.service.ts';

export const basicRoutes = [
  route({
    method: 'POST', path: '/basic/validate/script', access: 'menu', name: '校验脚本', area: 'Session and basics', kind: 'action',
    body: validateScriptBody,
    handler: ({ body }) => validateScript(body.script),
  }),
];
