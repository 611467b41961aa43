import type { FormMode, ResourceDef } from './crud.types.ts';

/** Declares a resource with its record, form and detail types inferred or given. */
export function defineResource<R extends { id: number }, F = Partial<R>, O = R>(def: ResourceDef<R, F, O>): ResourceDef<R, F, O> {
  return def;
}

/**
 * A form's request body of the given fields, every one sent (empty ones as null), plus `id` when
 * editing: for forms whose contract schema wants each field present.
 */
export function bodyOfFields<F>(keys: readonly (keyof F & string)[]) {
  return (v: F, mode: FormMode, id?: number): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    for (const k of keys) body[k] = v[k] === undefined || v[k] === '' ? null : v[k];
    return mode === 'edit' ? { id, ...body } : body;
  };
}
