import type { ImportRefusal, ImportRowError } from '@ess/contract/common';
import type { AnyEndpoint, EndpointResponse } from '@ess/contract/endpoint';
import { call, RequestError } from '../platform/request.ts';

/** Whether a picked file may be sent to an import: xlsx only (product-spec §5); a toast says so when not. */
export function isXlsx(file: File, refuse: (text: string) => void, t: (source: string) => string): boolean {
  if (/\.xlsx$/i.test(file.name)) return true;
  refuse(t('只能上传 xlsx 文件'));
  return false;
}

/** An accepted file's answer, or a refused one's tip (source text) and per-row report (empty when it has none). */
export type UploadOutcome<T> = { ok: true; result: T } | { ok: false; tip: string; errors: ImportRowError[] };

/**
 * An xlsx import whose refusal carries a per-row report (ImportReport): the server answers 406
 * with the first error as tipMsg and `{ historyId?, errors }` (ImportRefusal) as JSON in
 * errorMsg. Other failures keep the tip only. No toast: the caller shows the outcome. `fields` go
 * beside the file (an import's language).
 */
export async function uploadSheet<E extends AnyEndpoint>(ep: E, file: File, fields: Record<string, string> = {}): Promise<UploadOutcome<EndpointResponse<E>>> {
  try {
    const result = (await call(ep as AnyEndpoint, { ...fields, file }, { noMessage: true })) as EndpointResponse<E>;
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    const tip = err.envelope?.tipMsg ?? err.message;
    let errors: ImportRowError[] = [];
    try {
      errors = (JSON.parse(err.envelope?.errorMsg ?? '') as ImportRefusal).errors ?? [];
    } catch {
      errors = [];
    }
    return { ok: false, tip, errors };
  }
}
