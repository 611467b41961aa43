import { defineModule } from '../../platform/module.ts';
import { productRoutes } from './product.routes.ts';

/** Thing models: products, properties, events, commands, static properties, templates. */
export const productModule = defineModule({ name: 'product', routes: productRoutes });
