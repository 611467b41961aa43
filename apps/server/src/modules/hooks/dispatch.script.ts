import { createHash } from 'node:crypto';
import { HOOK_SCRIPT_ERROR, HOOK_SECRET_MASK } from '@ess/contract/hooks';
import { formatFailure, runScript, type SandboxLimits, type ScriptFailure } from '../../platform/sandbox/sandbox.ts';

/**
 * A hook's script in the QuickJS sandbox (platform/sandbox, decision 0004): no network, files,
 * timers or Node APIs; memory, stack and time capped, so a script that loops, recurses or
 * allocates without end fails on its own and harms nothing else. Its top-level code defines
 * `main(event, params)` (packages/contract/src/hooks.ts); the answer is the request body: an
 * object or array is sent as JSON, a string as it is, null/undefined skips the delivery. A hook
 * without a script sends the Standard Webhooks envelope { type, timestamp, data }.
 */
export const HOOK_SCRIPT_LIMITS: Partial<SandboxLimits> = { timeMs: 1000, memoryBytes: 32 * 1024 * 1024 };

/** The event as the script sees it. */
export interface ScriptEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

export type ScriptResult =
  | { kind: 'body'; body: string; contentType: string; output: unknown }
  | { kind: 'skip'; output: null }
  | { kind: 'error'; error: string; failure: ScriptFailure };

/** "脚本错误，请检查修改 line:col message" (the spec's message, then where and what). */
export const scriptError = (f: ScriptFailure) => `${HOOK_SCRIPT_ERROR} ${formatFailure(f)}`;

/** Runs the hook's script (or builds the envelope when it has none). */
export async function runHookScript(script: string | null, event: ScriptEvent, params: Record<string, string>): Promise<ScriptResult> {
  if (script === null) {
    const output = { type: event.type, timestamp: event.timestamp, data: event.data };
    return { kind: 'body', body: JSON.stringify(output), contentType: 'application/json', output };
  }
  const r = await runScript(script, { limits: HOOK_SCRIPT_LIMITS, call: { fn: 'main', args: [event, params] } });
  if (!r.ok) return { kind: 'error', error: scriptError(r.error), failure: r.error };
  const v = r.value;
  if (v === null || v === undefined) return { kind: 'skip', output: null };
  if (typeof v === 'string') return { kind: 'body', body: v, contentType: 'text/plain; charset=utf-8', output: v };
  return { kind: 'body', body: JSON.stringify(v), contentType: 'application/json', output: v };
}

/** SHA-256 of the script that ran ('' for none): replay tells whether the current one differs. */
export const scriptHash = (script: string | null) => createHash('sha256').update(script ?? '').digest('hex');

/** Secrets of this many characters or more are masked wherever they occur, even inside a word. */
const SUBSTRING_MASK_MIN = 4;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces every secret value in a text by the mask. A value of 4 characters or more goes wherever
 * it occurs; a shorter one (a 2-digit PIN, "ab") wherever it stands as a whole token — not next to
 * a letter, digit or underscore — so the whole value, a header `Bearer ab`, `token=ab&…` or a JSON
 * string "ab" is masked, while every "ab" inside other words is left alone (masking those too
 * would make the record unreadable and, by what went missing, tell the secret).
 */
export function maskText(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first: a secret that contains a shorter one is masked whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) {
    if (s.length === 0) continue;
    if (s.length >= SUBSTRING_MASK_MIN) out = out.split(s).join(HOOK_SECRET_MASK);
    else out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(s)}(?![\\p{L}\\p{N}_])`, 'gu'), HOOK_SECRET_MASK);
  }
  return out;
}

/** The same for any JSON value (the strings inside it, keys included). */
export function maskJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return maskText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => maskJson(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskText(k, secrets), maskJson(v, secrets)]));
  return value;
}
