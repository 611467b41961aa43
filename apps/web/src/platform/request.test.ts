import { ERRORS, IMAGE_CODE_STORAGE_KEY, LOCALE_STORAGE_KEY, TOKEN_STORAGE_KEY } from '@ess/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, envelope, json, mockFetch, recordUi } from '../test/http.ts';
import { useLoadingStore } from './feedback/loading.ts';
import { HoverTimer } from './feedback/toast.ts';
import { useI18nStore } from './i18n/translate.ts';
import { z } from 'zod';
import { endpoint, type EndpointRef } from '@ess/contract/endpoint';
import { call, callRef, download, fillPath, request, RequestError, toQuery, type Method, type RequestOptions } from './request.ts';

// The request layer under the contract calls: GET with a query, POST with a JSON body.
const get = <T = unknown>(url: string, data?: unknown, options: Partial<RequestOptions> = {}) => request<T>({ ...options, url, method: 'GET', data });
const post = <T = unknown>(url: string, data?: unknown, options: Partial<RequestOptions> = {}) => request<T>({ ...options, url, method: 'POST', data });

let ui: ReturnType<typeof recordUi>;
beforeEach(() => {
  ui = recordUi();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  useLoadingStore.setState({ running: 0, visible: false });
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('headers (§7)', () => {
  it('sends the stored token, the captcha code, the UTC offset and no Client-Language for the default locale', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-123');
    sessionStorage.setItem(IMAGE_CODE_STORAGE_KEY, 'ab12');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'zh-CN');
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-480);
    const { calls } = mockFetch();
    await get('/x');
    const h = calls[0]!.init.headers;
    expect(h.Authorization).toBe('tok-123');
    expect(h['X-Image-Code']).toBe('ab12');
    expect(h['UTC-Zone']).toBe('480');
    expect(h).not.toHaveProperty('Client-Language');
    expect(calls[0]!.init.credentials).toBe('include');
    expect(calls[0]!.url).toBe('/api/manager/x');
  });

  it('sends an empty X-Image-Code at first and the stored locale when it is not the default', async () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'ar-EG');
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(300);
    const { calls } = mockFetch();
    await post('/basic/user/login', { username: 'a', password: 'b' });
    const h = calls[0]!.init.headers;
    expect(h['X-Image-Code']).toBe('');
    expect(h.Authorization).toBe('');
    expect(h['Client-Language']).toBe('ar-EG');
    expect(h['UTC-Zone']).toBe('-300');
  });

  it('sets no timeout: a call answered after ten minutes still succeeds', async () => {
    vi.useFakeTimers();
    const answer = deferred<Response>();
    const { calls } = mockFetch(() => answer.promise);
    const p = get<number>('/slow');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    answer.resolve(json(envelope(7)));
    await expect(p).resolves.toBe(7);
    expect(calls[0]!.init.signal).toBeUndefined();
  });
});

describe('contract calls', () => {
  const record = z.object({ id: z.number() });
  const eps = {
    byQuery: endpoint({ method: 'GET', path: '/t/one', query: z.object({ id: z.coerce.number() }), response: record }),
    byBody: endpoint({ method: 'POST', path: '/t/page', body: z.object({ current: z.number() }), response: z.array(record) }),
    postQuery: endpoint({ method: 'POST', path: '/t/run', query: z.object({ code: z.string() }), response: z.boolean() }),
    upload: endpoint({ method: 'POST', path: '/t/import', multipart: true, body: z.object({ siteId: z.string() }), response: record }),
  };

  it('puts the input where the endpoint declares it and answers the envelope data', async () => {
    const { calls } = mockFetch(() => json(envelope({ id: 7 })));
    await expect(call(eps.byQuery, { id: 7 })).resolves.toEqual({ id: 7 });
    await call(eps.byBody, { current: 2 });
    await call(eps.postQuery, { code: 'a b' });
    const file = new File(['x'], 'a.xlsx');
    await call(eps.upload, { file, siteId: '3' });
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([
      ['GET', '/api/manager/t/one?id=7'],
      ['POST', '/api/manager/t/page'],
      ['POST', '/api/manager/t/run?code=a%20b'],
      ['POST', '/api/manager/t/import'],
    ]);
    expect(calls[1]!.init.body).toBe('{"current":2}');
    expect(calls[2]!.init.body).toBeUndefined();
    const form = calls[3]!.init.body as FormData;
    expect([(form.get('file') as File).name, form.get('siteId')]).toEqual(['a.xlsx', '3']);
  });

  it('an endpoint reference (method and path) calls the same way', async () => {
    const { calls } = mockFetch(() => json(envelope([{ id: 1 }])));
    const ref: EndpointRef<typeof eps.byBody> = { method: 'POST', path: '/t/page' };
    await expect(callRef(ref, { current: 1 }, { loading: false })).resolves.toEqual([{ id: 1 }]);
    expect([calls[0]!.init.method, calls[0]!.url, calls[0]!.init.body]).toEqual(['POST', '/api/manager/t/page', '{"current":1}']);
  });
});

