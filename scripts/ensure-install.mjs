// First-run set-up for the two Quick-start commands: installs dependencies on a fresh checkout;
// with --web builds the console when its build is missing or older than its sources; with
// --chromium installs Debian's Chromium for the browser tests.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd) => execSync(cmd, { stdio: 'inherit', cwd: root });

if (!existsSync(join(root, 'node_modules/.package-lock.json'))) run('npm ci --no-audit --no-fund');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const web = join(root, 'apps/web');
if (process.argv.includes('--web') && existsSync(join(web, 'package.json'))) {
  const built = join(web, 'dist/index.html');
  const sources = Math.max(newest(join(web, 'src')), newest(join(root, 'packages/contract/src')));
  if (!existsSync(built) || statSync(built).mtimeMs < sources) run('npm run build -w @ess/web');
}
if (process.argv.includes('--chromium')) run('node scripts/ensure-chromium.mjs');
