// Installs dependencies on a fresh checkout so that `npm start` and `npm test` work as the first command.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}
