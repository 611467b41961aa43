import { defineModule } from '../../platform/module.ts';
import { registerFilesJobs } from './files.jobs.ts';
import { filesRoutes } from './files.routes.ts';

/** Uploads (type by content, size and quotas checked), downloads, and the sweep of unreferenced uploads. */
export const filesModule = defineModule({ name: 'files', routes: filesRoutes, jobs: registerFilesJobs });

// The module's public interface: what other modules (and the demo) may use.
export { addFileReferences, checkedImages, downloadUrl, isSvg, sweepUnreferencedFiles, type FileReferences, type StoredImage } from './files.service.ts';
