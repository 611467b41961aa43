// Browser tests drive Debian's Chromium; install it with apt-get when it is missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const sudo = process.getuid && process.getuid() !== 0 ? 'sudo ' : '';
  process.stdout.write('Installing Debian chromium for the browser tests…\n');
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, { stdio: 'inherit' });
}
