import { monitorEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { deviceFaultWarning, deviceProperties } from '../device/index.ts';
import { deviceHistory } from './history.service.ts';

const area = 'Device monitoring';

export const telemetryRoutes = [
  route(api.properties, {
    access: 'menu', name: '设备实时属性', area, kind: 'list', scope: { entity: 'device', input: (id) => ({ deviceId: id }) },
    handler: ({ ctx, user, query }) => deviceProperties(ctx, user, query.deviceId),
  }),
  route(api.faultWarning, {
    access: 'menu', name: '设备故障告警', area, kind: 'list', scope: { entity: 'device', input: (id) => ({ deviceId: id }) },
    handler: ({ ctx, user, query }) => deviceFaultWarning(ctx, user, query.deviceId),
  }),
  route(api.history, {
    access: 'menu', name: '设备历史曲线', area, kind: 'chart',
    scope: {
      entity: 'device',
      input: (id) => ({ deviceId: id, identifiers: ['soc'], start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() }),
    },
    handler: ({ ctx, user, body }) => deviceHistory(ctx, user, body),
  }),
];
