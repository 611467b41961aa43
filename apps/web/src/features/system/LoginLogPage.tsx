import { ResourceTable } from '../../components/crud/index.ts';
import { loginLogResource } from './log.resource.tsx';

/** /log/login */
export function LoginLogPage() {
  return <ResourceTable def={loginLogResource} />;
}
