import { ResourceTable } from '../../components/crud/index.ts';
import { accessLogResource } from './log.resource.tsx';

/** /log/api */
export function ApiLogPage() {
  return <ResourceTable def={accessLogResource} />;
}
