import type { AppContext } from '../../platform/context.ts';
import { perApp } from '../../platform/module.ts';
import { PACKS_DIR } from './packs.ts';
import { seedCatalogue, shippedCatalogue as catalogueOfShipped, type Catalogue } from './translation.service.ts';

/** The catalogue of UI texts a running app refreshes from: the scanned catalogue with the shipped packs' source texts, or a test's. */
const catalogues = perApp<Catalogue>('the text catalogue');
const shipped = catalogueOfShipped(PACKS_DIR);

export const catalogueOf = (ctx: AppContext): Catalogue => catalogues.get(ctx) ?? shipped;
/** Tests: the catalogue a refresh of this app reads. */
export const setCatalogue = (ctx: AppContext, c: Catalogue) => catalogues.set(ctx, c);
export const shippedCatalogue = shipped;
/** The shipped packs' source texts: what the first start seeds (a refresh then adds the scanned texts the packs lack). */
export const seededCatalogue = seedCatalogue(PACKS_DIR);
