// Browser tests drive Debian's Chromium; install it with apt-get when it is missing, together with
// a CJK font so that the screenshots the end-to-end run takes show the console's Chinese text
// (the default language) instead of empty boxes.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
const hasCjkFont = () => {
  try {
    return execSync('fc-list :lang=zh family', { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
};

const missing = [];
if (!existsSync(CHROMIUM)) missing.push('chromium');
if (!hasCjkFont()) missing.push('fonts-noto-cjk');
if (missing.length > 0) {
  const sudo = process.getuid && process.getuid() !== 0 ? 'sudo ' : '';
  process.stdout.write(`Installing Debian ${missing.join(' and ')} for the browser tests…\n`);
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
}
