import { basicEndpoints } from '@ess/contract/basic';
import {
  HOOK_SCRIPT_ERROR, hookEndpoints, type HookExecRecord, type HookParamOption, type HookParamRecord, type HookTriggerRecord,
} from '@ess/contract/hooks';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { DispatchPage } from './DispatchPage.tsx';
import { checkHook, headersSize, hookBody, insertAt, NEW_HOOK, scriptVerdict, type HookForm } from './hook.form.ts';
import { HookConfigPage } from './HookConfigPage.tsx';
import { paramResource } from './param.resource.tsx';
import { ResourceTable } from '../../components/crud/index.ts';

pageTests();

const t = (s: string, ...args: unknown[]) => args.reduce<string>((out, a, i) => out.replace(`$${i + 1}`, String(a)), s);
const page = (records: unknown[]) => ({ records, total: records.length, current: 1, pageSize: 20 });
const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p);
const allow = (...eps: { path: string }[]) => useUserStore.setState({ permissions: new Set(eps.map((e) => e.path)) });

function serve(answers: Record<string, (c: Call) => unknown>) {
  return mockFetch((c) => {
    const a = answers[path(c)];
    return json(envelope(a ? a(c) : page([])));
  });
}

function renderAt(url: string, node: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const VALID: HookForm = {
  ...NEW_HOOK, companyId: 1, name: '告警推送', eventType: 'alarm.opened', url: 'https://example.com/hook', siteIds: [3], levels: [1, 2], statuses: ['x'],
};
const errorsOf = (v: HookForm, kinds = ['site', 'level']) => Object.fromEntries(checkHook(hookBody(v, kinds), t).map((e) => [e.name.join('.'), e.errors]));

describe('the hook form: the body and its rules (the contract the server applies)', () => {
  it('sends seconds as milliseconds, the retry policy nested, and empties the filters the trigger does not take', () => {
    const b = hookBody(VALID, ['site', 'level']);
    expect(b).toMatchObject({ timeoutMs: 10_000, retry: { maxRetries: 5, backoffMs: 10_000 }, filter: { siteIds: [3], levels: [1, 2], statuses: [] }, script: null });
    expect(hookBody(VALID, []).filter).toEqual({ siteIds: [], levels: [], statuses: [] });
    expect(hookBody({ ...VALID, headers: [{ name: '', value: '' }, { name: ' X-Key ', value: 'v' }] }, []).headers).toEqual([{ name: 'X-Key', value: 'v' }]);
    expect(hookBody(VALID, [], 7)).toHaveProperty('id', 7);
    expect(checkHook(hookBody(VALID, ['site', 'level']), t)).toEqual([]);
  });

  it('refuses a timeout outside 1–30 s, more than 10 retries, a bad URL, a URL with credentials, and names the field', () => {
    expect(errorsOf({ ...VALID, timeoutSeconds: 0.5 })).toEqual({ timeoutSeconds: ['超时时间应为1-30秒'] });
    expect(errorsOf({ ...VALID, timeoutSeconds: 31 })).toEqual({ timeoutSeconds: ['超时时间应为1-30秒'] });
    expect(errorsOf({ ...VALID, maxRetries: 11 })).toEqual({ maxRetries: ['重试次数应为0-10'] });
    expect(errorsOf({ ...VALID, backoffSeconds: 0 })).toEqual({ backoffSeconds: ['退避基数应为1-3600秒'] });
    expect(errorsOf({ ...VALID, url: 'ftp://example.com/x' })).toEqual({ url: ['目标地址须为 http(s) 地址'] });
    expect(errorsOf({ ...VALID, url: 'https://user:pw@example.com/x' })).toEqual({ url: ['目标地址须为 http(s) 地址'] });
    expect(errorsOf({ ...VALID, name: '' })).toEqual({ name: ['钩子名称不能为空'] });
    expect(errorsOf({ ...VALID, companyId: undefined })).toEqual({ companyId: ['所属公司不能为空'] });
  });

  it('refuses a reserved header, a bad header name and headers over 8 KB (a 10 MB one included)', () => {
    expect(errorsOf({ ...VALID, headers: [{ name: 'Webhook-Signature', value: 'x' }] })).toEqual({ 'headers.0.name': ['该请求头由系统设置，不能自定义'] });
    expect(errorsOf({ ...VALID, headers: [{ name: 'Bad Name', value: 'x' }] })).toEqual({ 'headers.0.name': ['请求头名称格式不正确'] });
    const huge = { ...VALID, headers: [{ name: 'X-Big', value: 'a'.repeat(10 * 1024 * 1024) }] };
    expect(Object.values(errorsOf(huge)).flat()).toContain('请求头总长度不能超过8192字节');
    expect(headersSize(huge.headers)).toMatchObject({ over: true, max: 8192 });
    expect(headersSize([{ name: 'X-Key', value: 'abc' }])).toEqual({ bytes: 'X-Key: abc\r\n'.length, max: 8192, over: false });
  });

  it('reads the sandbox verdict as the spec words it, with line and column', () => {
    expect(scriptVerdict({ valid: true })).toEqual({ valid: true });
    expect(scriptVerdict({ valid: false, error: '3:14 ReferenceError: foo is not defined' })).toEqual({
      valid: false, title: HOOK_SCRIPT_ERROR, line: 3, column: 14, message: 'ReferenceError: foo is not defined',
    });
    expect(scriptVerdict({ valid: false, error: 'interrupted' })).toEqual({ valid: false, title: HOOK_SCRIPT_ERROR, line: null, column: null, message: 'interrupted' });
  });

  it('inserts a parameter at the caret, replacing the selection', () => {
    expect(insertAt('return ;', 'event.data.level', 7)).toEqual({ text: 'return event.data.level;', caret: 23 });
    expect(insertAt('a XX b', 'params.key', 2, 4)).toEqual({ text: 'a params.key b', caret: 12 });
    expect(insertAt('', 'x', 99)).toEqual({ text: 'x', caret: 1 });
  });
});

const TRIGGER: HookTriggerRecord = {
  id: 1, eventType: 'alarm.opened', module: 'alarm', name: '告警产生', status: 'active', payloadSchema: {},
  fields: [{ name: 'level', type: 'integer', label: '告警等级', required: true, nullable: false, values: null }],
  filterKinds: ['site', 'level'], example: { level: 1 }, firstSeenAt: '2026-11-20T02:00:00.000Z', lastSeenAt: '2026-11-29T02:00:00.000Z', hookCount: 0, activeHookCount: 0,
};
const PARAMS: HookParamOption[] = [
  { source: 'payload', name: 'level', expression: 'event.data.level', type: 'integer', label: '告警等级', paramId: null, companyId: null },
  { source: 'secret', name: 'apiKey', expression: 'params.apiKey', type: 'string', label: null, paramId: 4, companyId: 1 },
];

describe('/hook/triggerConfig', () => {
  it('checks the script in the sandbox and shows "Script error" with the line; a parameter click inserts it', async () => {
    allow(hookEndpoints.relateTriggerAdd, hookEndpoints.triggerList, hookEndpoints.paramList, basicEndpoints.validateScript);
    const srv = serve({
      [hookEndpoints.triggerList.path]: () => [TRIGGER],
      [hookEndpoints.paramList.path]: () => PARAMS,
      [basicEndpoints.validateScript.path]: (c) => (String(body(c).script).includes('event.data.level') ? { valid: true } : { valid: false, error: '2:10 SyntaxError: unexpected token' }),
      '/system/company/query/tree': () => [{ id: 1, name: '华东', children: [] }],
    });
    renderAt('/hook/triggerConfig?eventType=alarm.opened', <HookConfigPage />);
    const script = await screen.findByTestId('script-input', {}, { timeout: 20_000 });
    fireEvent.change(script, { target: { value: 'function main(event) {\n  return {;\n}' } });
    fireEvent.click(screen.getByTestId('script-check'));
    const error = await screen.findByTestId('script-error');
    expect(error.textContent).toContain(HOOK_SCRIPT_ERROR);
    expect(within(error).getByTestId('script-error-line').textContent).toContain('第 2 行，第 10 列');
    expect(error.textContent).toContain('SyntaxError: unexpected token');
    expect(body(callsTo(srv.calls, basicEndpoints.validateScript.path)[0]!)).toEqual({ script: 'function main(event) {\n  return {;\n}' });

    // The trigger's payload fields and the company's parameters are offered; a click inserts at the caret.
    await waitFor(() => expect(screen.getAllByTestId('script-param').length).toBe(2));
    fireEvent.change(script, { target: { value: 'function main(event) { return ; }' } });
    (script as HTMLTextAreaElement).setSelectionRange(30, 30);
    fireEvent.click(screen.getByText('event.data.level'));
    await waitFor(() => expect((script as HTMLTextAreaElement).value).toBe('function main(event) { return event.data.level; }'));
    fireEvent.click(screen.getByTestId('script-check'));
    await screen.findByTestId('script-valid');
    expect(screen.queryByTestId('script-error')).toBeNull();
  });

  it('refuses a reserved header before sending anything, then saves and shows the signing secret once', async () => {
    allow(hookEndpoints.relateTriggerAdd, hookEndpoints.triggerList, hookEndpoints.paramList);
    const srv = serve({
      [hookEndpoints.triggerList.path]: () => [TRIGGER],
      [hookEndpoints.paramList.path]: () => [],
      [hookEndpoints.relateTriggerAdd.path]: () => ({ id: 9, secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' }),
      [hookEndpoints.relateTriggerOne.path]: () => null,
      '/system/company/query/tree': () => [{ id: 1, name: '华东', children: [] }],
    });
    renderAt('/hook/triggerConfig?eventType=alarm.opened', <HookConfigPage />);
    const form = await screen.findByTestId('hook-form', {}, { timeout: 20_000 });
    fireEvent.change(within(form).getByLabelText('钩子名称'), { target: { value: '告警推送' } });
    fireEvent.change(screen.getByTestId('hook-url'), { target: { value: 'https://example.com/hook' } });
    fireEvent.click(screen.getByTestId('header-add'));
    fireEvent.change(await screen.findByLabelText('请求头名称'), { target: { value: 'webhook-id' } });
    fireEvent.change(screen.getByLabelText('请求头的值'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('hook-save'));
    expect((await screen.findAllByText('该请求头由系统设置，不能自定义')).length).toBeGreaterThan(0);
    expect(callsTo(srv.calls, hookEndpoints.relateTriggerAdd.path)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('请求头名称'), { target: { value: 'X-Api-Key' } });
    fireEvent.click(screen.getByTestId('hook-save'));
    await waitFor(() => expect(callsTo(srv.calls, hookEndpoints.relateTriggerAdd.path)).toHaveLength(1));
    expect(body(callsTo(srv.calls, hookEndpoints.relateTriggerAdd.path)[0]!)).toMatchObject({
      companyId: 1, name: '告警推送', eventType: 'alarm.opened', method: 'POST', url: 'https://example.com/hook', headers: [{ name: 'X-Api-Key', value: 'x' }],
      timeoutMs: 10_000, retry: { maxRetries: 5, backoffMs: 10_000 }, filter: { siteIds: [], levels: [], statuses: [] }, active: true,
    });
    const once = await screen.findByTestId('secret-once');
    expect(within(once).getByTestId('secret-value').textContent).toContain('whsec_c2VjcmV0LXNob3duLW9uY2U=');
  });
});

describe('parameters: a secret is write-only', () => {
  it('lists a secret as "set" without its value even when a server leaks it', async () => {
    allow(hookEndpoints.relateParamList);
    const LEAK = 'sk-live-LEAKED';
    const rec = (over: Partial<HookParamRecord>): HookParamRecord & { secret?: string } => ({
      id: 1, companyId: 1, companyName: '华东', name: 'apiKey', kind: 'secret', value: null, valueSet: true, remark: null, usedBy: 2,
      createdAt: '2026-11-20T02:00:00.000Z', updatedAt: '2026-11-20T02:00:00.000Z', createdByName: 'admin', ...over,
    });
    serve({ [hookEndpoints.relateParamList.path]: () => [{ ...rec({}), secret: LEAK }, rec({ id: 2, name: 'tenant', kind: 'constant', value: 'acme' })] });
    const { container } = renderAt('/hook/triggerConfig', <ResourceTable def={paramResource} />);
    const row = (await screen.findByText('apiKey', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByText('已设置')).toBeTruthy();
    expect(screen.getByText('acme')).toBeTruthy();
    expect(container.textContent).not.toContain(LEAK);
  });
});

describe('/hook/dispatch', () => {
  it('filters by the hook of the address, and replays a record with the current script side by side', async () => {
    allow(hookEndpoints.execRecordPage, hookEndpoints.execRecordReplay);
    const RECORD: HookExecRecord = {
      id: 31, companyId: 1, hookId: 5, hookName: '告警推送', deliveryId: 2, eventId: 77, eventType: 'alarm.opened', origin: 'event', attempt: 1, state: 'delivered',
      method: 'POST', url: 'http://127.0.0.1:8628/hook', responseStatus: 200, durationMs: 12, error: null, nextAttemptAt: null, replayOf: null,
      startedAt: '2026-11-29T02:00:00.000Z', finishedAt: '2026-11-29T02:00:00.012Z',
    };
    const srv = serve({
      [hookEndpoints.execRecordPage.path]: () => page([RECORD]),
      [hookEndpoints.execRecordReplay.path]: () => ({
        original: { output: { level: 1 }, state: 'delivered', error: null }, current: { output: { level: 1, text: 'new' }, skipped: false, error: null },
        sameScript: false, recordId: null, state: null,
      }),
    });
    renderAt('/hook/dispatch?hookId=5', <DispatchPage />);
    const row = (await screen.findByText('告警推送', {}, { timeout: 20_000 })).closest('tr')!;
    expect(body(callsTo(srv.calls, hookEndpoints.execRecordPage.path)[0]!)).toMatchObject({ hookId: 5 });
    fireEvent.click(within(row).getByTestId('record-replay'));
    fireEvent.click(await screen.findByTestId('replay-run'));
    const result = await screen.findByTestId('replay-result');
    expect(body(callsTo(srv.calls, hookEndpoints.execRecordReplay.path)[0]!)).toEqual({ id: 31, send: false });
    expect(within(result).getByTestId('replay-original').textContent).toContain('"level": 1');
    expect(within(result).getByTestId('replay-current').textContent).toContain('"text": "new"');
    expect(result.textContent).toContain('脚本已修改');
  });
});
