import { z } from 'zod';
import { MAX_PAGE_SIZE, PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';

/** Database ids are positive integers; query-string ids arrive as text and are coerced. */
export const id = z.coerce.number().int().positive().max(2 ** 31 - 1);
export const idQuery = z.object({ id });
export const idBody = z.object({ id });
export const emptyBody = z.object({}).strict().optional();

export const pageRequest = z.object({
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});
export type PageRequest = z.infer<typeof pageRequest>;

export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  pageSize: number;
}

export const trimmed = (max: number) => z.string().trim().min(1).max(max);
export const optionalText = (max: number) =>
  z.string().trim().max(max).optional().nullable().transform((v) => (v ? v : null));

/** Phone numbers: optional leading +, digits with spaces or dashes, 6–20 characters. */
export const phone = z.string().trim().regex(/^\+?\d[\d -]{4,18}\d$/, '手机号格式不正确');
export const optionalPhone = z
  .union([phone, z.literal('')])
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));
export const email = z.string().trim().max(128).email('邮箱格式不正确');
export const optionalEmail = z
  .union([email, z.literal('')])
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

/** product-spec §5: 8–20 characters with at least two of upper case, lower case and digits. */
export const password = z
  .string()
  .min(PASSWORD_MIN, `密码长度为${PASSWORD_MIN}-${PASSWORD_MAX}位`)
  .max(PASSWORD_MAX, `密码长度为${PASSWORD_MIN}-${PASSWORD_MAX}位`)
  .refine(
    (v) => [/[A-Z]/, /[a-z]/, /\d/].filter((r) => r.test(v)).length >= 2,
    '密码须至少包含大写字母、小写字母、数字中的两种',
  );

/** ISO date-time or epoch milliseconds, as an instant. */
export const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date(), z.number().int()]).transform((v) => new Date(v));

export const dateRange = z.object({
  start: instant.optional(),
  end: instant.optional(),
});
