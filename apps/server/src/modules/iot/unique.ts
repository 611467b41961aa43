import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { AppError } from '../../platform/http/errors.ts';

/** Runs a write; a unique-index violation (a concurrent twin got there first) becomes DUPLICATE with the tip given. */
export async function uniquely<T>(write: () => Promise<T>, tip: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', tip);
    throw err;
  }
}
