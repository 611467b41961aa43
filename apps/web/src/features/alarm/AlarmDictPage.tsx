import { ResourceTable } from '../../components/crud/index.ts';
import { dictResource } from './dict.resource.tsx';

/**
 * /alarm/alarm: the alarm dictionary — which fault codes and which thresholds raise alarms, at
 * what level and type — with add, edit, delete and xlsx export and import.
 */
export function AlarmDictPage() {
  return <ResourceTable def={dictResource} />;
}
