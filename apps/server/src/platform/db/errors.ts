import { AppError } from '../http/errors.ts';

/**
 * The PostgreSQL error code (SQLSTATE) of a failed statement; drizzle wraps driver errors, so
 * the code may sit on a cause.
 */
export function pgErrorCode(err: unknown): string | undefined {
  if (err instanceof AppError) return undefined;
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
/** A statement cancelled, by statement_timeout among others. */
export const QUERY_CANCELED = '57014';
export const FOREIGN_KEY_VIOLATION = '23503';
