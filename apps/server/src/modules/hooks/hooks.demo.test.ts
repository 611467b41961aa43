import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import type { HookParamRecord, HookRecord, HookSettings } from '@ess/contract/hooks';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { okData } from '../../../test/factory.ts';
import { hook } from '../../db/schema/hooks.ts';
import { checkHookScript, runHookScript } from './hook.script.ts';
import { DEMO_HOOK_CATCHER_PORT } from '../../demo/simulator-process.ts';
import { DEMO_HOOK_CATCHER_URL, DEMO_HOOK_NAME, DEMO_HOOK_SECRET, seedHooksDemo } from './hooks.demo.ts';

/**
 * The demo's hooks (seeded once, idempotent): an active hook on alarms to the local receiver whose
 * script passes the save-time check and turns a level 1–3 alarm into the receiver's body (a level
 * 4 one is skipped), an inactive example, the parameters its script reads; and the receiver
 * (`npm run hook-catcher`) taking a request signed the Standard Webhooks way — signed here, by
 * hand, with the documented demo secret — and refusing a tampered one.
 */
const sign = (id: string, ts: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(DEMO_HOOK_SECRET.slice('whsec_'.length), 'base64')).update(`${id}.${ts}.${body}`).digest('base64')}`;

describe.each(dbTargets(import.meta.url))('hooks demo on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
    const seed = { config: { ...t.ctx.config, seedDemo: true }, database: t.ctx.database, db: t.ctx.db, log: t.ctx.log };
    await seedHooksDemo(seed);
    await seedHooksDemo(seed);
  });
  afterAll(async () => t?.stop());

  it('seeds two hooks once, the parameters, and allows private targets for the local receiver', async () => {
    expect(Number((await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${hook}`)).rows[0]!.n)).toBe(2);
    const page = await okData(t.api.post<Page<HookRecord>>('/hook/relate/trigger/query/page', t.adminToken, { sortField: 'name' }));
    const demo = page.records.find((r) => r.name === DEMO_HOOK_NAME)!;
    expect(demo).toMatchObject({ eventType: 'alarm.opened', url: DEMO_HOOK_CATCHER_URL, active: true, filter: { levels: [1, 2, 3] }, secretHint: `${DEMO_HOOK_SECRET.slice(0, 10)}…` });
    expect(page.records.find((r) => r.eventType === 'alarm.ended')).toMatchObject({ active: false });
    for (const r of page.records) expect(await checkHookScript(r.script!), r.name).toBeNull();
    const params = await okData(t.api.post<HookParamRecord[]>('/hook/relate/param/query/list', t.adminToken, {}));
    expect(params.map((p) => [p.name, p.kind, p.value, p.usedBy])).toEqual([['apiKey', 'secret', null, 1], ['source', 'constant', 'ess-console-demo', 1]]);
    expect((await okData(t.api.post<HookSettings>('/hook/setting/query/one', t.adminToken, {}))).allowPrivateTargets).toBe(true);

    const event = (level: number) => ({ id: 7, type: 'alarm.opened', timestamp: '2026-01-01T08:00:00.000Z', data: { id: 1, no: 'AL-1', siteId: 2, deviceId: 3, level, description: '过温', startedAt: '2026-01-01T08:00:00.000Z' } });
    const params2 = { source: 'ess-console-demo', apiKey: 'k' };
    expect(await runHookScript(demo.script!, event(2), params2)).toMatchObject({ ok: true, value: { source: 'ess-console-demo', token: 'k', eventId: 7, alarm: { no: 'AL-1', level: 2 } } });
    expect(await runHookScript(demo.script!, event(4), params2)).toEqual({ ok: true, value: null });
  });
});

describe('hook catcher (npm run hook-catcher)', () => {
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [fileURLToPath(new URL('../../../../../scripts/hook-catcher.mjs', import.meta.url))], {
      env: { ...process.env, HOOK_CATCHER_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`hook catcher exited ${code}`)));
    });
  });
  afterAll(() => {
    child?.kill();
  });

  it('takes a request signed with the demo secret and refuses a tampered or stale one', async () => {
    const body = JSON.stringify({ hello: 'world' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = (sig: string, at = ts) => ({ 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': String(at), 'webhook-signature': sig });
    const good = await fetch(`${base}/hooks/alarm`, { method: 'POST', headers: headers(`v1,bogus ${sign('msg_1', ts, body)}`), body });
    expect([good.status, ((await good.json()) as { signature: string }).signature]).toEqual([200, 'ok']);
    const tampered = await fetch(`${base}/hooks/alarm`, { method: 'POST', headers: headers(sign('msg_1', ts, body)), body: `${body} ` });
    expect(tampered.status).toBe(401);
    const stale = await fetch(`${base}/hooks/alarm`, { method: 'POST', headers: headers(sign('msg_1', ts - 3600, body), ts - 3600), body });
    expect(stale.status).toBe(401);
    const list = (await (await fetch(`${base}/`)).json()) as { count: number; requests: { signature: string }[] };
    expect(list.count).toBe(3);
    expect(list.requests.map((r) => r.signature)).toEqual(['timestamp ' + String(ts - 3600) + ' outside ±300 s', 'signature does not match', 'ok']);
  });
});

describe('the demo hook\'s receiver, hosted by the station simulator (npm start)', () => {
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    // The simulator's CLI as `npm start` runs it (from the sources), asked to host the receiver on a free port;
    // no broker answers, which does not matter to the receiver.
    child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../../../simulator/src/main.ts', import.meta.url))], {
      env: { ...process.env, SIM_HOOK_CATCHER: '0', SIM_STATE_FILE: '', MQTT_URL: 'mqtt://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const m = /the demo hook's receiver on (http:\/\/[\d.]+:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`simulator exited ${code}: ${out}`)));
    });
  }, 60_000);
  afterAll(() => {
    child?.kill();
  });

  it('takes the demo hook\'s signed requests at the demo hook\'s address, so its circuit stays closed', async () => {
    expect(new URL(DEMO_HOOK_CATCHER_URL).port).toBe(String(DEMO_HOOK_CATCHER_PORT));
    const body = JSON.stringify({ kind: 'alarm.opened' });
    const ts = Math.floor(Date.now() / 1000);
    const res = await fetch(`${base}${new URL(DEMO_HOOK_CATCHER_URL).pathname}`, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_9', 'webhook-timestamp': String(ts), 'webhook-signature': sign('msg_9', ts, body) },
    });
    expect([res.status, ((await res.json()) as { signature: string }).signature]).toEqual([200, 'ok']);
    const list = (await (await fetch(`${base}/`)).json()) as { count: number; requests: { path: string; signature: string }[] };
    expect(list.requests.map((r) => [r.path, r.signature])).toEqual([['/hooks/alarm', 'ok']]);
  });
});
