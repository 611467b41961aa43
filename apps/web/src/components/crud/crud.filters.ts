import dayjs from 'dayjs';
import { enumOption } from './crud.cells.tsx';
import type { FilterDef } from './crud.types.ts';

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** Epoch milliseconds of a picked time (text as the search form formats it, dayjs, or ms). */
export function toMillis(v: unknown): number | undefined {
  if (blank(v)) return undefined;
  const d = dayjs(v as string | number);
  return d.isValid() ? d.valueOf() : undefined;
}

/** The page/list request fields of the search form's values (empty values left out). */
export function filtersToBody(filters: readonly FilterDef[] | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of filters ?? []) {
    const v = values[f.key];
    if (blank(v)) continue;
    if (f.toBody) {
      Object.assign(body, f.toBody(v));
      continue;
    }
    switch (f.type ?? 'text') {
      case 'text':
        body[f.key] = String(v).trim();
        break;
      case 'number': {
        const n = Number(v);
        if (Number.isFinite(n)) body[f.key] = n;
        break;
      }
      case 'enum': {
        const o = enumOption(f.options, v);
        if (o) body[f.key] = o.value;
        break;
      }
      case 'datetimeRange': {
        const [from, to] = Array.isArray(v) ? (v as unknown[]) : [];
        const start = toMillis(from);
        const end = toMillis(to);
        if (start !== undefined) body.start = start;
        if (end !== undefined) body.end = end;
        break;
      }
      case 'dateRange': {
        const [from, to] = Array.isArray(v) ? (v as unknown[]) : [];
        const day = (x: unknown) => (blank(x) ? undefined : dayjs(x as string | number));
        const a = day(from);
        const b = day(to);
        if (a?.isValid()) body.startDate = a.format('YYYY-MM-DD');
        if (b?.isValid()) body.endDate = b.format('YYYY-MM-DD');
        break;
      }
      case 'select':
      case 'treeSelect':
        body[f.key] = v;
        break;
    }
  }
  return body;
}
