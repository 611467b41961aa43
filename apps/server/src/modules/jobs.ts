import type { AppContext } from '../platform/context.ts';

/** Registers every module's background job handlers. */
export function registerJobs(_ctx: AppContext): void {
  // Modules add their handlers here.
}
