import { vi } from 'vitest';
import type { ToastRequest } from '../platform/feedback/toast.ts';
import { setToastHost } from '../platform/feedback/toast.ts';
import { setNavigator } from '../platform/navigation.ts';

export interface Call {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
}

export const envelope = (data: unknown, errorCode = '00000', tipMsg = '') => ({ errorCode, tipMsg, errorMsg: '', data });

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Replaces fetch with a responder and records every call. */
export function mockFetch(responder: (call: Call) => Response | Promise<Response> = () => json(envelope(null))) {
  const calls: Call[] = [];
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: input instanceof Request ? input.url : input.toString(), init: (init ?? {}) as Call['init'] };
    calls.push(call);
    return Promise.resolve(responder(call));
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

/** Records toasts and navigations instead of drawing and moving. */
export function recordUi() {
  const toasts: ToastRequest[] = [];
  const navigations: { to: string; replace: boolean }[] = [];
  setToastHost({ show: (t) => toasts.push(t) });
  setNavigator((to, o) => navigations.push({ to, replace: o?.replace === true }));
  return { toasts, navigations };
}

/** A promise plus its resolver, for responses the test releases when it wants. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
