// Entry of the SVG sanitiser's worker thread when the server runs from its TypeScript sources
// (development, tests): a worker does not inherit the parent's TypeScript loader, so it registers
// tsx itself and then loads the worker's module. The production build bundles svg-worker.ts as
// dist/svg-worker.mjs instead, without the loader.
import { register } from 'tsx/esm/api';

register();
await import('./svg-worker.ts');
