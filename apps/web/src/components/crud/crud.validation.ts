import type { z } from 'zod';
import type { Translate } from './crud.types.ts';

/**
 * Contract schemas carry their own messages where the rule is a business rule ("权限配置不能为空",
 * "手机号格式不正确"). Where a schema has none (zod's generic checks), the parse gets a marker
 * instead of zod's English text, and the marker becomes a message naming the field's label.
 */
const MARK = '\u0001';

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v)) || (typeof v === 'string' && v.trim() === '');

interface RawIssue {
  code?: string;
  input?: unknown;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
}

/** The per-parse error map of zod 4: used only where the schema sets no message of its own. */
export function markIssue(issue: RawIssue): string {
  const { code, input, origin } = issue;
  switch (code) {
    case 'invalid_type':
      return isEmpty(input) ? `${MARK}required` : `${MARK}invalid`;
    case 'too_small':
      if (isEmpty(input) || (Number(issue.minimum) === 1 && (origin === 'string' || origin === 'array'))) return `${MARK}required`;
      if (origin === 'string') return `${MARK}minLength|${String(issue.minimum)}`;
      if (origin === 'array' || origin === 'set') return `${MARK}minItems|${String(issue.minimum)}`;
      return `${MARK}min|${String(issue.minimum)}`;
    case 'too_big':
      if (origin === 'string') return `${MARK}maxLength|${String(issue.maximum)}`;
      if (origin === 'array' || origin === 'set') return `${MARK}maxItems|${String(issue.maximum)}`;
      return `${MARK}max|${String(issue.maximum)}`;
    case undefined:
    default:
      return isEmpty(input) ? `${MARK}required` : `${MARK}invalid`;
  }
}

/** The text of one issue message for a field label (source text of both through `t`). */
export function issueText(message: string, label: string, t: Translate): string {
  if (!message.startsWith(MARK)) return t(message);
  const [kind, param] = message.slice(1).split('|');
  const field = t(label);
  switch (kind) {
    case 'required':
      return t('$1不能为空', field);
    case 'maxLength':
      return t('$1最多$2个字符', field, param);
    case 'minLength':
      return t('$1至少$2个字符', field, param);
    case 'max':
      return t('$1不能大于$2', field, param);
    case 'min':
      return t('$1不能小于$2', field, param);
    case 'maxItems':
      return t('$1最多选择$2项', field, param);
    case 'minItems':
      return t('$1至少选择$2项', field, param);
    case undefined:
    default:
      return t('$1格式不正确', field);
  }
}

export interface FieldErrors {
  /** Messages by top-level field name. */
  fields: Record<string, string[]>;
  /** Messages of issues on no known field. */
  form: string[];
}

export type Validation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Checks a request body with a contract schema; issues become messages on the field named by
 * their first path segment (labels from `labels`), the rest form-level messages.
 */
export function validateWith<S extends z.ZodType>(
  schema: S,
  body: unknown,
  labels: Record<string, string>,
  t: Translate,
): Validation<z.output<S>> {
  const result = schema.safeParse(body, { error: (issue) => markIssue(issue) });
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = { fields: {}, form: [] };
  for (const issue of result.error.issues) {
    const head = issue.path[0];
    const name = typeof head === 'string' ? head : undefined;
    const label = name !== undefined ? labels[name] : undefined;
    if (name !== undefined && label !== undefined) {
      const list = (errors.fields[name] ??= []);
      const text = issueText(issue.message, label, t);
      if (!list.includes(text)) list.push(text);
    } else {
      errors.form.push(issueText(issue.message, name ?? '', t));
    }
  }
  return { ok: false, errors };
}

/** An antd rule that checks one field's value with a field schema (messages as above). */
export function fieldRule(schema: z.ZodType, label: string, t: Translate) {
  return {
    validator: (_rule: unknown, value: unknown) => {
      if (isEmpty(value) || (Array.isArray(value) && value.length === 0)) return Promise.resolve();
      const result = schema.safeParse(value, { error: (issue) => markIssue(issue) });
      if (result.success) return Promise.resolve();
      const first = result.error.issues[0];
      return first ? Promise.reject(new Error(issueText(first.message, label, t))) : Promise.resolve();
    },
  };
}
