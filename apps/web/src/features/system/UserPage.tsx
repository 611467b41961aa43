import { ResourceTable } from '../../components/crud/index.ts';
import { userResource } from './user.resource.tsx';

/** /system/user: accounts with company, roles, status (switched in the list) and station access. */
export function UserPage() {
  return <ResourceTable def={userResource} />;
}
