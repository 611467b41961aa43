import { meterElectricDataBody, meterElectricExportQuery } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { sendXlsx } from '../../platform/xlsx/xlsx.ts';
import { meterElectricColumns, meterElectricData } from './electric.service.ts';

const area = 'Meters';

/** Scope probes name the meter by code: the fixture's device id is turned into its code. */
export const electricRoutes = [
  route({
    method: 'POST', path: '/meter/electric/data', access: 'menu', name: '电表数据', area, kind: 'list', body: meterElectricDataBody,
    scope: { entity: 'meterCode', input: (code) => ({ deviceCode: `probe-code-${code}`, start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() }) },
    handler: ({ ctx, user, body }) => meterElectricData(ctx, user, body),
  }),
  route({
    method: 'GET', path: '/meter/electric/data/export', access: 'menu', name: '电表数据导出', area, kind: 'export', query: meterElectricExportQuery, raw: true,
    scope: { entity: 'meterCode', input: (code) => ({ deviceCode: `probe-code-${code}`, start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() }) },
    handler: async ({ ctx, user, query, reply }) => {
      const data = await meterElectricData(ctx, user, query);
      const day = new Date(query.start.getTime()).toISOString().slice(0, 10);
      return sendXlsx(reply, `电表数据-${data.deviceCode}-${day}`, '电表数据', meterElectricColumns(), data.rows);
    },
  }),
];
