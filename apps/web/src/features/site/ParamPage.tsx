import { ResourceTable } from '../../components/crud/index.ts';
import { paramResource } from './product-config.resource.tsx';

/** /product/config: the settable parameters of every product, by product and keyword. */
export function ParamPage() {
  return <ResourceTable def={paramResource} />;
}
