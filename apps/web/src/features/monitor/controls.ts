import type { DeviceRecord } from '@ess/contract/device';
import { monitorEndpoints as M, SECONDARY_PASSWORD_TTL_MS, type ControlResult } from '@ess/contract/monitor';
import { THING_MODEL } from '@ess/contract/telemetry';
import { ERRORS } from '@ess/contract/errors';
import { call, RequestError } from '../../platform/request.ts';
import { isDeviceType } from '../../components/device-types.ts';

/** A control the device page offers: what it sends, and how it is confirmed. */
export interface ControlAction {
  key: string;
  /** Source text of the button. */
  label: string;
  /** Source text of the confirmation ("确定要…吗？"). */
  confirm: string;
  endpoint: ControlEndpoint;
  /** Body fields besides deviceId and password; `query` sends deviceId as a query parameter instead (no body). */
  body?: Record<string, unknown>;
  query?: boolean;
  danger?: boolean;
  /** Needs the secondary password (product-spec §6: critical remote operations). */
  critical: boolean;
  /** A number the operator enters (set points, limits). */
  input?: { field: string; label: string; unit: string; min: number; max: number; step?: number; initial?: number };
}

/** The control calls the device page sends. */
export type ControlEndpoint =
  | typeof M.switch | typeof M.pileReboot | typeof M.pilePowerLimit | typeof M.gunSetProperty | typeof M.acTemperature | typeof M.faultRecover;

/** The body of a control: the device, the secondary password when entered, and the control's own fields. */
export type ControlBody = { deviceId: number; password?: string } & Record<string, unknown>;

const accepts = (type: string, command: string) => isDeviceType(type) && (THING_MODEL[type].commands as readonly string[]).includes(command);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The controls a device accepts, from its type's thing model, with its current values for defaults. */
export function controlsFor(device: Pick<DeviceRecord, 'type'>, values: Readonly<Record<string, unknown>>): ControlAction[] {
  const { type } = device;
  const out: ControlAction[] = [];
  if (accepts(type, 'switch')) {
    out.push(
      { key: 'on', label: '开机', confirm: '确定要远程开机吗？', endpoint: M.switch, body: { on: true }, critical: true },
      { key: 'off', label: '关机', confirm: '确定要远程关机吗？', endpoint: M.switch, body: { on: false }, critical: true, danger: true },
    );
  }
  if (type === 'chargingPile') {
    out.push(
      { key: 'reboot', label: '重启', confirm: '确定要重启充电桩吗？', endpoint: M.pileReboot, critical: true, danger: true },
      {
        key: 'powerLimit', label: '设置功率限值', confirm: '确定要修改功率限值吗？', endpoint: M.pilePowerLimit, critical: true,
        input: { field: 'powerLimit', label: '功率限值', unit: 'kW', min: 0, max: 1000, initial: num(values.powerLimit) },
      },
    );
  }
  if (type === 'chargingGun') {
    out.push({
      key: 'maxPower', label: '设置最大输出功率', confirm: '确定要修改最大输出功率吗？', endpoint: M.gunSetProperty, critical: true,
      input: { field: 'maxPower', label: '最大输出功率', unit: 'kW', min: 0, max: 500, initial: num(values.maxPower) },
    });
  }
  if (type === 'airConditioner') {
    out.push({
      key: 'temperature', label: '设置温度', confirm: '确定要修改设定温度吗？', endpoint: M.acTemperature, critical: false,
      input: { field: 'setpoint', label: '设定温度', unit: '°C', min: 16, max: 35, step: 0.5, initial: num(values.setTemperature) },
    });
  }
  if (accepts(type, 'faultRecover')) {
    out.push({ key: 'faultRecover', label: '故障复位', confirm: '确定要复位设备的全部故障吗？', endpoint: M.faultRecover, query: true, critical: true });
  }
  return out;
}

/** Request body of a control: deviceId, the fixed fields, the entered number (gun power goes as setProperty values). */
export function controlBody(a: ControlAction, deviceId: number, input: number | undefined, password: string | undefined): ControlBody {
  const body: ControlBody = { deviceId, ...(a.body ?? {}) };
  if (a.input && input !== undefined) {
    if (a.key === 'maxPower') body.values = { maxPower: input };
    else body[a.input.field] = input;
  }
  if (password) body.password = password;
  return body;
}

/**
 * The secondary-password window of this tab: after a successful check the server lets critical
 * calls leave the password out until validUntil; the console asks again after that.
 */
let passwordValidUntil = 0;
export const passwordWindowOpen = (now = Date.now()) => now < passwordValidUntil;
export const closePasswordWindow = () => {
  passwordValidUntil = 0;
};

export async function checkPassword(deviceId: number, password: string): Promise<void> {
  const r = await call(M.checkPassword, { deviceId, password }, { noMessage: true });
  const until = Date.parse(r.validUntil);
  // A little before the server's end, so a call never races the window closing.
  passwordValidUntil = (Number.isFinite(until) ? until : Date.now() + SECONDARY_PASSWORD_TTL_MS) - 5000;
}

/** Whether a call was refused for the secondary password (wrong, missing, or the window closed). */
export const isPasswordRefusal = (e: unknown) => e instanceof RequestError && e.errorCode === ERRORS.SECONDARY_PASSWORD.code;

/**
 * A control with the secondary password: the entered one checked first (opening the window),
 * then the call; a password refusal closes the window, so the next attempt asks again.
 */
export async function withSecondaryPassword<T>(deviceId: number, password: string | undefined, send: () => Promise<T>): Promise<T> {
  try {
    if (password) await checkPassword(deviceId, password);
    return await send();
  } catch (e) {
    if (isPasswordRefusal(e)) closePasswordWindow();
    throw e;
  }
}

/** Sends a control and resolves with the device's answer; errors (refusal, device error, timeout) reject. */
export function sendControl(a: ControlAction, deviceId: number, input: number | undefined, password: string | undefined): Promise<ControlResult> {
  return a.query
    ? call(M.faultRecover, { deviceId }, { noMessage: true })
    : call(a.endpoint, controlBody(a, deviceId, input, password), { noMessage: true });
}
