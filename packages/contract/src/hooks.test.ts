import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HOOK_CATALOGUE_PATHS, HOOK_EVENT_LABELS, HOOK_EVENT_PAYLOADS, HOOK_HEADER_RESERVED, HOOK_HEADERS_TOO_LARGE, HOOK_RETRIES_RANGE,
  HOOK_TIMEOUT_RANGE, HOOK_URL_INVALID, hookAdd, hookEndpoints, hookFilterKinds, hookParamAdd, hookParamEdit, HOOK_PARAM_NAME_FORMAT,
} from './hooks.ts';
import { MENUS, menuCovers } from './menus.ts';

const hook = { companyId: 1, name: 'To ERP', eventType: 'alarm.opened', url: 'https://erp.example.com/hooks/ess' };
const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('hooks contract', () => {
  it('declares the 17 catalogue calls of the Hooks area with their methods', () => {
    const spec = JSON.parse(readFileSync(new URL('../../../../shared/spec/endpoints.json', import.meta.url), 'utf8')) as { method: string; path: string; area: string }[];
    const area = spec.filter((e) => e.area === 'Hooks');
    expect(area.map((e) => e.path).sort()).toEqual([...HOOK_CATALOGUE_PATHS].sort());
    const declared = Object.values(hookEndpoints);
    for (const e of area) expect(declared.find((d) => d.path === e.path)?.method, e.path).toBe(e.method);
  });

  it('grants every call, extensions included, through a /hook page', () => {
    const pages = MENUS.filter((m) => m.parentPath === '/hook');
    for (const e of Object.values(hookEndpoints)) expect(pages.some((m) => menuCovers(m.interfaces, e.path)), e.path).toBe(true);
  });

  it('fills the defaults and takes a plain hook', () => {
    const r = hookAdd.parse(hook);
    expect(r).toMatchObject({ method: 'POST', timeoutMs: 10_000, retry: { maxRetries: 5, backoffMs: 10_000 }, active: true, headers: [], script: null });
    expect(r.filter).toEqual({ siteIds: [], levels: [], statuses: [] });
  });

  it('refuses a URL that is not http(s), carries credentials or does not parse', () => {
    for (const url of ['ftp://example.com/x', 'http://user:pw@example.com/', 'not a url', 'javascript:alert(1)', 'http://'])
      expect(firstError(hookAdd.safeParse({ ...hook, url })), url).toBe(HOOK_URL_INVALID);
  });

  it('refuses a timeout outside 1–30 s and retries outside 0–10', () => {
    expect(firstError(hookAdd.safeParse({ ...hook, timeoutMs: 500 }))).toBe(HOOK_TIMEOUT_RANGE);
    expect(firstError(hookAdd.safeParse({ ...hook, timeoutMs: 31_000 }))).toBe(HOOK_TIMEOUT_RANGE);
    expect(firstError(hookAdd.safeParse({ ...hook, retry: { maxRetries: 11, backoffMs: 1000 } }))).toBe(HOOK_RETRIES_RANGE);
    expect(hookAdd.safeParse({ ...hook, retry: { maxRetries: 0, backoffMs: 1000 } }).success).toBe(true);
  });

  it('refuses reserved, malformed, duplicated and oversized headers (a 10 MB header among them)', () => {
    expect(firstError(hookAdd.safeParse({ ...hook, headers: [{ name: 'Webhook-Signature', value: 'x' }] }))).toBe(HOOK_HEADER_RESERVED);
    expect(hookAdd.safeParse({ ...hook, headers: [{ name: 'bad name', value: 'x' }] }).success).toBe(false);
    expect(hookAdd.safeParse({ ...hook, headers: [{ name: 'X-A', value: 'a\r\nX-Evil: 1' }] }).success).toBe(false);
    expect(hookAdd.safeParse({ ...hook, headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] }).success).toBe(false);
    expect(firstError(hookAdd.safeParse({ ...hook, headers: [{ name: 'X-Big', value: 'x'.repeat(10 * 1024 * 1024) }] }))).toBe(HOOK_HEADERS_TOO_LARGE);
    const many = Array.from({ length: 10 }, (_, i) => ({ name: `X-H${i}`, value: 'v'.repeat(900) }));
    expect(firstError(hookAdd.safeParse({ ...hook, headers: many }))).toBe(HOOK_HEADERS_TOO_LARGE);
    expect(hookAdd.safeParse({ ...hook, headers: [{ name: 'Authorization', value: 'Bearer abc' }] }).success).toBe(true);
  });

  it('takes a constant or secret parameter by identifier; a secret edit may leave the value out', () => {
    expect(hookParamAdd.safeParse({ companyId: 1, name: 'apiKey', kind: 'secret', value: 's3cret' }).success).toBe(true);
    expect(firstError(hookParamAdd.safeParse({ companyId: 1, name: '1key', kind: 'constant', value: 'x' }))).toBe(HOOK_PARAM_NAME_FORMAT);
    expect(hookParamAdd.safeParse({ companyId: 1, name: 'apiKey', kind: 'secret' }).success).toBe(false);
    expect(hookParamEdit.safeParse({ id: 1, companyId: 1, name: 'apiKey', kind: 'secret' }).success).toBe(true);
    expect(hookParamEdit.safeParse({ id: 1, companyId: 1, name: 'base', kind: 'constant' }).success).toBe(false);
  });

  it('names every event payload and says which filters it supports; each payload makes a JSON Schema', () => {
    for (const [type, schema] of Object.entries(HOOK_EVENT_PAYLOADS)) {
      expect(HOOK_EVENT_LABELS[type as keyof typeof HOOK_EVENT_LABELS], type).toBeTruthy();
      expect(z.toJSONSchema(schema).type, type).toBe('object');
    }
    expect(hookFilterKinds(Object.keys(HOOK_EVENT_PAYLOADS['alarm.opened'].shape))).toEqual(['site', 'level']);
    expect(hookFilterKinds(Object.keys(HOOK_EVENT_PAYLOADS['repair.closed'].shape))).toEqual(['site', 'status']);
    expect(hookFilterKinds(Object.keys(HOOK_EVENT_PAYLOADS['price.changed'].shape))).toEqual(['site']);
  });
});
