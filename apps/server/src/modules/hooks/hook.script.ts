import { HOOK_SCRIPT_ERROR } from '@ess/contract/hooks';
import { formatFailure, runScript, type SandboxLimits, type ScriptFailure } from '../../platform/sandbox/sandbox.ts';

/**
 * A hook's script in the QuickJS sandbox (platform/sandbox; decision 0004's limits): no network,
 * files, timers or host modules; memory, stack and time capped. Its top-level code defines
 * `main(event, params)`, which answers the request body (null/undefined: skip).
 */

/** Limits of one run (save-time check and dispatch alike). */
export const HOOK_SCRIPT_LIMITS: SandboxLimits = { timeMs: 500, memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024 };

export const SCRIPT_NEEDS_MAIN = '脚本须定义函数 main(event, params)';

/** The spec's answer to a bad script, with the line and message: "脚本错误，请检查修改：3:7 message". */
export const scriptErrorTip = (f: ScriptFailure | string) => `${HOOK_SCRIPT_ERROR}：${typeof f === 'string' ? f : formatFailure(f)}`;

/**
 * Compiles the script and runs its top-level code (an endless loop, runaway memory or a thrown
 * error there is caught), then checks that it defines main. Null when the script is fine, else
 * the failure.
 */
export async function checkHookScript(script: string): Promise<ScriptFailure | null> {
  // Appended after a newline: the script's own line numbers stay as written.
  const r = await runScript(`${script}\n;typeof main === 'function'`, { limits: HOOK_SCRIPT_LIMITS });
  if (!r.ok) return r.error;
  return r.value === true ? null : { kind: 'runtime', message: SCRIPT_NEEDS_MAIN };
}

/** Runs main(event, params): the body it answers, or the failure. */
export function runHookScript(script: string, event: unknown, params: Record<string, string>) {
  return runScript(script, { limits: HOOK_SCRIPT_LIMITS, call: { fn: 'main', args: [event, params] } });
}
