import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import {
  HOOK_FILTER_NOT_APPLICABLE, HOOK_HEADERS_TOO_LARGE, HOOK_SCRIPT_ERROR, HOOK_TRIGGER_UNKNOWN, HOOK_URL_INVALID, HOOK_URL_PRIVATE,
  type HookActiveResult, type HookCreated, type HookParamOption, type HookParamRecord, type HookRecord, type HookSettings,
  type HookTriggerRecord, type HookTriggerScanResult,
} from '@ess/contract/hooks';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newCompany, newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { hook, hookParam, hookSetting, hookTrigger } from '../../db/schema/hooks.ts';
import { SCRIPT_NEEDS_MAIN } from './hook.script.ts';
import { SETTINGS_ADMIN_ONLY } from './hooks.context.ts';
import { PARAM_IN_USE, PARAM_NAME_TAKEN, paramValues } from './param.service.ts';
import { HOOK_NAME_TAKEN } from './hook.service.ts';

/**
 * The hooks calls over real HTTP (PGlite and PostgreSQL): the trigger catalogue and its scan,
 * parameters with write-only secrets, hooks with every save-time check (trigger, filter, script in
 * the sandbox, target address, headers, limits), activation and the circuit, secret rotation,
 * the installation settings — and the refusals: bad input, another company's objects, a user
 * without the hook pages, a non-administrator editing the settings.
 */
const HOOK_PAGES = ['/hook/trigger', '/hook/triggerDetail', '/hook/triggerConfig', '/hook/triggerRelate', '/hook/dispatch'];
const SCRIPT = 'function main(event, params) {\n  return { no: event.data.no, key: params.apiKey };\n}\n';

