import { USER_STATUS } from '@ess/contract/system';

export interface UserRow {
  id: number;
  username: string;
  name: string;
  phone: string | null;
  email: string | null;
  companyId: number;
  companyName: string;
  status: 0 | 1;
  buildIn: boolean;
  siteCount: number;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  roles: { id: number; name: string }[];
}

export interface UserOne extends UserRow {
  roleIds: number[];
  siteIds: number[];
}

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
}

export const ACCOUNT_STATUS = [
  { value: USER_STATUS.enabled, label: '启用', color: 'success' },
  { value: USER_STATUS.disabled, label: '停用', color: 'error' },
] as const;

/** The request body of a user's form values (status as 1/0; a blank password on edit keeps it). */
export function userBody(v: UserForm, mode: 'add' | 'edit', id?: number): Record<string, unknown> {
  const common = {
    name: v.name,
    phone: v.phone ?? null,
    email: v.email ?? null,
    companyId: v.companyId,
    roleIds: v.roleIds ?? [],
    status: v.status === false ? USER_STATUS.disabled : USER_STATUS.enabled,
    siteIds: v.siteIds ?? [],
  };
  if (mode === 'add') return { username: v.username, password: v.password, ...common };
  return { id, ...(v.password ? { password: v.password } : {}), ...common };
}

/** Form values of a user loaded with the one endpoint (the password field starts blank). */
export function userValues(u: UserOne): UserForm {
  return {
    username: u.username, name: u.name, phone: u.phone, email: u.email, companyId: u.companyId, roleIds: u.roleIds,
    status: u.status === USER_STATUS.enabled, siteIds: u.siteIds, password: '',
  };
}
