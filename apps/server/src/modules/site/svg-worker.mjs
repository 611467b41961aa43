// Entry of the SVG sanitiser's worker thread. On Linux the nice value is per thread: this thread
// (and the threads it starts) yields the CPU to the server's event loop, so a document that keeps
// it busy for seconds does not slow the other requests, the broker or the ingest on a small
// machine. A worker does not inherit the parent's TypeScript loader, so it registers tsx itself
// and then loads the worker's module.
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

if (process.platform === 'linux') {
  try {
    setPriority(0, 19);
  } catch {
    // Not permitted here: the worker runs at the server's priority.
  }
}
register();
await import('./svg-worker.ts');
