import { resourceKeys } from '../../components/crud/index.ts';
import { peopleKeys } from '../../components/options/people.ts';

/** Query keys of the system screens beyond their resources' own; each under the root of the resource it lists. */
export const systemKeys = {
  menu: resourceKeys(['system', 'menu']),
  user: resourceKeys(['system', 'user']),
  notification: ['system', 'notification'] as const,
  ...peopleKeys,
  interfaces: () => ['system', 'interface', 'list'] as const,
};
