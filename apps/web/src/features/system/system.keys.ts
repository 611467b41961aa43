import { resourceKeys } from '../../components/crud/index.ts';

/** Query keys of the system screens beyond their resources' own; each under the root of the resource it lists. */
export const systemKeys = {
  menu: resourceKeys(['system', 'menu']),
  user: resourceKeys(['system', 'user']),
  notification: ['system', 'notification'] as const,
  roleOptions: () => ['system', 'role', 'options'] as const,
  userOptions: () => ['system', 'user', 'options'] as const,
  interfaces: () => ['system', 'interface', 'list'] as const,
};
