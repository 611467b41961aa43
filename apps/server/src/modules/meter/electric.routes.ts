import { meterEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { sendXlsx } from '../../platform/xlsx/xlsx.ts';
import { exportLanguage } from '../i18n/index.ts';
import { meterElectricColumns, meterElectricData } from './electric.service.ts';

const area = 'Meters';
/** Scope probes name the meter by code: the fixture's device id is turned into its code. */
const meterProbe = {
  entity: 'meterCode',
  input: (code: number) => ({ deviceCode: `probe-code-${code}`, start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() }),
};

export const electricRoutes = [
  route(api.electricData, {
    access: 'menu', name: '电表数据', area, kind: 'list', scope: meterProbe,
    handler: ({ ctx, user, body }) => meterElectricData(ctx, user, body),
  }),
  route(api.electricExport, {
    access: 'menu', name: '电表数据导出', area, kind: 'export', scope: meterProbe,
    handler: async ({ ctx, user, query, req, reply }) => {
      const data = await meterElectricData(ctx, user, query);
      const day = new Date(query.start.getTime()).toISOString().slice(0, 10);
      const file = { fileName: '电表数据-$1-$2', fileArgs: [data.deviceCode, day], sheet: '电表数据', columns: meterElectricColumns() };
      return sendXlsx(reply, file, data.rows, await exportLanguage(req));
    },
  }),
];
