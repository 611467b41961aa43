import type { FormRule } from 'antd';
import type { z } from 'zod';

/**
 * An antd form rule backed by a contract schema. Field values are checked with the schema; the
 * first issue's message (Simplified Chinese source text) is shown through the language pack.
 * With `path`, the schema is an object schema checked against all values and only issues on that
 * path count (cross-field rules such as the password confirmation).
 */
export function zodRule(schema: z.ZodType, t: (s: string, ...a: unknown[]) => string, path?: string): FormRule {
  return ({ getFieldsValue }) => ({
    validator: (_rule, value: unknown) => {
      const empty = value === undefined || value === null || value === '';
      if (empty && !path) return Promise.resolve();
      const result = path ? schema.safeParse(getFieldsValue(true)) : schema.safeParse(value);
      if (result.success) return Promise.resolve();
      const issue = path ? result.error.issues.find((i) => i.path.join('.') === path) : result.error.issues[0];
      return issue ? Promise.reject(new Error(t(issue.message))) : Promise.resolve();
    },
  });
}
