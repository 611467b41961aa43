import type { Page } from '@ess/contract/common';
import { download, get, post, request, type DownloadResult } from '../../platform/request.ts';
import type { Endpoints } from './crud.types.ts';

/** The calls of a resource through the request layer (toasts, 401, spinner as everywhere). */
export function resourceApi<R, O = R>(endpoints: Endpoints) {
  const need = (name: keyof Endpoints): string => {
    const url = endpoints[name];
    if (!url) throw new Error(`resource has no ${name} endpoint`);
    return url;
  };
  return {
    page: (params: Record<string, unknown>) => post<Page<R>>(need('page'), params),
    list: (filters: Record<string, unknown>) => post<R[]>(need('list'), filters),
    tree: () => post<R[]>(need('tree'), {}),
    one: (id: number) => post<O>(need('one'), { id }),
    add: (body: Record<string, unknown>) => post<unknown>(need('add'), body),
    edit: (body: Record<string, unknown>) => post<unknown>(need('edit'), body),
    remove: (id: number) => get<unknown>(need('delete'), { id }),
    exportFile: (filters: Record<string, unknown>, fileName?: string): Promise<DownloadResult> =>
      download({ url: need('export'), method: 'POST', data: filters, fileName }),
    importFile: (file: File) => request<unknown>({ url: need('import'), method: 'POST', bodyKind: 'form', data: { file } }),
  };
}

export type ResourceApi<R, O = R> = ReturnType<typeof resourceApi<R, O>>;
