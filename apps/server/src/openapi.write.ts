import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { allRoutes } from './modules/index.ts';
import { buildOpenApi } from './platform/http/openapi.ts';

/** `npm run openapi`: regenerates the committed apps/server/openapi.json. */
const target = resolve(import.meta.dirname, '../openapi.json');
writeFileSync(target, `${JSON.stringify(buildOpenApi(allRoutes), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
