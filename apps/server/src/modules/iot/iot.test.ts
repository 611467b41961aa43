import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IotConfigRecord, IotConnectResult, IotDeviceRecord, IotProductRecord, IotPropertyRecord, IotSyncDetail } from '@ess/contract/iot';
import type { Page } from '@ess/contract';
import { product, productCommand } from '../../db/schema/device.ts';
import { iotConfig, iotDevice, iotProduct, iotProperty, iotSync } from '../../db/schema/iot.ts';
import { accessLog } from '../../db/schema/system.ts';
import { closedPort, startHttpPeer } from '../../../test/http-peer.ts';
import { startJetLinksPeer, startThingsBoardPeer, type PeerWorld, type PlatformPeer } from '../../../test/iot-peers.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies } from '../../../test/factory.ts';

/**
 * IoT platform sync end to end over HTTP (issue 23, stage 1): applications against the local
 * ThingsBoard and JetLinks peers (connection test, refused credentials and hosts, the password
 * never answered), the dry run → approve → products and devices, a second sync changing
 * nothing, a platform change as a diff, relations with their rules, and the scope refusals.
 */
const IOT_MENUS = ['/iot/appConfig', '/iot/productManagement', '/iot/productDetail', '/iot/productCommandForm', '/iot/productEventForm', '/iot/device', '/iot/deviceDetail'];
const PASSWORD = 'Tb-Secret-123';

const tbWorld = (deviceCode: string): PeerWorld => ({
  username: 'tenant@example.com',
  password: PASSWORD,
  products: [
    { id: 'prof-pcs', name: 'PCS profile', properties: [{ id: 'power_kw' }, { id: 'temp' }, { id: 'fw', attribute: true }], events: [{ id: 'IGBT fault', level: 'CRITICAL' }] },
    { id: 'prof-meter', name: 'Meter profile', properties: [{ id: 'energy' }], events: [] },
  ],
  devices: [
    { id: 'tb-dev-1', name: deviceCode, productId: 'prof-pcs', online: true },
    { id: 'tb-dev-2', name: 'PCS-unbound', productId: 'prof-pcs', online: false },
    { id: 'tb-dev-3', name: 'Meter-1', productId: 'prof-meter', online: true },
  ],
});

