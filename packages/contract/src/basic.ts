import { z } from 'zod';
import { endpoint, STREAM } from './endpoint.ts';

/** Basics (api-catalogue "Session and basics"): script validation and the live event stream. */

export const validateScriptBody = z.object({ script: z.string().max(100_000) });

/**
 * The verdict on a script (compiled and its top-level code run in the sandbox): syntax errors,
 * exceptions, endless loops and runaway memory come back as `{ valid: false, error: 'line:col message' }`.
 */
export const scriptCheck = z.discriminatedUnion('valid', [
  z.object({ valid: z.literal(true) }),
  z.object({ valid: z.literal(false), error: z.string() }),
]);
export type ScriptCheck = z.infer<typeof scriptCheck>;

export const basicEndpoints = {
  validateScript: endpoint({ method: 'POST', path: '/basic/validate/script', body: validateScriptBody, response: scriptCheck }),
  /** Server-sent live events (events.ts), authorised by the Authorization header. */
  events: endpoint({ method: 'GET', path: '/basic/sse/connect', response: STREAM }),
};
