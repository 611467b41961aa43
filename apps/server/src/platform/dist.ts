import { join } from 'node:path';

/**
 * The production build (apps/server/build.mjs) bundles the server into one folder, dist/, with
 * the files it reads at run time (migrations, language packs) and its other entry points (the SVG
 * sanitiser's worker, the station simulator) beside the bundle. The build defines ESS_DIST; under
 * the TypeScript loader (development, tests) it is not defined and each file is where the source
 * tree keeps it.
 */
declare const ESS_DIST: true | undefined;

/** The folder of the running production bundle; null when the server runs from its TypeScript sources. */
export const distDir: string | null = typeof ESS_DIST !== 'undefined' ? import.meta.dirname : null;

/** `inDist` (relative to the bundle's folder) when running from the build, else `inSource`. */
export function runtimePath(inDist: string, inSource: string): string {
  return distDir ? join(distDir, inDist) : inSource;
}
