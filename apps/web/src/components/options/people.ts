import { roleEndpoints, userEndpoints } from '@ess/contract/system';
import type { OptionSource } from '../crud/crud.types.ts';
import { call } from '../../platform/request.ts';

/** Query keys of the role and user pickers, under the roots of the system screens that change them. */
export const peopleKeys = {
  roleOptions: () => ['system', 'role', 'options'] as const,
  userOptions: () => ['system', 'user', 'options'] as const,
};

/** The roles the caller may see, named with their company. */
export const roleSource: OptionSource = {
  queryKey: peopleKeys.roleOptions(),
  load: async () =>
    (await call(roleEndpoints.list, {}, { loading: false })).map((r) => ({
      value: r.id,
      label: r.companyName ? `${r.name} · ${r.companyName}` : r.name,
    })),
};

/** The users the caller may see, named with their user name. */
export const userSource: OptionSource = {
  queryKey: peopleKeys.userOptions(),
  load: async () =>
    (await call(userEndpoints.list, {}, { loading: false })).map((u) => ({
      value: u.id,
      label: `${u.name} (${u.username})`,
    })),
};