describe.each(dbTargets(import.meta.url))('IoT sync on %s', (target) => {
  let t: TestApp;
  let tb: PlatformPeer;
  let jl: PlatformPeer;
  let token: string;
  let eastId: number;
  let foreignToken: string;
  let pcsProductId: number;
  let deviceCode: string;
  let configId: number;

  const add = (body: Record<string, unknown>) => t.api.post<{ id: number }>('/iot/config/add', token, body);
  const tbConfig = () => ({ companyId: eastId, name: 'TB', platform: 'thingsboard', baseUrl: tb.url, username: tb.world.username, password: PASSWORD });
  const count = async (table: typeof iotProduct | typeof iotDevice | typeof iotSync) => (await t.ctx.db.select({ id: table.id }).from(table)).length;

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south } = await seededCompanies(t);
    eastId = east.id;
    const siteId = (await newSite(t, eastId)).id;
    const dev = await newDevice(t, siteId, { type: 'pcs' });
    deviceCode = dev.code;
    pcsProductId = dev.productId;
    tb = await startThingsBoardPeer(tbWorld(deviceCode));
    jl = await startJetLinksPeer({
      username: 'admin', password: 'Jl-Secret-456',
      products: [{
        id: 'jl-pcs', name: 'JL PCS', properties: [{ id: 'activePower', type: 'float', unit: 'W' }], events: [{ id: 'overTemp', level: 'urgent', fields: [{ id: 'temperature', type: 'float' }] }],
        functions: [{ id: 'setSwitch', inputs: [{ id: 'on', type: 'boolean' }], output: 'boolean' }],
      }],
      devices: [{ id: 'jl-1', name: 'JL-PCS-1', productId: 'jl-pcs', online: null }],
    });
    token = (await newUser(t, eastId, { menus: IOT_MENUS, siteIds: [siteId] })).token;
    foreignToken = (await newUser(t, south.id, { menus: IOT_MENUS })).token;
  });
  afterAll(async () => {
    await tb?.close();
    await jl?.close();
    await t?.stop();
  });

  it('lists the platform types with their fields', async () => {
    const o = await okData(t.api.get<{ platform: string; fields: { name: string; secret: boolean }[] }[]>('/iot/config/optionals', token));
    expect(o.map((x) => x.platform)).toEqual(['thingsboard', 'jetlinks']);
    expect(o[0]!.fields.find((f) => f.name === 'password')?.secret).toBe(true);
  });

  it('refuses an unreachable host, wrong credentials and a bad address, storing nothing', async () => {
    const before = await count(iotConfig as never);
    const unreachable = await add({ ...tbConfig(), baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(unreachable.status).toBe(406);
    expect(unreachable.body.tipMsg).toMatch(/^连接失败：ECONNREFUSED/);
    const wrong = await add({ ...tbConfig(), password: 'nope-nope' });
    expect(wrong.status).toBe(406);
    expect(wrong.body.tipMsg).toBe('连接失败：Invalid username or password');
    const bad = await add({ ...tbConfig(), baseUrl: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(await count(iotConfig as never)).toBe(before);
  });

  it('adds an application whose password is sealed and never answered, and tests its connection', async () => {
    configId = (await okData(add(tbConfig()))).id;
    const [row] = await t.ctx.db.select({ enc: iotConfig.passwordEnc }).from(iotConfig).where(eq(iotConfig.id, configId));
    expect(row!.enc).toMatch(/^v1\./);
    expect(row!.enc).not.toContain(PASSWORD);
    const one = await t.api.post<IotConfigRecord>('/iot/config/query/one', token, { id: configId });
    expect(one.body.data).toMatchObject({ passwordSet: true, platform: 'thingsboard' });
    const page = await t.api.post<Page<IotConfigRecord>>('/iot/config/query/page', token, { current: 1, pageSize: 10 });
    for (const r of [one, page]) expect(r.raw.toString()).not.toContain(PASSWORD);
    expect(await okData(t.api.get<IotConnectResult>('/iot/config/connect', token, { id: configId }))).toMatchObject({ ok: true, message: '连接成功', reason: null });
    // The platform changes its password: the test says why it failed (200: the test ran).
    tb.world.password = 'changed-on-platform';
    const failed = await okData(t.api.get<IotConnectResult>('/iot/config/connect', token, { id: configId }));
    expect(failed).toMatchObject({ ok: false, message: '连接失败', reason: 'Invalid username or password' });
    // Editing the address without the password is refused (the stored one is not sent elsewhere).
    const moved = await t.api.post('/iot/config/edit', token, { ...tbConfig(), id: configId, baseUrl: 'http://127.0.0.1:1', password: undefined });
    expect(moved.status).toBe(400);
    tb.world.password = PASSWORD;
    expect((await okData(t.api.post<IotConfigRecord>('/iot/config/query/one', token, { id: configId }))).lastConnectOk).toBe(false);
  });

  it('refuses another company: its application is not found, and it cannot add one for us', async () => {
    expect((await t.api.post('/iot/config/query/one', foreignToken, { id: configId })).status).toBe(404);
    expect((await t.api.get('/iot/sync/full', foreignToken, { configId })).status).toBe(404);
    expect((await t.api.post('/iot/config/add', foreignToken, tbConfig())).status).toBe(403);
  });

  it('plans a dry run, applies it on approval, and a second sync changes nothing', async () => {
    const plan = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', token, { configId }));
    expect(plan.state).toBe('planned');
    expect(plan).toMatchObject({ added: 10, changed: 0, removed: 0 });
    expect(plan.items.filter((i) => i.kind === 'product').map((i) => i.key)).toEqual(['prof-meter', 'prof-pcs']);
    // Nothing is written before approval.
    expect(await count(iotProduct)).toBe(0);
    const applied = await okData(t.api.post<IotSyncDetail>('/iot/sync/approve', token, { id: plan.id }));
    expect(applied.state).toBe('applied');
    expect(applied.approvedByName).toBeTruthy();
    const products = await okData(t.api.post<IotProductRecord[]>('/iot/product/query/list', token, { configId }));
    expect(products.map((p) => [p.name, p.propertyCount, p.eventCount, p.deviceCount])).toEqual([['Meter profile', 1, 0, 1], ['PCS profile', 3, 1, 2]]);
    const devices = await okData(t.api.post<Page<IotDeviceRecord>>('/iot/device/query/page', token, { current: 1, pageSize: 10, configId }));
    // The device named after a console device's code is bound to it.
    expect(devices.records.find((d) => d.externalId === 'tb-dev-1')).toMatchObject({ state: 'online', deviceCode });
    expect(devices.records.find((d) => d.externalId === 'tb-dev-2')).toMatchObject({ state: 'offline', deviceId: null });
    // Approving twice is refused.
    expect((await t.api.post('/iot/sync/approve', token, { id: plan.id })).status).toBe(406);
    // Idempotent: the same platform again is "unchanged" and writes nothing.
    const rows = JSON.stringify(await t.ctx.db.select().from(iotProperty).orderBy(iotProperty.id));
    const again = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', token, { configId }));
    expect(again).toMatchObject({ state: 'unchanged', added: 0, changed: 0, removed: 0, items: [] });
    expect(JSON.stringify(await t.ctx.db.select().from(iotProperty).orderBy(iotProperty.id))).toBe(rows);
  });

  it('shows a platform change as added, changed and removed; a stale plan is refused; one product and one device sync alone', async () => {
    tb.world.products[0]!.properties.push({ id: 'soc' });
    tb.world.products[0]!.events[0]!.level = 'MAJOR';
    tb.world.devices = tb.world.devices.filter((d) => d.id !== 'tb-dev-3');
    const plan = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', token, { configId }));
    expect(plan.items.map((i) => `${i.change} ${i.kind} ${i.key}`)).toEqual(['changed event prof-pcs/event/IGBT fault', 'added property prof-pcs/property/soc', 'removed device tb-dev-3']);
    expect(plan.items[0]!.fields).toEqual([{ field: 'level', before: 'CRITICAL', after: 'MAJOR' }]);
    // The stored rows change under the plan (another run applied first): approval is refused, nothing written.
    await t.ctx.db.update(iotProduct).set({ name: 'renamed meanwhile' }).where(eq(iotProduct.externalId, 'prof-meter'));
    const stale = await t.api.post('/iot/sync/approve', token, { id: plan.id });
    expect(stale.status).toBe(406);
    expect(await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.externalId, 'tb-dev-3'))).toHaveLength(1);
    await t.ctx.db.update(iotProduct).set({ name: 'Meter profile' }).where(eq(iotProduct.externalId, 'prof-meter'));
    await okData(t.api.post('/iot/sync/discard', token, { id: plan.id }));
    // One product: only its own items.
    const [pcs] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.externalId, 'prof-pcs'));
    const one = await okData(t.api.get<IotSyncDetail>('/iot/sync/product/one', token, { productId: pcs!.id }));
    expect(one.items.map((i) => `${i.change} ${i.key}`)).toEqual(['changed prof-pcs/event/IGBT fault', 'added prof-pcs/property/soc']);
    await okData(t.api.post('/iot/sync/approve', token, { id: one.id }));
    // One device: its connectivity.
    tb.world.devices[0]!.online = false;
    const [d1] = await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.externalId, 'tb-dev-1'));
    const dev = await okData(t.api.get<IotSyncDetail>('/iot/sync/device/one', token, { deviceId: d1!.id }));
    expect(dev.items).toEqual([{ kind: 'device', change: 'changed', key: 'tb-dev-1', name: deviceCode, fields: [{ field: 'state', before: 'online', after: 'offline' }] }]);
    await okData(t.api.post('/iot/sync/approve', token, { id: dev.id }));
    expect((await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.externalId, 'tb-dev-1')))[0]!.state).toBe('offline');
    // Each run is recorded with who and the counts.
    const runs = await okData(t.api.post<Page<IotSyncDetail>>('/iot/sync/query/page', token, { current: 1, pageSize: 20, configId }));
    expect(runs.records.map((r) => r.state)).toEqual(['applied', 'applied', 'discarded', 'unchanged', 'applied']);
  });

  it('records a failed sync and answers 406 with the reason when the platform refuses', async () => {
    tb.world.password = 'rotated';
    const r = await t.api.get('/iot/sync/full', token, { configId });
    expect(r.status).toBe(406);
    expect(r.body.tipMsg).toBe('连接失败：Invalid username or password');
    const [last] = await t.ctx.db.select().from(iotSync).where(eq(iotSync.configId, configId)).orderBy(iotSync.id).limit(1).offset((await count(iotSync)) - 1);
    expect(last).toMatchObject({ state: 'failed', error: 'Invalid username or password' });
    tb.world.password = PASSWORD;
  });

  it('relates properties and events with the spec rules; a device relation overrides; active switches', async () => {
    const [pcs] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.externalId, 'prof-pcs'));
    const props = await okData(t.api.post<IotPropertyRecord[]>('/iot/property/query/list', token, { iotProductId: pcs!.id }));
    const power = props.find((p) => p.identifier === 'power_kw')!;
    const base = { iotProductId: pcs!.id, productId: pcsProductId, iotPropertyId: power.id };
    const rel = (b: Record<string, unknown>) => t.api.post<{ id: number }>('/iot/relate/property/add', token, { ...base, ...b });
    const unknown = await rel({ identifier: 'noSuchProperty' });
    expect(unknown.status).toBe(406);
    expect(unknown.body.tipMsg).toBe('产品没有标识为 noSuchProperty 的属性');
    expect((await rel({ identifier: 'Power_Limit' })).status).toBe(400);
    const dupStatus = await rel({ identifier: 'powerLimit', valueMap: [{ platformValue: 'a', status: 1, label: 'A' }, { platformValue: 'b', status: 1, label: 'B' }] });
    expect(dupStatus.status).toBe(400);
    expect(dupStatus.body.tipMsg).toMatch(/状态值 1 重复/);
    const dupColour = await rel({ identifier: 'powerLimit', valueMap: [{ platformValue: 'a', status: 1, label: 'A', colour: '#ff0000' }, { platformValue: 'b', status: 2, label: 'B', colour: '#FF0000' }] });
    expect(dupColour.body.tipMsg).toMatch(/颜色 #ff0000 重复/);
    const id = (await okData(rel({ identifier: 'powerLimit', scale: 0.001 }))).id;
    expect((await rel({ identifier: 'powerLimit' })).status).toBe(406);
    // Another platform key onto the same thing-model property at the same level: refused.
    const temp = props.find((p) => p.identifier === 'temp')!;
    expect((await rel({ iotPropertyId: temp.id, identifier: 'powerLimit' })).body.tipMsg).toBe('该物模型项在同一层级（产品或设备）已被另一平台项关联');
    // A device's own relation of the same key overrides the product's.
    const [d1] = await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.externalId, 'tb-dev-1'));
    const own = await okData(rel({ identifier: 'powerLimit', iotDeviceId: d1!.id, scale: 1 }));
    expect(own.id).not.toBe(id);
    // Another console product for the same platform product: refused.
    const [other] = await t.ctx.db.select({ id: product.id }).from(product).where(eq(product.type, 'bms')).limit(1);
    expect((await rel({ iotPropertyId: temp.id, productId: other!.id, identifier: 'soc' })).status).toBe(406);
    expect((await okData(t.api.get<{ active: boolean }>('/iot/relate/property/active', token, { id }))).active).toBe(false);
    expect((await okData(t.api.get<{ active: boolean }>('/iot/relate/property/active', token, { id }))).active).toBe(true);
    const one = await okData(t.api.post<{ scale: number; iotPropertyIdentifier: string }>('/iot/relate/property/query/one', token, { id }));
    expect(one).toMatchObject({ scale: 0.001, iotPropertyIdentifier: 'power_kw' });
    expect((await okData(t.api.post<IotPropertyRecord[]>('/iot/property/query/list', token, { iotProductId: pcs!.id }))).find((p) => p.id === power.id)!.relatedIdentifier).toBe('powerLimit');
    // The fault event: a code of the console product's events.
    const events = await okData(t.api.post<{ id: number }[]>('/iot/event/query/list', token, { iotProductId: pcs!.id }));
    const ev = { iotProductId: pcs!.id, productId: pcsProductId, iotEventId: events[0]!.id };
    expect((await t.api.post('/iot/relate/event/add', token, { ...ev, identifier: 'NO_SUCH_FAULT' })).status).toBe(406);
    await okData(t.api.post('/iot/relate/event/add', token, { ...ev, identifier: 'PCS_IGBT_FAULT', valueMap: [{ platformValue: 'ACTIVE', status: 1, label: '故障', colour: '#ff4d4f' }] }));
    // Another company sees none of it and cannot touch it.
    expect((await t.api.post('/iot/relate/property/query/one', foreignToken, { id })).status).toBe(404);
    expect((await t.api.get('/iot/relate/property/delete', foreignToken, { id })).status).toBe(404);
    await okData(t.api.get('/iot/relate/property/delete', token, { id }));
    expect((await t.api.post('/iot/relate/property/query/one', token, { id })).status).toBe(404);
  });

  it('binds a platform device only to a console device of a station the caller sees', async () => {
    const [d2] = await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.externalId, 'tb-dev-2'));
    const otherSite = (await newSite(t, eastId)).id;
    const hidden = await newDevice(t, otherSite, { type: 'pcs' });
    const r = await t.api.post('/iot/device/bind', token, { id: d2!.id, deviceId: hidden.id });
    expect(r.status).toBe(403);
    expect((await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.id, d2!.id)))[0]!.deviceId).toBeNull();
  });

  it('syncs a JetLinks product with its functions and relates a command and its parameter', async () => {
    const id = (await okData(add({ companyId: eastId, name: 'JL', platform: 'jetlinks', baseUrl: jl.url, username: 'admin', password: 'Jl-Secret-456', requireApproval: false }))).id;
    // Without approval required, the run is applied at once.
    const run = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', token, { configId: id }));
    expect(run.state).toBe('applied');
    const [p] = await t.ctx.db.select().from(iotProduct).where(and(eq(iotProduct.configId, id), eq(iotProduct.externalId, 'jl-pcs')));
    expect((await t.ctx.db.select().from(iotDevice).where(eq(iotDevice.configId, id)))[0]!.state).toBe('inactive');
    const [cmd] = await okData(t.api.post<{ id: number; identifier: string }[]>('/iot/command/query/list', token, { iotProductId: p!.id }));
    expect(cmd!.identifier).toBe('setSwitch');
    const params = await okData(t.api.post<{ id: number; identifier: string; direction: string; dataType: string }[]>('/iot/param/query/list', token, { commandId: cmd!.id }));
    expect(params.map((x) => `${x.direction} ${x.identifier} ${x.dataType}`)).toEqual(['input on bool', 'output output bool']);
    await t.ctx.db.update(productCommand).set({ requestParams: [{ identifier: 'on', name: '开关', dataType: 'bool' }] }).where(and(eq(productCommand.productId, pcsProductId), eq(productCommand.identifier, 'switch')));
    const rc = await okData(t.api.post<{ id: number }>('/iot/relate/command/add', token, { iotProductId: p!.id, productId: pcsProductId, iotCommandId: cmd!.id, identifier: 'switch' }));
    const input = params.find((x) => x.direction === 'input')!;
    const output = params.find((x) => x.direction === 'output')!;
    expect((await t.api.post('/iot/relate/param/add', token, { relateCommandId: rc.id, iotParamId: output.id, identifier: 'on' })).status).toBe(406);
    expect((await t.api.post('/iot/relate/param/add', token, { relateCommandId: rc.id, iotParamId: input.id, identifier: 'off' })).status).toBe(406);
    await okData(t.api.post('/iot/relate/param/add', token, { relateCommandId: rc.id, iotParamId: input.id, identifier: 'on' }));
    expect(await okData(t.api.post<unknown[]>('/iot/relate/param/query/list', token, { relateCommandId: rc.id }))).toHaveLength(1);
    const rcOne = await okData(t.api.post<{ paramCount: number }>('/iot/relate/command/query/one', token, { id: rc.id }));
    expect(rcOne.paramCount).toBe(1);
  });

  it('never lets the password out, even through a platform that echoes the request in its error', async () => {
    const secret = 'Echo-Secret/+=9';
    const echo = await startHttpPeer((r) => ({ status: 400, body: { status: 400, code: 'illegal_argument', message: `rejected ${r.url} body=${r.body}`, result: null } }));
    try {
      const r = await add({ companyId: eastId, name: 'echo', platform: 'jetlinks', baseUrl: echo.url, username: 'admin', password: secret });
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toMatch(/^连接失败：rejected \/authorize\/login body=.*\[redacted\]/);
      expect(echo.requests[0]!.body).toContain(secret);
      await new Promise((res) => setTimeout(res, 300));
      const access = JSON.stringify(await t.ctx.db.select().from(accessLog));
      for (const leak of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]) {
        expect(r.raw.toString()).not.toContain(leak);
        expect(access).not.toContain(leak);
      }
    } finally {
      await echo.close();
    }
  });

  it('deletes an application with what its syncs read', async () => {
    await okData(t.api.get('/iot/config/delete', token, { id: configId }));
    expect(await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.configId, configId))).toHaveLength(0);
  });
});
