import type { AnyRoute } from '../platform/http/route.ts';
import { authRoutes } from './system/auth.routes.ts';

/** Every module's routes; the interface table, permissions and OpenAPI are built from this list. */
export const allRoutes: AnyRoute[] = [...authRoutes];
