import type { Endpoints, ResourceDef } from './crud.types.ts';

/** Declares a resource with its record, form and detail types inferred or given. */
export function defineResource<R extends { id: number }, F = Partial<R>, O = R>(def: ResourceDef<R, F, O>): ResourceDef<R, F, O> {
  return def;
}

/**
 * The catalogue's usual five calls of a resource under one base path: `{base}/query/page`,
 * `{base}/query/one`, `{base}/add`, `{base}/edit` and `{base}/delete`.
 */
export function crudEndpoints(base: string): Required<Pick<Endpoints, 'page' | 'one' | 'add' | 'edit' | 'delete'>> {
  return {
    page: `${base}/query/page`,
    one: `${base}/query/one`,
    add: `${base}/add`,
    edit: `${base}/edit`,
    delete: `${base}/delete`,
  };
}
