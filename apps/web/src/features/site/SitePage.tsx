import { ResourceTable } from '../../components/crud/index.ts';
import { siteResource } from './site.resource.tsx';

/** /config/site: stations with search, add and edit (validated by the contract), detail and delete. */
export function SitePage() {
  return <ResourceTable def={siteResource} />;
}