describe.each(dbTargets(import.meta.url))('hooks on %s', (target) => {
  let t: TestApp;
  let companyId: number;
  let foreignCompanyId: number;
  let siteId: number;
  let foreignSiteId: number;
  let hooker: FactoryUser;
  const post = <T>(path: string, body: unknown, token = hooker.token) => t.api.post<T>(path, token, body);
  const get = <T>(path: string, query: Record<string, string | number | boolean>, token = hooker.token) => t.api.get<T>(path, token, query);
  const hookBody = (extra: Record<string, unknown> = {}) => ({
    companyId, name: `hook-${Math.random().toString(36).slice(2, 8)}`, eventType: 'alarm.opened', url: 'https://hooks.example.com/ess', ...extra,
  });
  const addHook = (extra: Record<string, unknown> = {}) => okData(post<HookCreated>('/hook/relate/trigger/add', hookBody(extra)));
  const setPrivate = (allow: boolean) => t.ctx.db.update(hookSetting).set({ allowPrivateTargets: allow }).where(eq(hookSetting.id, 1));
  const hookCount = async () => Number((await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${hook}`)).rows[0]!.n);

  beforeAll(async () => {
    t = await startTestApp(target);
    const { group } = await seededCompanies(t);
    companyId = (await newCompany(t, group.id)).id;
    foreignCompanyId = (await newCompany(t, group.id)).id;
    siteId = (await newSite(t, companyId)).id;
    foreignSiteId = (await newSite(t, foreignCompanyId)).id;
    hooker = await newUser(t, companyId, { menus: HOOK_PAGES, siteIds: [siteId] });
  });
  afterAll(async () => t?.stop());

  describe('triggers', () => {
    it('lists the catalogue the modules declare, with payload fields, filters and an example', async () => {
      const list = await okData(post<HookTriggerRecord[]>('/hook/trigger/query/list', {}));
      const opened = list.find((r) => r.eventType === 'alarm.opened')!;
      expect(opened).toMatchObject({ module: 'alarm', name: '告警产生', status: 'active', filterKinds: ['site', 'level'] });
      expect(opened.fields.map((f) => f.name)).toEqual(['id', 'no', 'siteId', 'deviceId', 'level', 'description', 'startedAt']);
      expect(opened.fields.find((f) => f.name === 'level')).toMatchObject({ type: 'integer', label: '告警等级', required: true, nullable: false });
      expect(opened.example).toMatchObject({ level: 2, siteId: 1 });
      expect(opened.payloadSchema.type).toBe('object');
      const repair = list.find((r) => r.eventType === 'repair.closed')!;
      expect(repair.module).toBe('maintenance');
      expect(repair.fields.find((f) => f.name === 'note')).toMatchObject({ nullable: true, type: 'string' });
      for (const type of ['device.offline', 'workorder.completed', 'statement.locked', 'strategy.synchronised', 'alarm.unacknowledged', 'price.changed'])
        expect(list.some((r) => r.eventType === type), type).toBe(true);
    });

    it('pages, filters, sorts and reads one by id or type; an unknown one is 404', async () => {
      const page = await okData(post<Page<HookTriggerRecord>>('/hook/trigger/query/page', { current: 1, pageSize: 5, module: 'alarm', sortField: 'eventType', sortOrder: 'desc' }));
      expect(page.records.every((r) => r.module === 'alarm')).toBe(true);
      expect(page.records.map((r) => r.eventType)).toEqual([...page.records.map((r) => r.eventType)].sort().reverse());
      const kw = await okData(post<Page<HookTriggerRecord>>('/hook/trigger/query/page', { keyword: '维修' }));
      expect(kw.records.length).toBeGreaterThan(0);
      expect(kw.records.every((r) => r.eventType.startsWith('repair.'))).toBe(true);
      const one = await okData(post<HookTriggerRecord>('/hook/trigger/query/one', { eventType: 'device.online' }));
      expect((await okData(post<HookTriggerRecord>('/hook/trigger/query/one', { id: one.id }))).eventType).toBe('device.online');
      expect((await post('/hook/trigger/query/one', { eventType: 'nope.never' })).status).toBe(404);
      expect((await post('/hook/trigger/query/one', {})).status).toBe(400);
      expect((await post('/hook/trigger/query/page', { sortField: 'payloadSchema' })).status).toBe(400);
    });

    it('scan reports what changed: added, gone, revived, changed; a dry run writes nothing', async () => {
      const first = await okData(get<HookTriggerScanResult>('/hook/trigger/scan', {}));
      expect(first).toMatchObject({ added: [], gone: [], revived: [], changed: [], dryRun: false });
      expect(first.unchanged).toBeGreaterThanOrEqual(36);
      await t.ctx.db.delete(hookTrigger).where(eq(hookTrigger.eventType, 'alarm.ended'));
      await t.ctx.db.insert(hookTrigger).values({ eventType: 'legacy.removed', module: 'legacy', name: '旧事件', payloadSchema: { type: 'object' } });
      await t.ctx.db.update(hookTrigger).set({ status: 'gone' }).where(eq(hookTrigger.eventType, 'device.online'));
      await t.ctx.db.update(hookTrigger).set({ payloadSchema: { type: 'object', properties: {} } }).where(eq(hookTrigger.eventType, 'site.changed'));
      const dry = await okData(get<HookTriggerScanResult>('/hook/trigger/scan', { dryRun: 'true' }));
      expect(dry).toMatchObject({ added: ['alarm.ended'], gone: ['legacy.removed'], revived: ['device.online'], changed: ['site.changed'], dryRun: true });
      const again = await okData(get<HookTriggerScanResult>('/hook/trigger/scan', {}));
      expect(again).toMatchObject({ added: ['alarm.ended'], gone: ['legacy.removed'], revived: ['device.online'], changed: ['site.changed'], dryRun: false });
      const legacy = await okData(post<HookTriggerRecord>('/hook/trigger/query/one', { eventType: 'legacy.removed' }));
      expect(legacy.status).toBe('gone');
      const gonePage = await okData(post<Page<HookTriggerRecord>>('/hook/trigger/query/page', { status: 'gone' }));
      expect(gonePage.records.map((r) => r.eventType)).toEqual(['legacy.removed']);
      expect(await okData(get<HookTriggerScanResult>('/hook/trigger/scan', {}))).toMatchObject({ added: [], gone: [], revived: [], changed: [] });
      expect((await get('/hook/trigger/scan', { dryRun: 'maybe' })).status).toBe(400);
    });
  });

  describe('parameters', () => {
    it('keeps a secret write-only: never answered, sealed at rest, kept when an edit leaves it out', async () => {
      const { id } = await okData(post<{ id: number }>('/hook/relate/param/add', { companyId, name: 'apiKey', kind: 'secret', value: 'TOPSECRET-42' }));
      await okData(post('/hook/relate/param/add', { companyId, name: 'source', kind: 'constant', value: 'ess' }));
      const res = await post<HookParamRecord[]>('/hook/relate/param/query/list', { companyId });
      expect(res.raw.toString('utf8')).not.toContain('TOPSECRET-42');
      const secret = res.body.data.find((p) => p.name === 'apiKey')!;
      expect(secret).toMatchObject({ kind: 'secret', value: null, valueSet: true, usedBy: 0 });
      expect(res.body.data.find((p) => p.name === 'source')).toMatchObject({ kind: 'constant', value: 'ess', valueSet: true });
      const one = await post<HookParamRecord>('/hook/relate/param/query/one', { id });
      expect(one.raw.toString('utf8')).not.toContain('TOPSECRET-42');
      const [row] = await t.ctx.db.select().from(hookParam).where(eq(hookParam.id, id));
      expect(row!.value).toBeNull();
      expect(row!.valueEnc).not.toContain('TOPSECRET');
      await okData(post('/hook/relate/param/edit', { id, companyId, name: 'apiKey', kind: 'secret', remark: '接收方密钥' }));
      expect((await paramValues(t.ctx, companyId)).values).toMatchObject({ apiKey: 'TOPSECRET-42', source: 'ess' });
      expect((await paramValues(t.ctx, companyId)).secrets).toEqual(['apiKey']);
      await okData(post('/hook/relate/param/edit', { id, companyId, name: 'apiKey', kind: 'secret', value: 'NEWSECRET' }));
      expect((await paramValues(t.ctx, companyId)).values.apiKey).toBe('NEWSECRET');
    });

    it('refuses a bad name, a missing value, a duplicate, another company; a parameter in use is neither deleted nor renamed', async () => {
      expect((await post('/hook/relate/param/add', { companyId, name: '9lives', kind: 'constant', value: 'x' })).status).toBe(400);
      expect((await post('/hook/relate/param/add', { companyId, name: 'empty', kind: 'constant' })).status).toBe(400);
      const dup = await post('/hook/relate/param/add', { companyId, name: 'source', kind: 'constant', value: 'y' });
      expect(dup.body.tipMsg).toBe(PARAM_NAME_TAKEN);
      expect((await post('/hook/relate/param/add', { companyId: foreignCompanyId, name: 'x', kind: 'constant', value: 'y' })).status).toBe(403);
      const { id } = await okData(post<{ id: number }>('/hook/relate/param/add', { companyId, name: 'usedOne', kind: 'constant', value: 'v' }));
      await addHook({ script: 'function main(event, params) { return { v: params.usedOne }; }' });
      const used = await okData(post<HookParamRecord>('/hook/relate/param/query/one', { id }));
      expect(used.usedBy).toBe(1);
      const del = await get('/hook/relate/param/delete', { id });
      expect([del.status, del.body.tipMsg]).toEqual([406, PARAM_IN_USE(1)]);
      const rename = await post('/hook/relate/param/edit', { id, companyId, name: 'renamed', kind: 'constant', value: 'v' });
      expect(rename.body.tipMsg).toBe(PARAM_IN_USE(1));
      const { id: free } = await okData(post<{ id: number }>('/hook/relate/param/add', { companyId, name: 'freeOne', kind: 'constant', value: 'v' }));
      expect(await okData(get('/hook/relate/param/delete', { id: free }))).toBe(true);
      expect((await post('/hook/relate/param/query/one', { id: free })).status).toBe(404);
    });

    it('lists what a script can use: the event, the trigger payload and the parameters', async () => {
      const opts = await okData(post<HookParamOption[]>('/hook/param/query/list', { eventType: 'alarm.opened', companyId }));
      expect(opts.filter((o) => o.source === 'event').map((o) => o.expression)).toEqual(['event.id', 'event.type', 'event.timestamp']);
      expect(opts.find((o) => o.name === 'level')).toMatchObject({ source: 'payload', expression: 'event.data.level', type: 'integer' });
      expect(opts.find((o) => o.name === 'apiKey')).toMatchObject({ source: 'secret', expression: 'params.apiKey' });
      expect((await post('/hook/param/query/list', { eventType: 'nope.never' })).status).toBe(404);
      expect((await post('/hook/param/query/list', { companyId: foreignCompanyId })).status).toBe(403);
    });
  });

  describe('hooks', () => {
    it('adds a hook with defaults and answers its signing secret once', async () => {
      const created = await addHook({ script: SCRIPT, filter: { siteIds: [siteId], levels: [1, 2] }, headers: [{ name: 'Authorization', value: 'Bearer x' }] });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
      const one = await post<HookRecord>('/hook/relate/trigger/query/one', { id: created.id });
      expect(one.raw.toString('utf8')).not.toContain(created.secret.slice(6));
      expect(one.body.data).toMatchObject({
        eventType: 'alarm.opened', eventName: '告警产生', triggerGone: false, method: 'POST', timeoutMs: 10_000, retry: { maxRetries: 5, backoffMs: 10_000 },
        active: true, circuit: 'closed', consecutiveFailures: 0, secretHint: `${created.secret.slice(0, 10)}…`, ownerId: hooker.id, ownerName: hooker.name,
        filter: { siteIds: [siteId], levels: [1, 2], statuses: [] }, script: SCRIPT, lastDeliveryAt: null,
      });
    });

    it('refuses scripts that do not compile, throw, loop forever, allocate a gigabyte or define no main — and keeps serving', async () => {
      const cases: [string, RegExp][] = [
        ['function main(event {', /^脚本错误，请检查修改：1:\d+ /],
        ['\n\nthrow new Error("boom")', /^脚本错误，请检查修改：3:\d+ .*boom/],
        ['while (true) {}', /^脚本错误，请检查修改：/],
        ['const a = []; for (;;) a.push(new Array(1e6).fill(1));', /^脚本错误，请检查修改：/],
        ['const big = new ArrayBuffer(1024 * 1024 * 1024);', /^脚本错误，请检查修改：/],
        ['<html>not javascript</html>', /^脚本错误，请检查修改：1:\d+ /],
        ['const x = 1;', new RegExp(`^${HOOK_SCRIPT_ERROR}：${SCRIPT_NEEDS_MAIN.replace(/[()]/g, '\\$&')}$`)],
      ];
      const before = await hookCount();
      for (const [script, tip] of cases) {
        const r = await post('/hook/relate/trigger/add', hookBody({ script }));
        expect([r.status, r.body.errorCode], script).toEqual([406, 'A0430']);
        expect(r.body.tipMsg, script).toMatch(tip);
      }
      expect(await hookCount()).toBe(before);
      expect((await addHook({ script: SCRIPT })).id).toBeGreaterThan(0);
    });

    it('refuses loopback, private and metadata targets unless allowed (metadata never), and URLs that are not http(s)', async () => {
      for (const url of ['http://127.0.0.1:8628/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://10.0.0.5/', 'http://localhost:9000/', 'http://2130706433/']) {
        const r = await post('/hook/relate/trigger/add', hookBody({ url }));
        expect([r.status, r.body.tipMsg], url).toEqual([406, HOOK_URL_PRIVATE]);
      }
      for (const url of ['ftp://example.com/', 'http://user:pw@example.com/', 'not a url']) {
        const r = await post('/hook/relate/trigger/add', hookBody({ url }));
        expect([r.status, r.body.tipMsg], url).toEqual([400, `url: ${HOOK_URL_INVALID}`]);
      }
      await setPrivate(true);
      try {
        expect((await addHook({ url: 'http://127.0.0.1:8628/x' })).id).toBeGreaterThan(0);
        const meta = await post('/hook/relate/trigger/add', hookBody({ url: 'http://169.254.169.254/' }));
        expect(meta.body.tipMsg).toBe(HOOK_URL_PRIVATE);
      } finally {
        await setPrivate(false);
      }
    });

    it('refuses oversized headers (a 10 MB one too), reserved ones, out-of-range limits, filters the event lacks, other stations and unknown or gone triggers', async () => {
      const before = await hookCount();
      const big = await post('/hook/relate/trigger/add', hookBody({ headers: [{ name: 'X-Big', value: 'x'.repeat(10 * 1024 * 1024) }] }));
      expect(big.status).toBe(413);
      const nine = await post('/hook/relate/trigger/add', hookBody({ headers: [{ name: 'X-Big', value: 'x'.repeat(9 * 1024) }] }));
      expect([nine.status, nine.body.tipMsg]).toEqual([400, `headers.0.value: ${HOOK_HEADERS_TOO_LARGE}`]);
      expect((await post('/hook/relate/trigger/add', hookBody({ headers: [{ name: 'Webhook-Signature', value: 'v1,x' }] }))).status).toBe(400);
      expect((await post('/hook/relate/trigger/add', hookBody({ timeoutMs: 60_000 }))).status).toBe(400);
      expect((await post('/hook/relate/trigger/add', hookBody({ retry: { maxRetries: 11, backoffMs: 1000 } }))).status).toBe(400);
      expect((await post('/hook/relate/trigger/add', hookBody({ method: 'DELETE' }))).status).toBe(400);
      const status = await post('/hook/relate/trigger/add', hookBody({ filter: { statuses: ['closed'] } }));
      expect([status.status, status.body.tipMsg]).toEqual([406, HOOK_FILTER_NOT_APPLICABLE]);
      const level = await post('/hook/relate/trigger/add', hookBody({ eventType: 'repair.closed', filter: { levels: [1] } }));
      expect(level.body.tipMsg).toBe(HOOK_FILTER_NOT_APPLICABLE);
      expect((await post('/hook/relate/trigger/add', hookBody({ filter: { siteIds: [foreignSiteId] } }))).status).toBe(403);
      expect((await post('/hook/relate/trigger/add', hookBody({ eventType: 'nope.never' }))).body.tipMsg).toBe(HOOK_TRIGGER_UNKNOWN);
      await t.ctx.db.update(hookTrigger).set({ status: 'gone' }).where(eq(hookTrigger.eventType, 'plan.expired'));
      expect((await post('/hook/relate/trigger/add', hookBody({ eventType: 'plan.expired' }))).body.tipMsg).toBe(HOOK_TRIGGER_UNKNOWN);
      expect((await post('/hook/relate/trigger/add', hookBody({ companyId: foreignCompanyId }))).status).toBe(403);
      const name = `dup-${Date.now()}`;
      await addHook({ name });
      expect((await post('/hook/relate/trigger/add', hookBody({ name }))).body.tipMsg).toBe(HOOK_NAME_TAKEN);
      expect(await hookCount()).toBe(before + 1);
    });

    it('edits (keeping the secret, closing the circuit), deactivates without losing settings, activates closing the circuit, rotates the secret, deletes', async () => {
      const { id, secret } = await addHook({ script: SCRIPT, remark: 'r1' });
      await t.ctx.db.update(hook).set({ circuit: 'open', consecutiveFailures: 5, circuitOpenedAt: new Date() }).where(eq(hook.id, id));
      const name = `edited-${id}`;
      expect(await okData(post('/hook/relate/trigger/edit', { ...hookBody({ name, method: 'PUT', timeoutMs: 3000, retry: { maxRetries: 0, backoffMs: 1000 } }), id }))).toBe(true);
      let one = await okData(post<HookRecord>('/hook/relate/trigger/query/one', { id }));
      expect(one).toMatchObject({ name, method: 'PUT', timeoutMs: 3000, retry: { maxRetries: 0, backoffMs: 1000 }, circuit: 'closed', consecutiveFailures: 0, script: null, secretHint: `${secret.slice(0, 10)}…` });
      expect(await okData(get<HookActiveResult>('/hook/relate/trigger/active', { id }))).toEqual({ active: false, circuit: 'closed' });
      one = await okData(post<HookRecord>('/hook/relate/trigger/query/one', { id }));
      expect(one).toMatchObject({ active: false, name, method: 'PUT', timeoutMs: 3000 });
      await t.ctx.db.update(hook).set({ circuit: 'open', consecutiveFailures: 5 }).where(eq(hook.id, id));
      expect(await okData(get<HookActiveResult>('/hook/relate/trigger/active', { id, active: 'false' }))).toEqual({ active: false, circuit: 'open' });
      expect(await okData(get<HookActiveResult>('/hook/relate/trigger/active', { id, active: 'true' }))).toEqual({ active: true, circuit: 'closed' });
      expect((await okData(post<HookRecord>('/hook/relate/trigger/query/one', { id }))).consecutiveFailures).toBe(0);
      const rotated = await okData(post<{ secret: string }>('/hook/relate/trigger/secret/rotate', { id }));
      expect(rotated.secret).not.toBe(secret);
      expect((await okData(post<HookRecord>('/hook/relate/trigger/query/one', { id }))).secretHint).toBe(`${rotated.secret.slice(0, 10)}…`);
      expect(await okData(get('/hook/relate/trigger/delete', { id }))).toBe(true);
      expect((await post('/hook/relate/trigger/query/one', { id })).status).toBe(404);
      expect((await get('/hook/relate/trigger/active', { id })).status).toBe(404);
    });

    it('pages with filters and sorting, only the caller’s companies', async () => {
      await t.ctx.db.insert(hook).values({ companyId: foreignCompanyId, name: 'foreign', eventType: 'alarm.opened', url: 'https://x.example.com/', secretEnc: 'x', secretHint: 'x' });
      const { id } = await addHook({ name: 'zz-inactive', eventType: 'device.offline', active: false });
      const page = await okData(post<Page<HookRecord>>('/hook/relate/trigger/query/page', { current: 1, pageSize: 100, sortField: 'name' }));
      expect(page.records.every((r) => r.companyId === companyId)).toBe(true);
      expect(page.records.map((r) => r.name)).toEqual([...page.records.map((r) => r.name)].sort((a, b) => (a < b ? -1 : 1)));
      const inactive = await okData(post<Page<HookRecord>>('/hook/relate/trigger/query/page', { active: false, eventType: 'device.offline' }));
      expect(inactive.records.map((r) => r.id)).toEqual([id]);
      const admin = await okData(post<Page<HookRecord>>('/hook/relate/trigger/query/page', { name: 'foreign' }, t.adminToken));
      expect(admin.records.map((r) => r.name)).toEqual(['foreign']);
      const trig = await okData(post<HookTriggerRecord>('/hook/trigger/query/one', { eventType: 'device.offline' }));
      expect([trig.hookCount, trig.activeHookCount]).toEqual([1, 0]);
    });

    it('refuses a user without the hook pages and another company’s hook', async () => {
      const outsider = await newUser(t, companyId, { menus: ['/home/index'] });
      expect((await post('/hook/relate/trigger/query/page', {}, outsider.token)).status).toBe(403);
      expect((await post('/hook/trigger/query/list', {}, outsider.token)).status).toBe(403);
      const [foreign] = await t.ctx.db.select({ id: hook.id }).from(hook).where(eq(hook.companyId, foreignCompanyId));
      expect([403, 404]).toContain((await post('/hook/relate/trigger/query/one', { id: foreign!.id })).status);
      expect([403, 404]).toContain((await get('/hook/relate/trigger/delete', { id: foreign!.id })).status);
      expect([403, 404]).toContain((await post('/hook/relate/trigger/edit', { ...hookBody(), id: foreign!.id })).status);
      expect((await t.ctx.db.select({ id: hook.id }).from(hook).where(eq(hook.id, foreign!.id))).length).toBe(1);
    });
  });

  describe('settings', () => {
    it('answers the settings; only an administrator of the top company edits them; bad values are refused', async () => {
      const s = await okData(post<HookSettings>('/hook/setting/query/one', {}));
      expect(s).toMatchObject({ allowPrivateTargets: false, recordMaxAgeDays: 30, recordMaxCount: 1_000_000, circuitThreshold: 5, circuitCooldownMinutes: 10 });
      const next = { allowPrivateTargets: false, recordMaxAgeDays: 7, recordMaxCount: 5000, circuitThreshold: 3, circuitCooldownMinutes: 2 };
      const refused = await post('/hook/setting/edit', next);
      expect([refused.status, refused.body.tipMsg]).toEqual([403, SETTINGS_ADMIN_ONLY]);
      expect(await okData(post('/hook/setting/edit', next, t.adminToken))).toBe(true);
      const saved = await okData(post<HookSettings & { updatedByName: string | null }>('/hook/setting/query/one', {}));
      expect(saved).toMatchObject(next);
      expect(saved.updatedByName).toBeTruthy();
      expect((await post('/hook/setting/edit', { ...next, recordMaxAgeDays: 0 }, t.adminToken)).status).toBe(400);
      expect((await post('/hook/setting/edit', { ...next, circuitThreshold: 1000 }, t.adminToken)).status).toBe(400);
    });
  });
});
