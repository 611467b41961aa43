import { Badge, Tag } from 'antd';
import type { ReactNode } from 'react';
import { formatDateTime as formatInstant, formatNumber } from '../number-format.ts';
import { translateBuiltIn } from '../../platform/i18n/translate.ts';
import type { ColumnDef, EnumOption, Translate } from './crud.types.ts';

export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Any value as text: strings as they are, objects as JSON, nothing as ''. */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v) ?? '';
}

/** A time from the server (ISO text or epoch ms) in the browser's zone, as the locale writes it; '-' when none. */
export function formatDateTime(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'number') return formatInstant(v);
  return v === null || v === undefined ? '-' : asText(v);
}

export function enumOption(options: readonly EnumOption[] | undefined, v: unknown): EnumOption | undefined {
  return options?.find((o) => o.value === v || String(o.value) === asText(v));
}

/** The shown label of an enum value: source text through the pack, codes as they are. */
export const optionLabel = (o: EnumOption, t: Translate) => (o.literal ? o.label : t(o.label));

/** A status value as a coloured badge with its translated label. */
export function StatusBadge({ options, value, t }: { options: readonly EnumOption[] | undefined; value: unknown; t: Translate }) {
  const o = enumOption(options, value);
  if (!o) return <span>{value === null || value === undefined ? '-' : asText(value)}</span>;
  return <Badge status={o.color ?? 'default'} text={optionLabel(o, t)} />;
}

const field = (row: unknown, key: string): unknown => (row && typeof row === 'object' ? (row as Record<string, unknown>)[key] : undefined);

/** The shown value of a column in a row (list cell and detail line). */
export function renderCell<R>(col: ColumnDef<R>, row: R, t: Translate): ReactNode {
  if (col.render) return col.render(row, t);
  const v = field(row, col.key);
  const shown = (text: string) => (col.builtIn ? translateBuiltIn(text) : text);
  switch (col.type ?? 'text') {
    case 'datetime':
      return formatDateTime(v);
    case 'enum':
    case 'boolean':
      return <StatusBadge options={col.options} value={v} t={t} />;
    case 'tags':
      return Array.isArray(v) && v.length ? (
        <span>
          {v.map((item, i) => (
            <Tag key={i}>{shown(typeof item === 'object' && item ? asText(field(item, 'name')) : asText(item))}</Tag>
          ))}
        </span>
      ) : (
        '-'
      );
    case 'number':
      return typeof v === 'number' ? formatNumber(v) : '-';
    case 'longText':
      return v ? <div style={{ whiteSpace: 'pre-wrap' }}>{asText(v)}</div> : '-';
    case 'code':
      // Plain markup: antd's Typography brings its copy, edit and ellipsis machinery to every list.
      return v === null || v === undefined || v === '' ? '-' : <code className="ess-code">{asText(v)}</code>;
    case 'text':
      return v === null || v === undefined || v === '' ? '-' : shown(asText(v));
  }
}
