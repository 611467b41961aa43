import {
  HOOK_HEADERS_MAX_BYTES, HOOK_SCRIPT_ERROR, hookAdd, hookEdit, hookHeadersBytes, type HookMethod, type HookRecord,
} from '@ess/contract/hooks';
import { issueText, markIssue, type Translate } from '../../components/crud/index.ts';

/** The hook form's values (/hook/triggerConfig): the contract's body with times in seconds and the filter and retry policy flat. */
export interface HookForm {
  companyId?: number;
  name?: string;
  eventType?: string;
  siteIds?: number[];
  levels?: number[];
  statuses?: string[];
  script?: string | null;
  method?: HookMethod;
  url?: string;
  headers?: { name?: string; value?: string }[];
  timeoutSeconds?: number | null;
  maxRetries?: number | null;
  backoffSeconds?: number | null;
  active?: boolean;
  remark?: string | null;
}

/** A new hook: POST, 10 s timeout, 5 retries from a 10 s backoff, active. */
export const NEW_HOOK: HookForm = {
  siteIds: [], levels: [], statuses: [], method: 'POST', headers: [], timeoutSeconds: 10, maxRetries: 5, backoffSeconds: 10, active: true, script: null,
};

/** A script to start from: the event's payload and a parameter into the body. */
export const SCRIPT_TEMPLATE = `function main(event, params) {
  // Return the request body (an object is sent as JSON), or null to skip this event.
  return {
    type: event.type,
    at: event.timestamp,
    data: event.data,
  };
}
`;

export const hookValues = (r: HookRecord): HookForm => ({
  companyId: r.companyId,
  name: r.name,
  eventType: r.eventType,
  siteIds: r.filter.siteIds,
  levels: r.filter.levels,
  statuses: r.filter.statuses,
  script: r.script,
  method: r.method,
  url: r.url,
  headers: r.headers,
  timeoutSeconds: r.timeoutMs / 1000,
  maxRetries: r.retry.maxRetries,
  backoffSeconds: r.retry.backoffMs / 1000,
  active: r.active,
  remark: r.remark,
});

const seconds = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? undefined : Math.round(v * 1000));

/** The add/edit body of the form's values: filters the trigger does not support are sent empty, empty header rows left out. */
export function hookBody(v: HookForm, filterKinds: readonly string[], id?: number): Record<string, unknown> {
  const body = {
    companyId: v.companyId,
    name: v.name,
    eventType: v.eventType,
    filter: {
      siteIds: filterKinds.includes('site') ? (v.siteIds ?? []) : [],
      levels: filterKinds.includes('level') ? (v.levels ?? []) : [],
      statuses: filterKinds.includes('status') ? (v.statuses ?? []) : [],
    },
    script: v.script?.trim() ? v.script : null,
    method: v.method ?? 'POST',
    url: v.url ?? '',
    headers: (v.headers ?? []).filter((h) => h.name?.trim() || h.value).map((h) => ({ name: h.name?.trim() ?? '', value: h.value ?? '' })),
    timeoutMs: seconds(v.timeoutSeconds),
    retry: { maxRetries: v.maxRetries ?? undefined, backoffMs: seconds(v.backoffSeconds) },
    active: v.active ?? true,
    remark: v.remark || null,
  };
  return id === undefined ? body : { id, ...body };
}

/** Labels (source text) of the form's fields, naming them in messages. */
export const HOOK_LABELS: Record<string, string> = {
  companyId: '所属公司', name: '钩子名称', eventType: '触发器', siteIds: '站点', levels: '告警等级', statuses: '状态', script: '脚本', method: '请求方法',
  url: '目标地址', headers: '请求头', timeoutSeconds: '超时时间', maxRetries: '重试次数', backoffSeconds: '退避基数', active: '启用', remark: '备注',
};

/** Fields a hook cannot be without. */
const REQUIRED = ['companyId', 'name', 'eventType', 'url'];

/** The form field (a name path as antd takes it) an issue of the body belongs to. */
function fieldOf(path: readonly PropertyKey[]): (string | number)[] {
  const [head, second, third] = path;
  if (head === 'filter' && typeof second === 'string') return [second];
  if (head === 'retry') return [second === 'backoffMs' ? 'backoffSeconds' : 'maxRetries'];
  if (head === 'timeoutMs') return ['timeoutSeconds'];
  if (head === 'headers' && typeof second === 'number' && typeof third === 'string') return ['headers', second, third];
  return [String(head ?? '')];
}

export interface HookFormError {
  name: (string | number)[];
  errors: string[];
}

/**
 * Checks the body with the contract's schema (the rules the server applies: URL, headers' names,
 * reserved names and total size, timeout 1–30 s, retries 0–10, …): the messages by form field, none
 * when it passes.
 */
export function checkHook(body: Record<string, unknown>, t: Translate): HookFormError[] {
  const schema = 'id' in body ? hookEdit : hookAdd;
  const result = schema.safeParse(body, { error: (issue) => markIssue(issue) });
  if (result.success) return [];
  const out = new Map<string, HookFormError>();
  // A required field left empty is named as such (not by the rule its value would break).
  const empty = REQUIRED.filter((f) => body[f] === undefined || body[f] === null || (typeof body[f] === 'string' && !body[f].trim()));
  for (const f of empty) out.set(f, { name: [f], errors: [t('$1不能为空', t(HOOK_LABELS[f]!))] });
  for (const issue of result.error.issues) {
    const name = fieldOf(issue.path);
    if (empty.includes(String(name[0]))) continue;
    const label = HOOK_LABELS[String(name[name.length - 1] === 'name' || name[name.length - 1] === 'value' ? 'headers' : name[0])] ?? '';
    const key = name.join('.');
    const entry = out.get(key) ?? { name, errors: [] };
    const text = issueText(issue.message, label, t);
    if (!entry.errors.includes(text)) entry.errors.push(text);
    out.set(key, entry);
  }
  return [...out.values()];
}

/** The headers' size as sent, against the limit (the counter under the header list). */
export function headersSize(headers: HookForm['headers']): { bytes: number; max: number; over: boolean } {
  const bytes = hookHeadersBytes((headers ?? []).filter((h) => h.name || h.value).map((h) => ({ name: h.name ?? '', value: h.value ?? '' })));
  return { bytes, max: HOOK_HEADERS_MAX_BYTES, over: bytes > HOOK_HEADERS_MAX_BYTES };
}

/** The verdict of /basic/validate/script as shown: valid, or the spec's message with the line, column and the engine's message. */
export type ScriptVerdict = { valid: true } | { valid: false; title: string; line: number | null; column: number | null; message: string };

export function scriptVerdict(check: { valid: true } | { valid: false; error: string }): ScriptVerdict {
  if (check.valid) return { valid: true };
  const m = /^(\d+):(\d+)\s+([\s\S]*)$/.exec(check.error.trim());
  if (m) return { valid: false, title: HOOK_SCRIPT_ERROR, line: Number(m[1]), column: Number(m[2]), message: m[3]! };
  return { valid: false, title: HOOK_SCRIPT_ERROR, line: null, column: null, message: check.error };
}

/** The text with `insert` put in place of the selection [start, end), and where the caret goes after it. */
export function insertAt(text: string, insert: string, start: number, end = start): { text: string; caret: number } {
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  return { text: text.slice(0, s) + insert + text.slice(e), caret: s + insert.length };
}
