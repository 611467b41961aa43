import { ResourceTable } from '../../components/crud/index.ts';
import { cabinetResource } from './cabinet.resource.tsx';

/** /config/lockers: energy cabinets with search, add, edit, detail and delete of empty ones. */
export function CabinetPage() {
  return <ResourceTable def={cabinetResource} />;
}
