// Prints the gzipped JS + CSS the login page loads, from the build manifest (run after
// `npm run build`): the entry chunk (index.html), the login page chunk, the default locale's
// antd and dayjs chunks (main.tsx loads them before the first render), and everything these
// import statically (what Vite modulepreloads with them), and antd's prebuilt login stylesheets.
// Chunks only the layout or other pages
// import are not counted. `--json` prints the figures as JSON (bench/web/run.ts reads it); `--dist DIR` reads another build.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget of the login page, gzipped JS + CSS, in kB (1 kB = 1024 bytes). */
export const BUDGET_KB = 300;

export function loginBundle(dist = new URL('../dist/', import.meta.url)) {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    const c = manifest[key];
    if (!c || seen.has(key)) return;
    seen.add(key);
    files.add(c.file);
    for (const css of c.css ?? []) files.add(css);
    for (const k of c.imports ?? []) visit(k);
  };
  if (!manifest['index.html']) throw new Error('no index.html in the manifest');
  visit('index.html');
  const login = Object.keys(manifest).find((k) => k.endsWith('LoginPage.tsx'));
  if (!login) throw new Error('no LoginPage chunk in the manifest');
  visit(login);
  // The default locale (zh-CN): antd's zh_CN and dayjs's zh-cn, imported dynamically by the
  // chunks above and loaded before the first render.
  const isDefaultLocale = (k) => /(^|[/_])(zh_CN|zh-cn)(-[\w-]+)?\.js$/.test(k) || ['zh_CN', 'zh-cn'].includes(manifest[k]?.name);
  for (const key of [...seen]) for (const k of manifest[key].dynamicImports ?? []) if (isDefaultLocale(k)) visit(k);
  // antd's prebuilt stylesheets of the login page, which index.html's inline script links.
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  for (const m of html.matchAll(/\/(assets\/antd-login-\d+-[\w-]+\.css)/g)) files.add(m[1]);
  const rows = [...files].map((file) => {
    const raw = readFileSync(new URL(file, dist));
    return { file, raw: raw.length, gzip: gzipSync(raw).length };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  const sum = (pred) => rows.filter(pred).reduce((n, r) => n + r.gzip, 0);
  const js = sum((r) => !r.file.endsWith('.css'));
  const css = sum((r) => r.file.endsWith('.css'));
  return { files: rows, jsGzip: js, cssGzip: css, totalGzip: js + css, totalRaw: rows.reduce((n, r) => n + r.raw, 0), budgetKb: BUDGET_KB };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--dist');
  const r = loginBundle(i > 0 ? pathToFileURL(`${process.argv[i + 1]}/`) : undefined);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r));
  } else {
    const kb = (n) => (n / 1024).toFixed(1);
    for (const f of r.files) console.log(`  ${kb(f.gzip).padStart(6)} kB gz  ${kb(f.raw).padStart(6)} kB raw  ${f.file}`);
    console.log(
      `login page: ${r.files.length} files, gzipped JS ${kb(r.jsGzip)} kB + CSS ${kb(r.cssGzip)} kB = ${kb(r.totalGzip)} kB ` +
        `(budget ${BUDGET_KB} kB: ${r.totalGzip <= BUDGET_KB * 1024 ? 'within' : 'OVER'}); ${kb(r.totalRaw)} kB uncompressed`,
    );
  }
}
