import { hookEndpoints as e } from '@ess/contract/hooks';
import { route } from '../../platform/http/route.ts';
import * as rec from './records.service.ts';

const area = 'Hooks';
const companyFilter = { entity: 'company', input: (id: number) => ({ companyId: id }) };

/** Execution records (page, one, replay) and the test send (issue 21, items 4–5; extensions per decision 0041). */
export const recordRoutes = [
  route(e.execRecordPage, {
    access: 'menu', name: '钩子执行记录分页', area, kind: 'page', scope: companyFilter,
    handler: ({ ctx, user, body }) => rec.recordPage(ctx, user, body),
  }),
  route(e.execRecordOne, {
    access: 'menu', name: '钩子执行记录详情', area, kind: 'one', scope: { entity: 'hookExecRecord' },
    handler: ({ ctx, user, body }) => rec.recordOne(ctx, user, body.id),
  }),
  route(e.execRecordReplay, {
    access: 'menu', name: '钩子执行记录重放', area, kind: 'test', scope: { entity: 'hookExecRecord', input: (id) => ({ id, send: false }) },
    handler: ({ ctx, user, body }) => rec.replay(ctx, user, body),
  }),
  route(e.relateTriggerTest, {
    access: 'menu', name: '钩子测试发送', area, kind: 'test', scope: { entity: 'hook' },
    handler: ({ ctx, user, body }) => rec.testSend(ctx, user, body),
  }),
];