describe('bodies, methods and paths (§7)', () => {
  it('GET sends data as the query with bracket-style arrays and drops null values', async () => {
    const { calls } = mockFetch();
    await get('/alarm/monitor/query/list', { ids: [1, 2], name: '储能', none: null, off: undefined });
    expect(calls[0]!.url).toBe('/api/manager/alarm/monitor/query/list?ids%5B%5D=1&ids%5B%5D=2&name=%E5%82%A8%E8%83%BD');
    expect(decodeURIComponent(calls[0]!.url.split('?')[1]!)).toBe('ids[]=1&ids[]=2&name=储能');
    expect(calls[0]!.init.body).toBeUndefined();
    expect(toQuery({ a: ['x'] })).toBe('a%5B%5D=x');
  });

  it('POST sends JSON', async () => {
    const { calls } = mockFetch();
    await post('/system/user/query/page', { current: 1, pageSize: 10 });
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"current":1,"pageSize":10}');
  });

  it('form calls send multipart with every field', async () => {
    const { calls } = mockFetch();
    const file = new File(['a,b'], 'items.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await request({ url: '/inspection/items/import', method: 'POST', bodyKind: 'form', data: { file, siteId: 3, tags: ['a', 'b'], meta: { k: 1 } } });
    const body = calls[0]!.init.body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect((form.get('file') as File).name).toBe('items.xlsx');
    expect(form.get('siteId')).toBe('3');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
    expect(form.get('meta')).toBe('{"k":1}');
    expect(calls[0]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it('says multipart is unsupported where FormData is missing', async () => {
    mockFetch();
    vi.stubGlobal('FormData', undefined);
    await expect(request({ url: '/basic/oss/upload', method: 'POST', bodyKind: 'form', data: {} })).rejects.toThrow(
      '当前环境不支持 multipart/form-data',
    );
    expect(ui.toasts.map((x) => x.text)).toEqual(['当前环境不支持 multipart/form-data']);
  });

  it('text, file, raw, none and query bodies', async () => {
    const { calls } = mockFetch();
    await request({ url: '/basic/validate/script', method: 'POST', bodyKind: 'text', data: 'return 1' });
    const blob = new Blob(['<svg/>'], { type: 'image/svg+xml' });
    await request({ url: '/f', method: 'PUT', bodyKind: 'file', data: blob });
    await request({ url: '/r', method: 'POST', bodyKind: 'raw', data: 'raw-bytes', headers: { 'Content-Type': 'application/x-custom' } });
    await request({ url: '/monitor/device/one/faultRecover', method: 'POST', bodyKind: 'none', query: { deviceId: 9 } });
    await request({ url: '/monitor/battery-pack/simple-list', method: 'POST', bodyKind: 'query', data: { batteryClusterId: 4 } });
    expect(calls[0]!.init.headers['Content-Type']).toBe('text/plain;charset=UTF-8');
    expect(calls[0]!.init.body).toBe('return 1');
    expect(calls[1]!.init.headers['Content-Type']).toBe('image/svg+xml');
    expect(calls[1]!.init.body).toBe(blob);
    expect(calls[2]!.init.body).toBe('raw-bytes');
    expect(calls[2]!.init.headers['Content-Type']).toBe('application/x-custom');
    expect(calls[3]!.init.body).toBeUndefined();
    expect(calls[3]!.url).toBe('/api/manager/monitor/device/one/faultRecover?deviceId=9');
    expect(calls[4]!.init.method).toBe('POST');
    expect(calls[4]!.init.body).toBeUndefined();
    expect(calls[4]!.url).toBe('/api/manager/monitor/battery-pack/simple-list?batteryClusterId=4');
  });

  it('supports GET, POST, PUT, DELETE, HEAD, OPTIONS and PATCH', async () => {
    const methods: Method[] = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'];
    const { calls } = mockFetch((c) => (c.init.method === 'HEAD' ? new Response(null, { status: 200 }) : json(envelope(1))));
    for (const method of methods) {
      await request({ url: '/m', method, data: { a: 1 } }).catch(() => undefined);
    }
    expect(calls.map((c) => c.init.method)).toEqual(methods);
    expect(calls.filter((c) => c.url.endsWith('?a=1')).map((c) => c.init.method)).toEqual(['GET', 'DELETE', 'HEAD', 'OPTIONS']);
  });

  it('fills {name} and :name path parameters', async () => {
    expect(fillPath('/a/{id}/b/:code', { id: 5, code: 'x y' })).toBe('/a/5/b/x%20y');
    expect(() => fillPath('/a/{id}', {})).toThrow('missing path parameter id');
    const { calls } = mockFetch();
    await request({ url: '/iot/sync/product/:productId', pathParams: { productId: 12 } });
    expect(calls[0]!.url).toBe('/api/manager/iot/sync/product/12');
  });
});

describe('results and error toasts (§8)', () => {
  it('succeeds only on errorCode 00000 and resolves with data', async () => {
    mockFetch(() => json(envelope({ n: 1 })));
    await expect(get('/ok')).resolves.toEqual({ n: 1 });
    expect(ui.toasts).toEqual([]);
  });

  it('another errorCode shows tipMsg for 3000 ms and fails; noMessage suppresses the toast', async () => {
    mockFetch(() => json(envelope(null, 'A0409', '数据已存在')));
    const err = await get('/dup').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).errorCode).toBe('A0409');
    expect(ui.toasts).toEqual([{ type: 'error', text: '数据已存在', durationMs: 3000 }]);
    await expect(get('/dup', undefined, { noMessage: true })).rejects.toBeInstanceOf(RequestError);
    expect(ui.toasts).toHaveLength(1);
  });

  it('401 toasts tipMsg, or the default, then goes to /login', async () => {
    mockFetch(() => json(envelope(null, 'A0100', '会话已失效'), 401));
    await expect(get('/p')).rejects.toMatchObject({ status: 401 });
    expect(ui.toasts[0]!.text).toBe('会话已失效');
    expect(ui.navigations).toEqual([{ to: '/login', replace: false }]);
    mockFetch(() => json(envelope(null, 'A0100', ''), 401));
    await expect(get('/p')).rejects.toMatchObject({ status: 401 });
    expect(ui.toasts[1]!.text).toBe(ERRORS.UNAUTHENTICATED.tip);
    expect(ui.toasts[1]!.text).toBe('未登录或登录已过期');
  });

  it('401 on the login page itself does not navigate again', async () => {
    window.history.replaceState(null, '', '/login');
    mockFetch(() => new Response('', { status: 401 }));
    await expect(get('/p')).rejects.toMatchObject({ status: 401 });
    expect(ui.navigations).toEqual([]);
  });

  it('the default texts go through the language pack', async () => {
    useI18nStore.setState({ locale: 'en-US', pack: new Map([['未登录或登录已过期', 'Not signed in or login expired']]) });
    mockFetch(() => new Response('', { status: 401 }));
    await expect(get('/p')).rejects.toBeInstanceOf(RequestError);
    expect(ui.toasts[0]!.text).toBe('Not signed in or login expired');
  });

  it('500 toasts tipMsg or "server busy, try later"', async () => {
    mockFetch(() => json(envelope(null, 'B0001', '数据库不可用'), 500));
    await expect(get('/p')).rejects.toMatchObject({ status: 500 });
    mockFetch(() => new Response('<html>oops</html>', { status: 500 }));
    await expect(get('/p')).rejects.toMatchObject({ status: 500 });
    expect(ui.toasts.map((t) => t.text)).toEqual(['数据库不可用', '服务器繁忙，请稍后再试']);
    expect(ui.toasts[0]!.align).toBeUndefined();
    expect(ui.navigations).toEqual([]);
  });

  it('406 and other statuses toast left-aligned with auto-close paused on hover', async () => {
    mockFetch(() => json(envelope(null, 'A0406', '操作不符合业务规则'), 406));
    await expect(post('/inspection/plan/start', {})).rejects.toMatchObject({ status: 406, errorCode: 'A0406' });
    mockFetch(() => json(envelope(null, 'A0300', '没有访问权限'), 403));
    await expect(get('/p')).rejects.toMatchObject({ status: 403 });
    expect(ui.toasts).toEqual([
      { type: 'error', text: '操作不符合业务规则', align: 'left', pauseOnHover: true, durationMs: 3000 },
      { type: 'error', text: '没有访问权限', align: 'left', pauseOnHover: true, durationMs: 3000 },
    ]);
  });

  it('the hover timer closes after 3000 ms, waits while hovered and starts again on leave', () => {
    vi.useFakeTimers();
    const expired = vi.fn();
    const timer = new HoverTimer(3000, expired);
    vi.advanceTimersByTime(2999);
    expect(expired).not.toHaveBeenCalled();
    timer.pause();
    vi.advanceTimersByTime(10_000);
    expect(expired).not.toHaveBeenCalled();
    timer.resume();
    vi.advanceTimersByTime(2999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });
});

describe('full-screen spinner (§4)', () => {
  it('shows when a request is still running after 1000 ms and hides when all have finished', async () => {
    vi.useFakeTimers();
    const a = deferred<Response>();
    const b = deferred<Response>();
    const queue = [a, b];
    mockFetch(() => queue.shift()!.promise);
    const pa = get('/a');
    await vi.advanceTimersByTimeAsync(999);
    expect(useLoadingStore.getState().visible).toBe(false);
    const pb = get('/b');
    await vi.advanceTimersByTimeAsync(1);
    expect(useLoadingStore.getState().visible).toBe(true);
    a.resolve(json(envelope(1)));
    await pa;
    // b is still running, so the spinner stays.
    expect(useLoadingStore.getState().visible).toBe(true);
    b.resolve(json(envelope(2)));
    await pb;
    expect(useLoadingStore.getState()).toEqual({ running: 0, visible: false });
  });

  it('a request that finishes within 1000 ms never shows it, nor does a call that opts out', async () => {
    vi.useFakeTimers();
    const a = deferred<Response>();
    mockFetch(() => a.promise);
    const p = get('/quiet', undefined, { loading: false });
    await vi.advanceTimersByTimeAsync(5000);
    expect(useLoadingStore.getState().visible).toBe(false);
    a.resolve(json(envelope(1)));
    await p;
    const b = deferred<Response>();
    mockFetch(() => b.promise);
    const q = get('/fast');
    await vi.advanceTimersByTimeAsync(900);
    b.resolve(json(envelope(1)));
    await q;
    await vi.advanceTimersByTimeAsync(1000);
    expect(useLoadingStore.getState().visible).toBe(false);
  });

  it('a failed request also ends its spinner', async () => {
    vi.useFakeTimers();
    const a = deferred<Response>();
    mockFetch(() => a.promise);
    const p = get('/x').catch(() => 'failed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(useLoadingStore.getState().visible).toBe(true);
    a.resolve(json(envelope(null, 'B0001'), 500));
    await expect(p).resolves.toBe('failed');
    expect(useLoadingStore.getState().visible).toBe(false);
  });
});

describe('downloads (§5, §7, §8)', () => {
  const file = (headers: Record<string, string>, status = 200) =>
    new Response(new Uint8Array([80, 75, 3, 4]), { status, headers: { 'content-type': 'application/octet-stream', ...headers } });

  it('names the file from Content-Disposition, RFC 5987 filename* first', async () => {
    mockFetch(() => file({ 'content-disposition': `attachment; filename="report.xlsx"; filename*=UTF-8''%E5%91%8A%E8%AD%A6.xlsx` }));
    await expect(download({ url: '/alarm/monitor/export', method: 'POST', save: false })).resolves.toMatchObject({ fileName: '告警.xlsx' });
    mockFetch(() => file({ 'content-disposition': 'attachment; filename="a \\"b\\".xlsx"' }));
    await expect(download({ url: '/e', save: false })).resolves.toMatchObject({ fileName: 'a "b".xlsx' });
    mockFetch(() => file({ 'content-disposition': 'attachment; filename=%E6%8A%A5%E8%A1%A8.csv' }));
    await expect(download({ url: '/e', save: false })).resolves.toMatchObject({ fileName: '报表.csv' });
  });

  it('uses the given name when the header has none, and fails with "the server did not set a file name" otherwise', async () => {
    mockFetch(() => file({}));
    await expect(download({ url: '/e', fileName: 'given.xlsx', save: false })).resolves.toMatchObject({ fileName: 'given.xlsx' });
    await expect(download({ url: '/e', save: false })).rejects.toThrow('服务器未设置文件名');
    expect(ui.toasts.map((t) => t.text)).toEqual(['服务器未设置文件名']);
  });

  it('reads an error body as JSON first', async () => {
    mockFetch(() => json(envelope(null, 'A0406', '导出条件超出范围'), 406));
    await expect(download({ url: '/e', fileName: 'x.xlsx', save: false })).rejects.toMatchObject({ status: 406, errorCode: 'A0406' });
    mockFetch(() => json(envelope(null, 'A0440', '任务被占用，请稍后重试')));
    await expect(download({ url: '/e', fileName: 'x.xlsx', save: false })).rejects.toMatchObject({ errorCode: 'A0440' });
    expect(ui.toasts.map((t) => t.text)).toEqual(['导出条件超出范围', '任务被占用，请稍后重试']);
  });

  it('saves the blob through a link named after the file', async () => {
    const created = vi.fn(() => 'blob:1');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    mockFetch(() => file({ 'content-disposition': 'attachment; filename="s.xlsx"' }));
    await download({ url: '/operation/statement/download', data: { id: 1 } });
    expect(clicked).toEqual(['s.xlsx']);
    expect(created).toHaveBeenCalledTimes(1);
  });
});
