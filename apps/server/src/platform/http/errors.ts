import { ERRORS, type ErrorName } from '@ess/contract';

/** A refusal with a code from the contract's catalogue; becomes the error envelope. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly tip: string;
  constructor(name: ErrorName, tip?: string, readonly detail?: string) {
    const def = ERRORS[name];
    super(tip ?? def.tip);
    this.code = def.code;
    this.status = def.status;
    this.tip = tip ?? def.tip;
  }
}

export const fail = (name: ErrorName, tip?: string): never => {
  throw new AppError(name, tip);
};

/** Returns the value or refuses with NOT_FOUND: out-of-scope objects are reported the same way. */
export function found<T>(value: T | undefined | null, tip?: string): T {
  if (value === undefined || value === null) throw new AppError('NOT_FOUND', tip);
  return value;
}
