// Prints the gzipped JS + CSS the login page loads: the entry chunk, the login page chunk and
// everything they import statically, from the build manifest (run after `npm run build`).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const files = new Set();
const visit = (key) => {
  const c = manifest[key];
  if (!c || files.has(c.file)) return;
  files.add(c.file);
  for (const css of c.css ?? []) files.add(css);
  for (const k of c.imports ?? []) visit(k);
};
visit('index.html');
visit(Object.keys(manifest).find((k) => k.endsWith('LoginPage.tsx')));
let js = 0;
let css = 0;
for (const f of files) {
  const size = gzipSync(readFileSync(new URL(f, dist))).length;
  if (f.endsWith('.css')) css += size;
  else js += size;
}
console.log(`login page: ${files.size} files, gzipped JS ${(js / 1024).toFixed(1)} kB + CSS ${(css / 1024).toFixed(1)} kB = ${((js + css) / 1024).toFixed(1)} kB`);
