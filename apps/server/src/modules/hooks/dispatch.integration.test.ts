import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookExecRecord, HookExecRecordDetail, HookReplayResult, HookTestResult } from '@ess/contract/hooks';
import { alarm } from '../../db/schema/alarm.ts';
import { hook, hookDelivery, hookExecRecord, hookParam, hookSetting } from '../../db/schema/hooks.ts';
import { notification } from '../../db/schema/system.ts';
import { emit } from '../../platform/events/outbox.ts';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies, until } from '../../../test/factory.ts';
import { closedPort } from '../../../test/http-peer.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { deviceRegistryOf } from '../telemetry/index.ts';
import { dispatcherOf } from './dispatch.send.ts';
import { HOOK_PARAM_SECRET, HOOK_SIGNING_SECRET } from './hooks.context.ts';

/**
 * The dispatcher end to end with a real HTTP receiver started here: an alarm raised through the
 * alarm engine → the outbox → the hooks subscriber → the script in the sandbox → a signed request
 * (the signature checked by a verifier written here from the Standard Webhooks spec, not the
 * product's signer); retries on 500; timeouts, retries and the circuit breaker with the owner's
 * notification; a deactivated hook sends nothing; replay; bad scripts fail alone; the SSRF guard.
 */

// ── The receiver and an independent verifier ──────────────────────────────────────────

