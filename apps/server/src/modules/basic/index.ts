import { defineModule } from '../../platform/module.ts';
import { basicRoutes } from './basic.routes.ts';
import { sseRoutes } from './sse.routes.ts';

/** The live-event stream and script validation. */
export const basicModule = defineModule({ name: 'basic', routes: [...basicRoutes, ...sseRoutes] });
