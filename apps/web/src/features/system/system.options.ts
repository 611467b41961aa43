import { menuEndpoints } from '@ess/contract/system';
import { call } from '../../platform/request.ts';
import { systemKeys } from './system.keys.ts';

/**
 * Pickers of the system screens (the role and user pickers are shared: components/options). Each
 * key sits under the root of the resource it lists, so a change there refreshes the pickers too.
 */

export { roleSource, userSource } from '../../components/options/people.ts';

export const interfaceQuery = {
  queryKey: systemKeys.interfaces(),
  queryFn: () => call(menuEndpoints.interfaces, {}, { loading: false }),
  staleTime: 60_000,
};

