import { ResourceTable } from '../../components/crud/index.ts';
import { settingResource } from './notification.resource.tsx';

/** /system/messageConfig: notifications to push to roles or users, now or at a set time. */
export function MessageConfigPage() {
  return <ResourceTable def={settingResource} />;
}
