import { ResourceTable } from '../../components/crud/index.ts';
import { itemResource } from './item.resource.tsx';

/**
 * /patrol/work: the inspection items — what is checked on which device type or product, how
 * (state, measured value within a range, text, photo) and against what standard — with xlsx
 * export and import. Deleting an item a plan uses is refused with the plans' names.
 */
export function ItemPage() {
  return <ResourceTable def={itemResource} />;
}
