import { startJetLinksPeer, type PeerWorld, type PlatformPeer } from '../../apps/server/test/iot-peers.ts';
import type { ConsoleApi } from './api.ts';

/**
 * A JetLinks platform for the IoT screens (issue 23): the protocol peer of the server tests
 * (apps/server/test/iot-peers.ts) holding a battery-cluster product with a thing model (state of
 * charge, voltage, a state enumeration, a fault event with its fields, a power-setting function
 * with inputs) and a meter product; its devices are named after devices of the demo station, so a
 * sync binds them to the console's devices.
 */
export const IOT_USER = 'ess-integration';
export const IOT_PASSWORD = 'Jl-Secret-2026';

export function iotWorld(deviceCodes: readonly string[]): PeerWorld {
  return {
    username: IOT_USER,
    password: IOT_PASSWORD,
    products: [
      {
        id: 'bms-cluster', name: '电池簇 BMS', description: 'JetLinks 物模型：电池簇管理系统',
        properties: [
          { id: 'soc', name: 'SOC', type: 'float', unit: '%' },
          { id: 'voltage', name: '簇电压', type: 'float', unit: 'V' },
          { id: 'temp_max', name: '最高温度', type: 'float', unit: '℃' },
          { id: 'run_state', name: '运行状态', type: 'enum' },
        ],
        events: [{ id: 'overTemp', name: '过温告警', level: 'urgent', fields: [{ id: 'temp', type: 'float' }, { id: 'cell', type: 'int' }] }],
        functions: [{ id: 'setPower', name: '设定功率', inputs: [{ id: 'power', type: 'float', unit: 'kW' }, { id: 'mode', type: 'string' }], output: 'boolean' }],
      },
      { id: 'grid-meter', name: '关口电表', properties: [{ id: 'energy_in', name: '正向有功电能', type: 'double', unit: 'kWh' }], events: [] },
    ],
    devices: [
      ...deviceCodes.slice(0, 2).map((code, i) => ({ id: `jl-bms-${i + 1}`, name: code, productId: 'bms-cluster', online: i === 0 })),
      { id: 'jl-bms-spare', name: 'BMS-备用簇', productId: 'bms-cluster', online: null },
      { id: 'jl-meter-1', name: 'METER-GATE-1', productId: 'grid-meter', online: true },
    ],
  };
}

/** The JetLinks peer with the demo's first devices in it. */
export async function startIotPlatform(api: ConsoleApi): Promise<PlatformPeer> {
  const devices = await api.post<{ code: string }[]>('/configure/device/query/list', {});
  return startJetLinksPeer(iotWorld(devices.map((d) => d.code)));
}
