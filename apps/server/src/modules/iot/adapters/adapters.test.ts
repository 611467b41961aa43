import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../test/http-peer.ts';
import { startJetLinksPeer, startThingsBoardPeer, type PeerWorld, type PlatformPeer } from '../../../../test/iot-peers.ts';
import { jetlinksAdapter } from './jetlinks.ts';
import { thingsboardAdapter } from './thingsboard.ts';
import { PAGE_SIZE, PlatformError, type PlatformAdapter } from './types.ts';

/**
 * The platform adapters against local peers of the platforms' documented REST APIs: sign-in and
 * the token header on every call, products with their thing model, devices over several pages,
 * and the platforms' error answers (wrong password, unknown object, unreachable host).
 */
const world = (): PeerWorld => ({
  username: 'tenant@example.com',
  password: 'S3cret-pass',
  products: [
    {
      id: 'prof-pcs', name: 'PCS', description: 'storage converter',
      properties: [{ id: 'activePower', type: 'float', unit: 'kW' }, { id: 'state', type: 'enum' }, { id: 'serial', type: 'string', attribute: true }],
      events: [{ id: 'igbtFault', level: 'CRITICAL', fields: [{ id: 'code', type: 'int' }] }],
      functions: [{ id: 'setPower', name: '设置功率', inputs: [{ id: 'power', type: 'float', unit: 'kW' }], output: 'boolean' }],
    },
  ],
  devices: Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => ({ id: `dev-${i}`, name: `PCS-${i}`, productId: 'prof-pcs', online: i % 2 === 0 })),
});

const cases: [string, PlatformAdapter, (w: PeerWorld) => Promise<PlatformPeer>][] = [
  ['ThingsBoard', thingsboardAdapter, startThingsBoardPeer],
  ['JetLinks', jetlinksAdapter, startJetLinksPeer],
];

describe.each(cases)('%s adapter', (name, adapter, start) => {
  let peer: PlatformPeer;
  const creds = () => ({ baseUrl: peer.url, username: peer.world.username, password: peer.world.password, timeoutMs: 5000 });
  beforeAll(async () => {
    peer = await start(world());
  });
  afterAll(async () => peer?.close());

  it('signs in, sends the token on every call and reads the products with their model', async () => {
    const s = await adapter.login(creds());
    expect(await s.whoami()).toBeTruthy();
    const products = await s.products();
    expect(products).toHaveLength(1);
    const p = products[0]!;
    expect(p).toMatchObject({ externalId: 'prof-pcs', name: 'PCS', description: 'storage converter' });
    expect(p.properties.map((x) => x.identifier).sort()).toEqual(['activePower', 'serial', 'state']);
    expect(p.events.map((e) => e.identifier)).toEqual(['igbtFault']);
    if (name === 'JetLinks') {
      // The thing model's types, units, event fields and functions with their inputs and output.
      expect(p.properties.find((x) => x.identifier === 'activePower')).toMatchObject({ dataType: 'float', unit: 'kW', source: 'metadata' });
      expect(p.events[0]!.fields).toEqual([{ identifier: 'code', name: 'code', dataType: 'int', unit: null }]);
      expect(p.commands).toEqual([{ identifier: 'setPower', name: '设置功率', async: false, inputs: [{ identifier: 'power', name: 'power', dataType: 'float', unit: 'kW' }], outputs: [{ identifier: 'output', name: 'output', dataType: 'bool', unit: null }] }]);
    } else {
      // ThingsBoard: keys by kind, the alarm rule's severity, no declared RPC methods.
      expect(p.properties.find((x) => x.identifier === 'serial')).toMatchObject({ source: 'attribute', dataType: 'unknown' });
      expect(p.events[0]!.level).toBe('CRITICAL');
      expect(p.commands).toEqual([]);
    }
    for (const r of peer.requests.slice(1)) {
      expect(name === 'JetLinks' ? r.headers['x-access-token'] : r.headers['x-authorization']).toBeTruthy();
    }
  });

  it('reads every device over several pages with its connectivity', async () => {
    const s = await adapter.login(creds());
    const before = peer.requests.length;
    const devices = await s.devices();
    expect(devices).toHaveLength(PAGE_SIZE * 2 + 5);
    expect(new Set(devices.map((d) => d.externalId)).size).toBe(devices.length);
    expect(devices[0]).toEqual({ externalId: 'dev-0', name: 'PCS-0', productExternalId: 'prof-pcs', state: 'online' });
    expect(devices[1]!.state).toBe('offline');
    // Three pages of PAGE_SIZE, asked for in the platform's own paging parameters.
    const pages = peer.requests.slice(before);
    expect(pages).toHaveLength(3);
    if (name === 'JetLinks') expect(pages.map((r) => (JSON.parse(r.body) as { pageIndex: number }).pageIndex)).toEqual([0, 1, 2]);
    else expect(pages.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['0', '1', '2']);
  });

  it('reads one product and one device; an unknown one is null', async () => {
    const s = await adapter.login(creds());
    expect((await s.product('prof-pcs'))?.name).toBe('PCS');
    expect(await s.product('nope')).toBeNull();
    expect((await s.device('dev-3'))?.state).toBe('offline');
    expect(await s.device('nope')).toBeNull();
  });

  it("refuses wrong credentials with the platform's words, never echoing the password", async () => {
    const e = await adapter.login({ ...creds(), password: 'wrong-password' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).kind).toBe('auth');
    expect((e as PlatformError).message).toMatch(/Invalid username or password|用户名或密码错误/);
    expect((e as PlatformError).message).not.toContain('wrong-password');
  });

  it('reports an unreachable host as such', async () => {
    const e = await adapter.login({ ...creds(), baseUrl: `http://127.0.0.1:${await closedPort()}` }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).kind).toBe('unreachable');
    expect((e as PlatformError).message).toMatch(/ECONNREFUSED/);
  });
});
