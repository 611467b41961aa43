import type { Page } from '@ess/contract/common';
import type { AnyEndpoint } from '@ess/contract/endpoint';
import { call, callFile, type DownloadResult } from '../../platform/request.ts';
import { uploadSheet, type UploadOutcome } from '../upload-sheet.ts';
import type { Endpoints } from './crud.types.ts';

/**
 * The calls of a resource through the request layer (toasts, 401, spinner as everywhere). The
 * shared list, form and detail handle records of any resource, so the answers are typed by the
 * resource's R and O (the resource definition ties them to its endpoints' response types).
 */
export function resourceApi<R, O = R>(endpoints: Endpoints) {
  const need = (name: keyof Endpoints): AnyEndpoint => {
    const ep = endpoints[name];
    if (!ep) throw new Error(`resource has no ${name} endpoint`);
    return ep;
  };
  const send = <T>(name: keyof Endpoints, input: Record<string, unknown>) => call(need(name), input) as Promise<T>;
  return {
    page: (params: Record<string, unknown>) => send<Page<R>>('page', params),
    list: (filters: Record<string, unknown>) => send<R[]>('list', filters),
    tree: (params: Record<string, unknown> = {}) => send<R[]>('tree', params),
    one: (id: number) => send<O>('one', { id }),
    add: (body: Record<string, unknown>) => send<unknown>('add', body),
    edit: (body: Record<string, unknown>) => send<unknown>('edit', body),
    remove: (id: number) => send<unknown>('delete', { id }),
    exportFile: (filters: Record<string, unknown>, fileName?: string): Promise<DownloadResult> =>
      callFile(need('export'), filters, { fileName }),
    /** An xlsx import: its refusal answers the per-row report instead of a toast. */
    importFile: (file: File): Promise<UploadOutcome<unknown>> => uploadSheet(need('import'), file),
  };
}

export type ResourceApi<R, O = R> = ReturnType<typeof resourceApi<R, O>>;
