import { ResourceTable } from '../../components/crud/index.ts';
import { roleResource } from './role.resource.tsx';

/** /system/role: roles with their menu permissions and directly granted interfaces. */
export function RolePage() {
  return <ResourceTable def={roleResource} />;
}
