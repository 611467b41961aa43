// First-run set-up for the two Quick-start commands: installs dependencies on a fresh checkout
// and, with --web, builds the console when it has not been built yet.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const root = new URL('..', import.meta.url);
const run = (cmd) => execSync(cmd, { stdio: 'inherit', cwd: root });

if (!existsSync(new URL('node_modules/.package-lock.json', root))) run('npm ci --no-audit --no-fund');
if (process.argv.includes('--web') && existsSync(new URL('apps/web/package.json', root)) && !existsSync(new URL('apps/web/dist/index.html', root))) {
  run('npm run build -w @ess/web');
}
