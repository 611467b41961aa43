import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './server.ts';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The `top` functions by self time of a .cpuprofile, counting only samples taken in
 * [fromUs, toUs] (the profile's clock is the monotonic one, as process.hrtime); all samples
 * when none fall in the window. Functions of the same name and place are added together.
 */
export function summarizeProfile(file: string, fromUs: number, toUs: number, top = 25): string {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frame = new Map(prof.nodes.map((n) => [n.id, n.callFrame]));
  const tally = (inWindow: (t: number) => boolean) => {
    const self = new Map<string, number>();
    let total = 0;
    let t = prof.startTime;
    for (let i = 0; i < prof.samples.length; i++) {
      t += prof.timeDeltas[i] ?? 0;
      const dt = prof.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next one
      if (!inWindow(t)) continue;
      const f = frame.get(prof.samples[i]!)!;
      const file = f.url.startsWith('file://') ? relative(ROOT, fileURLToPath(f.url)) : f.url;
      const where = file ? `${file}:${f.lineNumber + 1}` : '';
      const key = `${f.functionName || '(anonymous)'}\t${where}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    }
    return { self, total };
  };
  let window = `load window ${((toUs - fromUs) / 1e6).toFixed(1)} s`;
  let { self, total } = tally((t) => t >= fromUs && t <= toUs);
  if (total === 0) {
    window = 'whole run (no sample fell in the load window)';
    ({ self, total } = tally(() => true));
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [`top ${top} functions by self time, ${window}, ${(total / 1000).toFixed(0)} ms sampled:`, '   self ms      %  function  file:line'];
  for (const [key, us] of rows) {
    const [fn, where] = key.split('\t');
    lines.push(`${(us / 1000).toFixed(0).padStart(9)}  ${((100 * us) / total).toFixed(1).padStart(5)}  ${fn}  ${where}`);
  }
  return lines.join('\n');
}
