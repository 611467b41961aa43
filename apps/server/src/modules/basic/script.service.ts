import { formatFailure, runScript, type SandboxLimits } from '../../platform/sandbox/sandbox.ts';

/** Validation runs the top-level code too, so a script that never finishes is caught here. */
export const VALIDATE_LIMITS: SandboxLimits = { timeMs: 300, memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024 };

export type ScriptCheck = { valid: true } | { valid: false; error: string };

/**
 * Parses and compiles the script, then runs its top-level code inside the sandbox: syntax
 * errors, top-level exceptions, endless loops and runaway memory all come back as
 * `{ valid: false, error: 'line:col message' }` — a verdict, not an HTTP error.
 */
export async function validateScript(script: string): Promise<ScriptCheck> {
  const r = await runScript(script, { limits: VALIDATE_LIMITS });
  return r.ok ? { valid: true } : { valid: false, error: formatFailure(r.error) };
}
