import { defineModule } from '../../platform/module.ts';
import { filesRoutes } from './files.routes.ts';

/** Uploads (type and size checked) and downloads. */
export const filesModule = defineModule({ name: 'files', routes: filesRoutes });

// The module's public interface: what other modules (and the demo) may use.
export { isSvg } from './files.service.ts';
