import { menuEndpoints, roleEndpoints, userEndpoints } from '@ess/contract/system';
import type { OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { systemKeys } from './system.keys.ts';

/**
 * Pickers of the system screens. Each key sits under the root of the resource it lists, so a
 * change to companies, roles or users refreshes the pickers too.
 */

export const roleSource: OptionSource = {
  queryKey: systemKeys.roleOptions(),
  load: async () =>
    (await call(roleEndpoints.list, {}, { loading: false })).map((r) => ({
      value: r.id,
      label: r.companyName ? `${r.name} · ${r.companyName}` : r.name,
    })),
};

export const userSource: OptionSource = {
  queryKey: systemKeys.userOptions(),
  load: async () =>
    (await call(userEndpoints.list, {}, { loading: false })).map((u) => ({
      value: u.id,
      label: `${u.name} (${u.username})`,
    })),
};

export const interfaceQuery = {
  queryKey: systemKeys.interfaces(),
  queryFn: () => call(menuEndpoints.interfaces, {}, { loading: false }),
  staleTime: 60_000,
};

