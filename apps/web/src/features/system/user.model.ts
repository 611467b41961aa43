import { USER_STATUS, type UserOne, type userEdit } from '@ess/contract/system';
import type { z } from 'zod';

export interface UserForm {
  username: string;
  password?: string;
  name: string;
  phone?: string | null;
  email?: string | null;
  companyId?: number;
  roleIds: number[];
  status: boolean;
  siteIds: number[];
  /** Every station of the company, those created later too; siteIds is then not sent. */
  allSites?: boolean;
  /** The user's own IANA zone (quiet hours of messages to them); empty: the station's. */
  timeZone?: string | null;
}

export const ACCOUNT_STATUS = [
  { value: USER_STATUS.enabled, label: '启用', color: 'success' },
  { value: USER_STATUS.disabled, label: '停用', color: 'error' },
] as const;

/** The fields of both bodies (status as 1/0). */
const common = (v: UserForm) => ({
  name: v.name,
  phone: v.phone ?? null,
  email: v.email ?? null,
  companyId: v.companyId,
  roleIds: v.roleIds ?? [],
  status: v.status === false ? USER_STATUS.disabled : USER_STATUS.enabled,
  siteIds: v.allSites === true ? [] : (v.siteIds ?? []),
  allSites: v.allSites === true,
  // Cleared picker: null, which clears the stored zone (the personal center sends '' for the same).
  timeZone: v.timeZone || null,
});

/** The edit request of a user's form values; a blank password keeps the current one. */
export function userEditBody(v: UserForm, id: number | undefined): z.input<typeof userEdit> {
  return { id, ...(v.password ? { password: v.password } : {}), ...common(v) };
}

/** The request body of a user's form values (status as 1/0; a blank password on edit keeps it). */
export function userBody(v: UserForm, mode: 'add' | 'edit', id?: number): Record<string, unknown> {
  if (mode === 'add') return { username: v.username, password: v.password, ...common(v) };
  return userEditBody(v, id);
}

/** Form values of a user loaded with the one endpoint (the password field starts blank). */
export function userValues(u: UserOne): UserForm {
  return {
    username: u.username, name: u.name, phone: u.phone, email: u.email, companyId: u.companyId, roleIds: u.roleIds,
    status: u.status === USER_STATUS.enabled, siteIds: u.siteIds, allSites: u.allSites, timeZone: u.timeZone, password: '',
  };
}
