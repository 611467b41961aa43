import { afterEach, describe, expect, it } from 'vitest';
import { RequestError } from '../../platform/request.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { checkPassword, closePasswordWindow, controlBody, controlsFor, passwordWindowOpen, sendControl, withSecondaryPassword } from './controls.ts';

afterEach(() => closePasswordWindow());

describe('device controls', () => {
  it('offers switching only to types that accept it, and fault recovery to all', () => {
    expect(controlsFor({ type: 'pcs' }, {}).map((a) => a.key)).toEqual(['on', 'off', 'faultRecover']);
    expect(controlsFor({ type: 'meter' }, {}).map((a) => a.key)).toEqual(['faultRecover']);
    expect(controlsFor({ type: 'chargingPile' }, { powerLimit: 90 }).find((a) => a.key === 'powerLimit')?.input?.initial).toBe(90);
    expect(controlsFor({ type: 'airConditioner' }, { setTemperature: 24 }).map((a) => a.key)).toEqual(['on', 'off', 'temperature', 'faultRecover']);
    expect(controlsFor({ type: 'unknown' }, {})).toEqual([]);
    expect(controlsFor({ type: 'pcs' }, {}).every((a) => a.critical)).toBe(true);
    // docs/decisions/0007: a bounded air-conditioner set point needs no secondary password.
    expect(controlsFor({ type: 'airConditioner' }, {}).find((a) => a.key === 'temperature')?.critical).toBe(false);
  });

  it('builds the body with the device, the fixed fields, the entered number and the password', () => {
    const [on] = controlsFor({ type: 'pcs' }, {});
    expect(controlBody(on!, 7, undefined, 'pw')).toEqual({ deviceId: 7, on: true, password: 'pw' });
    const gun = controlsFor({ type: 'chargingGun' }, {}).find((a) => a.key === 'maxPower')!;
    expect(controlBody(gun, 3, 40, undefined)).toEqual({ deviceId: 3, values: { maxPower: 40 } });
    const ac = controlsFor({ type: 'airConditioner' }, {}).find((a) => a.key === 'temperature')!;
    expect(controlBody(ac, 4, 22.5, undefined)).toEqual({ deviceId: 4, setpoint: 22.5 });
  });

  it('sends fault recovery with the device as a query parameter and no body', async () => {
    const { calls } = mockFetch(() => json(envelope({ requestId: 'r', command: 'faultRecover', ok: true, result: {}, durationMs: 12 })));
    const recover = controlsFor({ type: 'bms' }, {}).find((a) => a.key === 'faultRecover')!;
    await expect(sendControl(recover, 9, undefined, undefined)).resolves.toMatchObject({ durationMs: 12 });
    expect(calls[0]!.url).toBe('/api/manager/monitor/device/one/faultRecover?deviceId=9');
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it('keeps the password window open until shortly before the server closes it', async () => {
    const until = Date.now() + 300_000;
    mockFetch(() => json(envelope({ ok: true, validUntil: new Date(until).toISOString() })));
    expect(passwordWindowOpen()).toBe(false);
    await checkPassword(1, 'pw');
    expect(passwordWindowOpen()).toBe(true);
    expect(passwordWindowOpen(until - 1000)).toBe(false);
  });

  it('checks an entered password before the call, and closes the window when the call is refused for it', async () => {
    mockFetch(() => json(envelope({ ok: true, validUntil: new Date(Date.now() + 300_000).toISOString() })));
    const order: string[] = [];
    await withSecondaryPassword(1, 'pw', () => {
      order.push(passwordWindowOpen() ? 'sent with the window open' : 'sent');
      return Promise.resolve();
    });
    expect(order).toEqual(['sent with the window open']);
    const refusal = new RequestError('请输入二级密码', 406, 'A0106', null);
    await expect(withSecondaryPassword(1, undefined, () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(passwordWindowOpen()).toBe(false);
  });

  it('keeps the window closed when the password is wrong', async () => {
    mockFetch(() => json(envelope(null, 'A0106', '二级密码错误'), 406));
    await expect(checkPassword(1, 'bad')).rejects.toMatchObject({ errorCode: 'A0106' });
    expect(passwordWindowOpen()).toBe(false);
  });
});
