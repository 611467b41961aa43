import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { resourceApi } from './crud.api.ts';
import { resourceKeys } from './crud.keys.ts';
import type { OptionSource, ResourceDef } from './crud.types.ts';

type AnyDef<R extends { id: number }, F, O> = ResourceDef<R, F, O>;

/** Keys and calls of a resource, stable for its definition. */
export function useResource<R extends { id: number }, F, O>(def: AnyDef<R, F, O>) {
  return useMemo(() => ({ keys: resourceKeys(def.key), api: resourceApi<R, O>(def.endpoints) }), [def]);
}

/** One page of the resource; the previous page stays shown while the next loads. */
export function useResourcePage<R extends { id: number }, F, O>(def: AnyDef<R, F, O>, params: Record<string, unknown>, enabled = true) {
  const { keys, api } = useResource(def);
  return useQuery({ queryKey: keys.page(params), queryFn: () => api.page(params), placeholderData: keepPreviousData, enabled });
}

export function useResourceList<R extends { id: number }, F, O>(def: AnyDef<R, F, O>, filters: Record<string, unknown>, enabled = true) {
  const { keys, api } = useResource(def);
  return useQuery({ queryKey: keys.list(filters), queryFn: () => api.list(filters), placeholderData: keepPreviousData, enabled });
}

/** The tree; `params` carry its sort (the siblings of each level sort by it). */
export function useResourceTree<R extends { id: number }, F, O>(def: AnyDef<R, F, O>, enabled = true, params: Record<string, unknown> = {}) {
  const { keys, api } = useResource(def);
  return useQuery({ queryKey: keys.tree(params), queryFn: () => api.tree(params), placeholderData: keepPreviousData, enabled });
}

export function useResourceOne<R extends { id: number }, F, O>(def: AnyDef<R, F, O>, id: number | null) {
  const { keys, api } = useResource(def);
  return useQuery({ queryKey: keys.one(id ?? 0), queryFn: () => api.one(id ?? 0), enabled: id !== null });
}

/** Add or edit; on success every key of the resource is invalidated. */
export function useSaveResource<R extends { id: number }, F, O>(def: AnyDef<R, F, O>) {
  const { keys, api } = useResource(def);
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ mode, body }: { mode: 'add' | 'edit'; body: Record<string, unknown> }) => (mode === 'add' ? api.add(body) : api.edit(body)),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteResource<R extends { id: number }, F, O>(def: AnyDef<R, F, O>) {
  const { keys, api } = useResource(def);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.remove(id),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useImportResource<R extends { id: number }, F, O>(def: AnyDef<R, F, O>) {
  const { keys, api } = useResource(def);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api.importFile(file),
    onSuccess: (r) => (r.ok ? client.invalidateQueries({ queryKey: keys.all }) : undefined),
  });
}

export function useExportResource<R extends { id: number }, F, O>(def: AnyDef<R, F, O>, fileName?: string) {
  const { api } = useResource(def);
  return useMutation({ mutationFn: (filters: Record<string, unknown>) => api.exportFile(filters, fileName) });
}

/** Options of a picker; kept for a minute (they change rarely, and every form opens them). */
export function useOptionSource(source: OptionSource | null | undefined) {
  return useQuery({
    queryKey: source?.queryKey ?? ['options', 'none'],
    queryFn: () => (source ? source.load() : Promise.resolve([])),
    enabled: !!source,
    staleTime: 60_000,
  });
}
