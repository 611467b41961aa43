import type { ResourceDef } from './crud.types.ts';

/** Declares a resource with its record, form and detail types inferred or given. */
export function defineResource<R extends { id: number }, F = Partial<R>, O = R>(def: ResourceDef<R, F, O>): ResourceDef<R, F, O> {
  return def;
}