interface Seen {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

interface Receiver {
  url: string;
  seen: Seen[];
  /** Per path: the answers in order (the last repeats); default 200. */
  script: Map<string, Answer[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const seen: Seen[] = [];
  const script = new Map<string, Answer[]>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push({ path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const list = script.get(path) ?? [{ status: 200 }];
      const answer = list[Math.min(n, list.length - 1)]!;
      if (answer === 'hang') return; // Never answers.
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * Standard Webhooks verification, from the spec (standardwebhooks.com, "Verifying webhooks"):
 * the signed content is `${webhook-id}.${webhook-timestamp}.${body}`, the key is the base64 part
 * of the "whsec_" secret, the header is a space-separated list of "v1,<base64 HMAC-SHA256>", and
 * the timestamp must be within 5 minutes.
 */
function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sigs !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  return sigs.split(' ').some((s) => {
    const [version, value] = s.split(',');
    const got = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

describe('the independent verifier', () => {
  it('accepts the Standard Webhooks spec example and refuses a changed body', () => {
    // The example of the Standard Webhooks reference libraries' tests.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const ts = String(Math.floor(Date.now() / 1000));
    const body = '{"test": 2432232314}';
    const sig = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${ts}.${body}`).digest('base64');
    const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sig}` };
    expect(verifyStandardWebhook(secret, headers, body)).toBe(true);
    expect(verifyStandardWebhook(secret, headers, `${body} `)).toBe(false);
    expect(verifyStandardWebhook(secret, { ...headers, 'webhook-timestamp': String(Number(ts) - 600) }, body)).toBe(false);
  });
});

// ── The dispatcher ─────────────────────────────────────────────────────────────────────

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const API_KEY = 'sk-live-very-secret-4711';
/** A secret shorter than 4 characters (a PIN): masked as a whole token. */
const PIN = 'Q7';

describe.each(dbTargets(import.meta.url))('hook dispatch with a real receiver on %s', (target) => {
  let t: TestApp;
  let rx: Receiver;
  let companyId = 0;
  let owner = { id: 0, token: '' };
  let station = { id: 0, pcs: 0 };
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);

  interface HookOpts {
    name: string;
    path?: string;
    url?: string;
    eventType?: string;
    script?: string | null;
    filter?: { siteIds?: number[]; levels?: number[]; statuses?: string[] };
    timeoutMs?: number;
    maxRetries?: number;
    backoffMs?: number;
    active?: boolean;
    headers?: { name: string; value: string }[];
  }
  async function newHook(o: HookOpts): Promise<number> {
    const box = dispatcherOf(t.ctx)!.box;
    const [h] = await t.ctx.db
      .insert(hook)
      .values({
        companyId, name: o.name, eventType: o.eventType ?? 'alarm.opened', filter: { siteIds: [], levels: [], statuses: [], ...o.filter }, script: o.script ?? null,
        method: 'POST', url: o.url ?? `${rx.url}${o.path ?? `/${o.name}`}`, headers: o.headers ?? [], secretEnc: box.seal(SECRET, HOOK_SIGNING_SECRET), secretHint: SECRET.slice(0, 10),
        timeoutMs: o.timeoutMs ?? 5000, maxRetries: o.maxRetries ?? 3, backoffMs: o.backoffMs ?? 1000, active: o.active ?? true, ownerId: owner.id, createdBy: owner.id,
      })
      .returning({ id: hook.id });
    return h!.id;
  }
  /** An event as its module would write it, then the outbox's dispatch. */
  async function event(type: 'alarm.opened' | 'alarm.ended', payload: Record<string, unknown> = {}): Promise<number> {
    await t.ctx.db.transaction((tx) =>
      emit(tx, type, [{ id: 1, no: 'A-1', siteId: station.id, deviceId: station.pcs, level: 2, description: 'probe', startedAt: new Date().toISOString(), ...payload }]),
    );
    await t.ctx.outbox.drain();
    const { rows } = await t.ctx.database.sql.query<{ id: string }>(`select max(id) as id from domain_event where type = $1`, [type]);
    return Number(rows[0]!.id);
  }
  const recordsOf = (hookId: number) => t.ctx.db.select().from(hookExecRecord).where(eq(hookExecRecord.hookId, hookId)).orderBy(hookExecRecord.id);
  const seenAt = (path: string) => rx.seen.filter((s) => s.path === path);
  const settle = async () => {
    await t.ctx.outbox.drain();
    await dispatcherOf(t.ctx)!.drain();
  };

  beforeAll(async () => {
    rx = await startReceiver();
    t = await startTestApp(target, { ALARM_SYNC_MS: '200' });
    const { east } = await seededCompanies(t);
    companyId = east.id;
    owner = await newUser(t, companyId, { menus: ['/hook/dispatch', '/hook/triggerConfig'] });
    const s = await newSite(t, companyId);
    station = { id: s.id, pcs: (await newDevice(t, s.id, { type: 'pcs' })).id };
    await t.ctx.db.update(hookSetting).set({ allowPrivateTargets: true, circuitThreshold: 2, circuitCooldownMinutes: 1 }).where(eq(hookSetting.id, 1));
    const box = dispatcherOf(t.ctx)!.box;
    await t.ctx.db.insert(hookParam).values([
      { companyId, name: 'tenant', kind: 'constant', value: 'acme' },
      { companyId, name: 'apiKey', kind: 'secret', valueEnc: box.seal(API_KEY, HOOK_PARAM_SECRET) },
      { companyId, name: 'pin', kind: 'secret', valueEnc: box.seal(PIN, HOOK_PARAM_SECRET) },
    ]);
  });
  afterAll(async () => {
    await t?.stop();
    await rx?.close();
  });

  let alarmRecord = 0;

  it('an alarm from the engine → the hook\'s request arrives signed, with the script\'s body; secrets masked in the record', async () => {
    const id = await newHook({
      name: 'alarms', filter: { siteIds: [station.id] },
      script: 'function main(event, params) { return { text: "alarm " + event.data.no + " level " + event.data.level, tenant: params.tenant, token: params.apiKey, eventId: event.id }; }',
    });
    const registry = deviceRegistryOf(t.ctx);
    await registry.refresh();
    const engine = alarmEngineOf(t.ctx)!;
    engine.event(registry.byId.get(station.pcs)!, 'PCS_IGBT_FAULT', true, 'PCS_IGBT_FAULT', Date.now());
    await engine.flush();
    await settle();
    await until('the request', () => seenAt('/alarms').length === 1);
    const [a] = await t.ctx.db.select().from(alarm).where(eq(alarm.deviceId, station.pcs));
    const req = seenAt('/alarms')[0]!;
    expect(req.method).toBe('POST');
    expect(verifyStandardWebhook(SECRET, req.headers, req.body)).toBe(true);
    expect(verifyStandardWebhook(`whsec_${Buffer.from('another key of 32 bytes, really!').toString('base64')}`, req.headers, req.body)).toBe(false);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-ess-event-type']).toBe('alarm.opened');
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(body).toEqual({ text: `alarm ${a!.no} level ${a!.level}`, tenant: 'acme', token: API_KEY, eventId: req.headers['x-ess-event-id'] });

    const [r] = await recordsOf(id);
    alarmRecord = r!.id;
    expect(r).toMatchObject({ state: 'delivered', attempt: 1, origin: 'event', responseStatus: 200, error: null });
    const detail = await post<HookExecRecordDetail>('/hook/exec/record/query/one', { id: r!.id });
    expect(detail.body.errorCode, detail.body.tipMsg).toBe('00000');
    const d = detail.body.data;
    // The secret went to the target but is masked everywhere in the record.
    expect(JSON.stringify(d)).not.toContain(API_KEY);
    expect((d.input as { params: Record<string, string> }).params).toEqual({ tenant: 'acme', apiKey: '******', pin: '******' });
    expect((d.output as Record<string, string>).token).toBe('******');
    expect(d.request!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(d.request!.body).toContain('"token":"******"');
    expect(d.response).toMatchObject({ status: 200, body: 'ok', truncated: false });
    const [h] = await t.ctx.db.select().from(hook).where(eq(hook.id, id));
    expect(h).toMatchObject({ lastDeliveryState: 'delivered', lastResponseStatus: 200, consecutiveFailures: 0 });

    // Redelivered by the outbox (a crash after planning): planned once, sent once.
    await t.ctx.database.sql.query(`update domain_event_delivery set status = 'pending', next_at = now() where subscriber = 'hooks.dispatch'`);
    await settle();
    expect(seenAt('/alarms').length).toBe(1);
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
  });

  it('a secret shorter than 4 characters is masked in the record as well (as a whole token)', async () => {
    const id = await newHook({
      name: 'pin',
      script: 'function main(event, params) { return { pin: params.pin, auth: "PIN " + params.pin, query: "a=1&pin=" + params.pin, word: "Q7Q7 xQ7" }; }',
    });
    await event('alarm.opened', { no: 'PIN-1' });
    await dispatcherOf(t.ctx)!.drain();
    await until('the request', () => seenAt('/pin').length === 1);
    expect(JSON.parse(seenAt('/pin')[0]!.body)).toEqual({ pin: PIN, auth: `PIN ${PIN}`, query: `a=1&pin=${PIN}`, word: 'Q7Q7 xQ7' });
    const [r] = await recordsOf(id);
    const d = (await post<HookExecRecordDetail>('/hook/exec/record/query/one', { id: r!.id })).body.data;
    expect((d.input as { params: Record<string, string> }).params.pin).toBe('******');
    expect(d.output).toEqual({ pin: '******', auth: 'PIN ******', query: 'a=1&pin=******', word: 'Q7Q7 xQ7' });
    expect(JSON.parse(d.request!.body!)).toEqual(d.output);
    expect(JSON.stringify(d).match(/"Q7"|[ =]Q7\b/g)).toBeNull();
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
  });

  it('a receiver answering 500, 500, 200: delivered on the third attempt, three records, one webhook-id', async () => {
    const id = await newHook({ name: 'flaky', backoffMs: 1000, maxRetries: 3 });
    rx.script.set('/flaky', [{ status: 500, body: 'boom' }, { status: 500, body: 'boom' }, { status: 200 }]);
    await event('alarm.opened');
    await settle();
    await until('three attempts', async () => (await recordsOf(id)).some((r) => r.state === 'delivered'), 20_000);
    const records = await recordsOf(id);
    expect(records.map((r) => [r.attempt, r.state, r.responseStatus])).toEqual([[1, 'retrying', 500], [2, 'retrying', 500], [3, 'delivered', 200]]);
    expect(records[0]!.error).toBe('HTTP 500');
    expect(records[0]!.nextAttemptAt).not.toBeNull();
    const reqs = seenAt('/flaky');
    expect(reqs.length).toBe(3);
    expect(new Set(reqs.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(reqs.map((r) => r.headers['x-ess-attempt'])).toEqual(['1', '2', '3']);
    for (const r of reqs) expect(verifyStandardWebhook(SECRET, r.headers, r.body)).toBe(true);
    // Full jitter under an exponential ceiling: each wait at most base·2^(n-1) (plus the poll).
    expect(reqs[1]!.at - reqs[0]!.at).toBeLessThan(1000 + 1500);
    expect(reqs[2]!.at - reqs[1]!.at).toBeLessThan(2000 + 1500);
    const [d] = await t.ctx.db.select().from(hookDelivery).where(eq(hookDelivery.hookId, id));
    expect(d).toMatchObject({ state: 'delivered', attempts: 3 });
  });

  it('a 4xx other than 408/429 is a permanent failure: no retry', async () => {
    const id = await newHook({ name: 'gone', maxRetries: 5 });
    rx.script.set('/gone', [{ status: 410 }]);
    await event('alarm.opened');
    await settle();
    expect((await recordsOf(id)).map((r) => [r.state, r.responseStatus])).toEqual([['failed', 410]]);
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
  });

  it('a receiver that never answers: timeouts, retries, the circuit opens and the owner is told; then it holds', async () => {
    const id = await newHook({ name: 'silent', timeoutMs: 1000, maxRetries: 1, backoffMs: 1000 });
    rx.script.set('/silent', ['hang']);
    await event('alarm.opened');
    await event('alarm.opened');
    await settle();
    await until('the circuit opens', async () => (await t.ctx.db.select({ c: hook.circuit }).from(hook).where(eq(hook.id, id)))[0]!.c === 'open', 20_000);
    const records = await recordsOf(id);
    expect(records.length).toBe(4);
    expect(records.map((r) => r.state).sort()).toEqual(['failed', 'failed', 'retrying', 'retrying']);
    for (const r of records) expect(r.error).toMatch(/超时/);
    const [h] = await t.ctx.db.select().from(hook).where(eq(hook.id, id));
    expect(h).toMatchObject({ circuit: 'open', consecutiveFailures: 2 });
    expect(h!.circuitProbeAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    const notes = await t.ctx.db.select().from(notification).where(eq(notification.userId, owner.id));
    expect(notes.filter((n) => n.title.includes('silent'))).toHaveLength(1);
    // Open: a new event is planned and held, not sent.
    const before = seenAt('/silent').length;
    await event('alarm.opened');
    await settle();
    expect(seenAt('/silent').length).toBe(before);
    const [held] = await t.ctx.db.select().from(hookDelivery).where(and(eq(hookDelivery.hookId, id), eq(hookDelivery.state, 'queued')));
    expect(held).toBeDefined();
    // The cool-down passed (moved here): one probe goes; a receiver back to 200 closes the circuit.
    rx.script.set('/silent', [{ status: 200 }]);
    await t.ctx.db.update(hook).set({ circuitProbeAt: new Date(Date.now() - 1000) }).where(eq(hook.id, id));
    await settle();
    await until('the probe', async () => (await t.ctx.db.select({ c: hook.circuit }).from(hook).where(eq(hook.id, id)))[0]!.c === 'closed');
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
  });

  it('a deactivated hook sends nothing: no plan for new events, a queued delivery closed as not sent', async () => {
    const id = await newHook({ name: 'paused', active: false });
    await event('alarm.opened');
    await settle();
    expect(seenAt('/paused')).toHaveLength(0);
    expect(await t.ctx.db.select().from(hookDelivery).where(eq(hookDelivery.hookId, id))).toHaveLength(0);
    // Planned while active, deactivated before it went.
    await t.ctx.db.insert(hookDelivery).values({ hookId: id, companyId, eventId: 999_999, eventType: 'alarm.opened', eventAt: new Date(), payload: {} });
    await settle();
    expect(seenAt('/paused')).toHaveLength(0);
    expect((await recordsOf(id)).map((r) => [r.state, r.error])).toEqual([['skipped', '钩子已停用，未发送']]);
  });

  it('replay: the current script beside the original output; sending it makes a replay record', async () => {
    const [r] = await t.ctx.db.select().from(hookExecRecord).where(eq(hookExecRecord.id, alarmRecord));
    await t.ctx.db.update(hook).set({ script: 'function main(event, params) { return { v: 2, no: event.data.no, key: params.apiKey }; }' }).where(eq(hook.id, r!.hookId));
    const dry = await post<HookReplayResult>('/hook/exec/record/replay', { id: alarmRecord });
    expect(dry.body.errorCode, dry.body.tipMsg).toBe('00000');
    expect(dry.body.data).toMatchObject({ sameScript: false, recordId: null, state: null, original: { state: 'delivered' } });
    expect((dry.body.data.original.output as { tenant: string }).tenant).toBe('acme');
    expect(dry.body.data.current).toMatchObject({ skipped: false, error: null, output: { v: 2, key: '******' } });
    const before = seenAt('/alarms').length;
    const sent = await post<HookReplayResult>('/hook/exec/record/replay', { id: alarmRecord, send: true });
    expect(sent.body.data.state).toBe('delivered');
    expect(seenAt('/alarms').length).toBe(before + 1);
    const req = seenAt('/alarms').at(-1)!;
    expect(verifyStandardWebhook(SECRET, req.headers, req.body)).toBe(true);
    expect(JSON.parse(req.body)).toMatchObject({ v: 2, key: API_KEY });
    const [rec] = await t.ctx.db.select().from(hookExecRecord).where(eq(hookExecRecord.id, sent.body.data.recordId!));
    expect(rec).toMatchObject({ origin: 'replay', replayOf: alarmRecord, eventId: r!.eventId, state: 'delivered' });
  });

  it('scripts that loop, allocate 1 GB, throw or are not JavaScript fail alone with the reason; a good hook on the same event is delivered', async () => {
    const bad = {
      loop: 'function main() { for (;;) {} }',
      alloc: 'function main() { const a = []; for (;;) a.push(new Array(1 << 20).fill(1)); }',
      throws: 'function main(event) { throw new Error("no " + event.type); }',
      notjs: 'this is not javascript {',
      skip: 'function main() { return null; }',
      huge: 'function main() { return "x".repeat(2 * 1024 * 1024); }',
    };
    const ids = Object.fromEntries(await Promise.all(Object.entries(bad).map(async ([k, script]) => [k, await newHook({ name: `bad-${k}`, script, eventType: 'alarm.ended' })] as const)));
    await newHook({ name: 'good', eventType: 'alarm.ended' });
    const started = Date.now();
    await event('alarm.ended');
    await settle();
    await until('the good hook', () => seenAt('/good').length === 1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const envelope = JSON.parse(seenAt('/good')[0]!.body) as { type: string; data: { no: string } };
    expect(envelope).toMatchObject({ type: 'alarm.ended', data: { no: 'A-1' } });
    const one = async (k: string) => (await recordsOf(ids[k]!))[0]!;
    expect(await one('loop')).toMatchObject({ state: 'failed' });
    expect((await one('loop')).error).toMatch(/^脚本错误，请检查修改 .*超时/);
    expect((await one('alloc')).error).toMatch(/^脚本错误，请检查修改 .*内存/);
    expect((await one('throws')).error).toMatch(/^脚本错误，请检查修改 1:\d+ Error: no alarm\.ended/);
    expect((await one('notjs')).error).toMatch(/^脚本错误，请检查修改 1:\d+ SyntaxError/);
    expect(await one('skip')).toMatchObject({ state: 'skipped', error: null });
    expect(await one('huge')).toMatchObject({ state: 'failed', error: '脚本返回的请求体超过 1 MB，未发送' });
    for (const k of Object.keys(bad)) expect(seenAt(`/bad-${k}`)).toHaveLength(0);
    // A script failure does not count against the target.
    const [h] = await t.ctx.db.select().from(hook).where(eq(hook.id, ids.loop!));
    expect(h).toMatchObject({ circuit: 'closed', consecutiveFailures: 0 });
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.eventType, 'alarm.ended'));
  });

  it('the SSRF guard: loopback refused unless allowed, metadata always, after DNS too; a 10 MB response header refused', async () => {
    const send = async (url: string) => {
      const id = await newHook({ name: `ssrf-${Math.random().toString(36).slice(2, 8)}`, url, eventType: 'alarm.shielded' });
      const r = await post<HookTestResult>('/hook/relate/trigger/test', { id });
      expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
      await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
      return r.body.data;
    };
    await t.ctx.db.update(hookSetting).set({ allowPrivateTargets: false }).where(eq(hookSetting.id, 1));
    const loop = await send(`${rx.url}/never`);
    expect(loop).toMatchObject({ state: 'failed', responseStatus: null });
    expect(loop.error).toMatch(/127\.0\.0\.1.*本机、内网/);
    const byName = await send(`http://localhost:${new URL(rx.url).port}/never`);
    expect(byName.state).toBe('failed');
    expect(byName.error).toMatch(/localhost.*(127\.0\.0\.1|::1)/);
    const ten = await send('http://10.1.2.3/x');
    expect(ten.error).toMatch(/10\.1\.2\.3/);
    await t.ctx.db.update(hookSetting).set({ allowPrivateTargets: true }).where(eq(hookSetting.id, 1));
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/']) {
      const m = await send(url);
      expect(m.state).toBe('failed');
      expect(m.error).toMatch(/元数据/);
    }
    expect(seenAt('/never')).toHaveLength(0);
    // A peer answering a 10 MB header: the HTTP parser refuses it; a failed attempt, nothing else harmed.
    const big = createServer((_req, res) => {
      res.socket?.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(10 * 1024 * 1024)}\r\n\r\n`);
      res.socket?.end();
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    try {
      const r = await send(`http://127.0.0.1:${(big.address() as AddressInfo).port}/`);
      expect(r.state).toBe('failed');
      expect(r.error).toMatch(/HPE_HEADER_OVERFLOW|Header overflow/i);
    } finally {
      big.closeAllConnections();
      await new Promise<void>((resolve) => big.close(() => resolve()));
    }
    const ok = await send(`${rx.url}/after-big`);
    expect(ok.state).toBe('delivered');
  });

  it('a hook made and switched through the API: the secret answered once signs its requests; deactivated, it sends nothing', async () => {
    const added = await post<{ id: number; secret: string }>('/hook/relate/trigger/add', {
      companyId, name: 'via-api', eventType: 'alarm.opened', url: `${rx.url}/via-api`, filter: { siteIds: [station.id], levels: [], statuses: [] },
      script: 'function main(event, params) { return { no: event.data.no, tenant: params.tenant }; }', retry: { maxRetries: 0, backoffMs: 1000 },
    });
    expect(added.body.errorCode, added.body.tipMsg).toBe('00000');
    const { id, secret } = added.body.data;
    expect(secret).toMatch(/^whsec_/);
    await event('alarm.opened', { no: 'API-1' });
    await settle();
    await until('the request', () => seenAt('/via-api').length === 1);
    const req = seenAt('/via-api')[0]!;
    expect(verifyStandardWebhook(secret, req.headers, req.body)).toBe(true);
    expect(JSON.parse(req.body)).toEqual({ no: 'API-1', tenant: 'acme' });
    const off = await t.api.get<{ active: boolean }>('/hook/relate/trigger/active', t.adminToken, { id, active: 'false' });
    expect(off.body.data.active).toBe(false);
    await event('alarm.opened', { no: 'API-2' });
    await settle();
    expect(seenAt('/via-api')).toHaveLength(1);
    const on = await t.api.get<{ active: boolean }>('/hook/relate/trigger/active', t.adminToken, { id, active: 'true' });
    expect(on.body.data.active).toBe(true);
    await event('alarm.opened', { no: 'API-3' });
    await settle();
    await until('the next request', () => seenAt('/via-api').length === 2);
    expect(JSON.parse(seenAt('/via-api')[1]!.body)).toEqual({ no: 'API-3', tenant: 'acme' });
    await t.api.get('/hook/relate/trigger/active', t.adminToken, { id, active: 'false' });
  });

  it('records: page filtered by hook, state (running while a request is in flight), time; refusals', async () => {
    const id = await newHook({ name: 'slow', timeoutMs: 3000, maxRetries: 0, eventType: 'alarm.opened' });
    rx.script.set('/slow', ['hang']);
    await event('alarm.opened');
    void dispatcherOf(t.ctx)!.drain();
    await until('in flight', () => seenAt('/slow').length === 1);
    const running = await post<{ records: HookExecRecord[]; total: number }>('/hook/exec/record/query/page', { current: 1, pageSize: 10, state: 'running' }, owner.token);
    expect(running.body.errorCode, running.body.tipMsg).toBe('00000');
    expect(running.body.data.records.map((r) => r.hookId)).toEqual([id]);
    const byHook = await post<{ records: HookExecRecord[]; total: number }>('/hook/exec/record/query/page', { current: 1, pageSize: 50, hookId: id });
    expect(byHook.body.data.total).toBe(1);
    const future = await post<{ total: number }>('/hook/exec/record/query/page', { current: 1, pageSize: 10, start: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.body.data.total).toBe(0);
    const badTime = await post('/hook/exec/record/query/page', { current: 1, pageSize: 10, start: new Date().toISOString(), end: new Date(Date.now() - 1000).toISOString() });
    expect(badTime.status).toBe(400);
    const badState = await post('/hook/exec/record/query/page', { current: 1, pageSize: 10, state: 'exploded' });
    expect(badState.status).toBe(400);
    // Another company's user sees none of these; naming the hook is refused; the detail is refused.
    const { south } = await seededCompanies(t);
    const stranger = await newUser(t, south.id, { menus: ['/hook/dispatch'] });
    const theirs = await post<{ total: number }>('/hook/exec/record/query/page', { current: 1, pageSize: 10 }, stranger.token);
    expect(theirs.body.data.total).toBe(0);
    expect((await post('/hook/exec/record/query/page', { current: 1, pageSize: 10, hookId: id }, stranger.token)).status).toBe(403);
    expect((await post('/hook/exec/record/query/one', { id: alarmRecord }, stranger.token)).status).toBeGreaterThanOrEqual(403);
    expect((await post('/hook/exec/record/replay', { id: alarmRecord }, stranger.token)).status).toBeGreaterThanOrEqual(403);
    const noMenu = await newUser(t, companyId, { menus: ['/hook/trigger'] });
    expect((await post('/hook/exec/record/query/page', { current: 1, pageSize: 10 }, noMenu.token)).status).toBe(403);
    expect((await t.api.post('/hook/exec/record/query/page', null, { current: 1, pageSize: 10 })).status).toBe(401);
    expect((await post('/hook/exec/record/query/one', { id: 2 ** 40 })).status).toBe(400);
    expect((await post('/hook/exec/record/query/one', { id: 987_654 })).status).toBe(404);
    await t.ctx.db.update(hook).set({ active: false }).where(eq(hook.id, id));
  });

  it('pruning by age and by count', async () => {
    const { pruneRecords } = await import('./records.service.ts');
    const [h] = await t.ctx.db.select({ id: hook.id }).from(hook).limit(1);
    const old = new Date(Date.now() - 40 * 86_400_000);
    await t.ctx.db.insert(hookExecRecord).values(Array.from({ length: 5 }, () => ({ companyId, hookId: h!.id, hookName: 'old', eventType: 'alarm.opened', state: 'delivered', startedAt: old })));
    const total = async () => (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(hookExecRecord))[0]!.n;
    const before = await total();
    const r = await pruneRecords(t.ctx);
    expect(r.byAge).toBe(5);
    expect(await total()).toBe(before - 5);
    await t.ctx.db.update(hookSetting).set({ recordMaxCount: 3 }).where(eq(hookSetting.id, 1));
    const r2 = await pruneRecords(t.ctx);
    expect(r2.byCount).toBe(before - 5 - 3);
    expect(await total()).toBe(3);
    await t.ctx.db.update(hookSetting).set({ recordMaxCount: 1_000_000 }).where(eq(hookSetting.id, 1));
  });
});

describe.skipIf(!DB_TARGETS.includes('postgres'))('deliveries survive a restart (PostgreSQL)', () => {
  it('queued and retrying deliveries, and one whose instance died mid-attempt, are all delivered once after a restart', async () => {
    const rx = await startReceiver();
    const fresh = await freshPostgres();
    const databaseUrl = fresh.url;
    const first = await startTestApp('postgres', {}, { databaseUrl });
    const { east } = await seededCompanies(first);
    const s = await newSite(first, east.id);
    await first.ctx.db.update(hookSetting).set({ allowPrivateTargets: true }).where(eq(hookSetting.id, 1));
    const port = await closedPort();
    const [h] = await first.ctx.db
      .insert(hook)
      .values({
        companyId: east.id, name: 'restart', eventType: 'alarm.opened', url: `http://127.0.0.1:${port}/down`, secretEnc: dispatcherOf(first.ctx)!.box.seal(SECRET, HOOK_SIGNING_SECRET),
        secretHint: 'whsec_', timeoutMs: 2000, maxRetries: 10, backoffMs: 1000,
      })
      .returning({ id: hook.id });
    const N = 20;
    await first.ctx.db.transaction((tx) =>
      emit(tx, 'alarm.opened', Array.from({ length: N }, (_, i) => ({ id: i + 1, no: `R-${i}`, siteId: s.id, deviceId: 1, level: 1, description: 'r', startedAt: new Date().toISOString() }))),
    );
    await first.ctx.outbox.drain();
    await dispatcherOf(first.ctx)!.drain();
    // Every delivery failed its first attempt (connection refused) and waits to retry.
    const states = await first.ctx.db.select({ state: hookDelivery.state }).from(hookDelivery).where(eq(hookDelivery.hookId, h!.id));
    expect(states.length).toBe(N);
    expect(new Set(states.map((r) => r.state))).toEqual(new Set(['retrying']));
    // One was in the hands of an instance that died (its lease ran out).
    await first.ctx.database.sql.query(`update hook_delivery set state = 'running', leased_by = 'dead', lease_until = now() - interval '1 second' where id = (select min(id) from hook_delivery where hook_id = $1)`, [h!.id]);
    await first.close();

    // The target comes back; a new server on the same database takes over.
    await (async () => {
      const c = new (await import('pg')).default.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`update hook set url = $1 where id = $2`, [`${rx.url}/up`, h!.id]);
      await c.end();
    })();
    const second = await startTestApp('postgres', {}, { databaseUrl });
    try {
      await until('all delivered', async () => (await second.ctx.db.select().from(hookDelivery).where(and(eq(hookDelivery.hookId, h!.id), eq(hookDelivery.state, 'delivered')))).length === N, 30_000);
      const ids = rx.seen.filter((r) => r.path === '/up').map((r) => r.headers['webhook-id']);
      expect(ids.length).toBe(N);
      expect(new Set(ids).size).toBe(N);
      for (const r of rx.seen) expect(verifyStandardWebhook(SECRET, r.headers, r.body)).toBe(true);
    } finally {
      await second.stop();
      await rx.close();
      await fresh.drop();
    }
  }, 60_000);
});
