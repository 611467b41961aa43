// Entry of the SVG sanitiser's worker thread. On Linux the nice value is per thread: this thread
// (and the threads it starts) yields some of the CPU to the server's event loop, so a document that
// keeps it busy for seconds slows the other requests, the broker and the ingest less on a small
// machine. Nice 5, not 19: at 19 a busy machine (two cores at full load) left the worker ~1.5 % of
// a core, so even a plain diagram ran into the time limit. A worker does not inherit the parent's TypeScript loader, so it registers tsx itself
// and then loads the worker's module.
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

if (process.platform === 'linux') {
  try {
    setPriority(0, 5);
  } catch {
    // Not permitted here: the worker runs at the server's priority.
  }
}
register();
await import('./svg-worker.ts');
