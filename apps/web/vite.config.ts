import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { splitCss } from './scripts/split-css.ts';
import { STATIC_STYLE_ATTR } from './src/app/static-style.ts';

const require = createRequire(import.meta.url);

/** Export name → module, from a barrel's `export { default as Name } from './path'` lines. */
function barrelEntries(pkg: string, barrel: string, prefix: string): Map<string, string> {
  const file = join(dirname(require.resolve(`${pkg}/package.json`)), barrel);
  const map = new Map<string, string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/export\s*\{\s*default\s+as\s+(\w+)\s*\}\s*from\s*["']\.\/([\w/-]+)["']/g)) {
    map.set(m[1]!, `${prefix}/${m[2]!}`);
  }
  return map;
}

/**
 * Rewrites `import { Button, Form } from 'antd'` (and the same from '@ant-design/icons') in the
 * console's own code into one import per component module ('antd/es/button', ...), as
 * babel-plugin-import did. Tree shaking already drops unused components, but the bundler places
 * a module by what can reach it: through the barrel, every antd component any page uses is
 * reachable from the entry, so Modal, Collapse, Skeleton and the like were loaded with the login
 * page. Build only: in dev the barrel and the deep modules would be pre-bundled twice.
 */
function deepImports(): Plugin {
  const barrels: Record<string, Map<string, string>> = {
    antd: barrelEntries('antd', 'es/index.js', 'antd/es'),
    '@ant-design/icons': barrelEntries('@ant-design/icons', 'es/icons/index.js', '@ant-design/icons/es/icons'),
  };
  const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["'](antd|@ant-design\/icons)["'];?/g;
  return {
    name: 'ess:deep-imports',
    apply: 'build',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[cm]?[jt]sx?$/.test(id) || !IMPORT.test(code)) return null;
      IMPORT.lastIndex = 0;
      const out = code.replace(IMPORT, (_all, specs: string, pkg: string) => {
        const map = barrels[pkg]!;
        const deep: string[] = [];
        const rest: string[] = [];
        for (const raw of specs.split(',')) {
          const spec = raw.trim();
          if (!spec) continue;
          const m = /^(\w+)(?:\s+as\s+(\w+))?$/.exec(spec);
          const target = m ? map.get(m[1]!) : undefined;
          if (m && target) deep.push(`import ${m[2] ?? m[1]!} from ${JSON.stringify(target)};`);
          else rest.push(spec);
        }
        if (rest.length) deep.push(`import { ${rest.join(', ')} } from ${JSON.stringify(pkg)};`);
        return deep.join(' ');
      });
      return { code: out, map: null };
    },
  };
}

/** A string constant of the shared contract (the console and this config must agree on it). */
function contractConstant(name: string): string {
  const src = readFileSync(new URL('../../packages/contract/src/constants.ts', import.meta.url), 'utf8');
  const m = new RegExp(`export const ${name} = '([^']+)'`).exec(src);
  if (!m) throw new Error(`${name} not found in packages/contract/src/constants.ts`);
  return m[1]!;
}

/** Route path → absolute module path of each screen in src/app/screens.ts (`'/path': lazy(() => import('...'))`). */
function screenModules(): [string, string][] {
  const file = new URL('./src/app/screens.ts', import.meta.url);
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/'(\/[^']*)':\s*lazy\(\s*\(\)\s*=>\s*import\('([^']+)'\)/g)].map((m) => [m[1]!, resolve(dirname(file.pathname), m[2]!)]);
}

/** How many modulepreload links index.html's inline script adds in one task. */
const PRELOADS_PER_TASK = 4;

/**
 * Lets the login page's chunks download with the entry instead of after it has run. Vite
 * modulepreloads only what the entry imports statically; the login page is a lazy route, so its
 * chunks (antd's Form, Input, Button...) and the default locale's antd/dayjs chunks were a second
 * round trip. A small inline script in index.html adds modulepreload links for them when the
 * visitor will see the login page (on /login, or with no token) and uses the default locale.
 * It also inlines the entry's (tiny) stylesheet.
 */
function preloadLoginRoute(): Plugin {
  let base = '/';
  return {
    name: 'ess:preload-login-route',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const graph = (start: Rolldown.OutputChunk[]) => {
          const seen = new Set<string>();
          const visit = (c: Rolldown.OutputChunk | undefined) => {
            if (!c || seen.has(c.fileName)) return;
            seen.add(c.fileName);
            for (const f of c.imports) visit(byFile.get(f));
          };
          start.forEach(visit);
          return seen;
        };
        const entry = graph(chunks.filter((c) => c.isEntry));
        const login = chunks.filter((c) => c.facadeModuleId?.endsWith('/src/features/system/LoginPage.tsx'));
        const locale = chunks.filter((c) => c.moduleIds.some((id) => /\/antd\/es\/locale\/zh_CN\.js$|\/dayjs\/locale\/zh-cn\.js$/.test(id)));
        if (login.length !== 1 || locale.length === 0) throw new Error('ess:preload-login-route: login page or zh-CN locale chunk not found');
        const files = (set: Set<string>) => [...set].filter((f) => !entry.has(f)).map((f) => `${base}${f}`);
        // Signed in: the layout's chunks and the chunks of the screen at this path (by the
        // screens table), which would otherwise be requested only once the layout has rendered.
        const shell = chunks.filter((c) => c.facadeModuleId?.endsWith('/src/app/SignedInShell.tsx'));
        if (shell.length !== 1) throw new Error('ess:preload-login-route: SignedInShell chunk not found');
        const shellGraph = graph(shell);
        const shared: string[] = [];
        const indexOf = (f: string) => (shared.includes(f) ? shared.indexOf(f) : shared.push(f) - 1);
        const screens: Record<string, number[]> = {};
        for (const [path, module] of screenModules()) {
          const chunk = chunks.filter((c) => c.facadeModuleId === module);
          if (chunk.length !== 1) continue;
          screens[path] = [...graph(chunk)].filter((f) => !entry.has(f) && !shellGraph.has(f)).map((f) => indexOf(`${base}${f}`));
        }
        /** The parts of a prebuilt antd stylesheet (ess:antd-static-styles), in order. */
        const styles = (name: string) => {
          const parts = Object.values(ctx.bundle ?? {})
            .filter((a): a is Rolldown.OutputAsset => a.type === 'asset')
            .flatMap((a) => a.names.map((n) => ({ n: new RegExp(`^${name}-(\\d+)\\.css$`).exec(n), file: a.fileName })))
            .filter((x) => x.n)
            .sort((a, b) => Number(a.n![1]) - Number(b.n![1]))
            .map((x) => `${base}${x.file}`);
          if (parts.length === 0) throw new Error(`ess:preload-login-route: ${name} not found (ess:antd-static-styles)`);
          return parts;
        };
        // The entry's own imports: Vite's modulepreload links for them are left out of index.html
        // (build.modulePreload below) and added here with the rest, after the first paint.
        const entryImports = [...entry].filter((f) => !chunks.some((c) => c.isEntry && c.fileName === f)).map((f) => `${base}${f}`);
        const script = `(function(){try{var s=localStorage,f=${JSON.stringify(entryImports)},p=location.pathname;` +
          `var login=p===${JSON.stringify('/login')}||!s.getItem(${JSON.stringify(contractConstant('TOKEN_STORAGE_KEY'))});` +
          `var l=s.getItem(${JSON.stringify(contractConstant('LOCALE_STORAGE_KEY'))}),zh=!l||l===${JSON.stringify(contractConstant('DEFAULT_LOCALE'))};` +
          // Signed in: index.html's static header bar (ShellFallback's first paint, .ess-boot-*),
          // with its title in the default language only (another's text is in its language pack).
          `if(!login){document.documentElement.classList.add('ess-boot-shell');if(zh)document.documentElement.classList.add('ess-boot-titled')}` +
          // antd's prebuilt login styles (ess:antd-static-styles), preloaded first in <head>;
          // main.tsx applies them there before the first render (src/app/static-style.ts).
          `var h=document.head,at=h.firstChild;(login?${JSON.stringify(styles('antd-login'))}:[]).forEach(function(u){` +
          `var c=document.createElement('link');c.rel='preload';c.as='style';c.setAttribute(${JSON.stringify(STATIC_STYLE_ATTR)},'');c.href=u;h.insertBefore(c,at)});` +
          `if(login)f=f.concat(${JSON.stringify(files(graph(login)))});` +
          `else{var a=${JSON.stringify(shared)},m=${JSON.stringify(screens)};f=f.concat(${JSON.stringify(files(shellGraph))});` +
          `(m[p.length>1?p.replace(/\\/+$/,''):p]||[]).forEach(function(i){f.push(a[i])})}` +
          `if(zh)f=f.concat(${JSON.stringify(files(graph(locale)))});` +
          // A few links per task: each link starts its request there and then (0.5-10 ms each in
          // a trace), and the 50 or so of a signed-in page in one go were a long task of 30-60 ms.
          `function preload(i){f.slice(i,i+${PRELOADS_PER_TASK}).forEach(function(h){var e=document.createElement('link');e.rel='modulepreload';e.crossOrigin='';e.href=h;document.head.appendChild(e)});` +
          `if(i+${PRELOADS_PER_TASK}<f.length)setTimeout(function(){preload(i+${PRELOADS_PER_TASK})},0)}` +
          // After the first paint (the spinner): the chunks are needed only once the entry has
          // run, so a frame later costs nothing, and Lighthouse's simulation does not count
          // them as holding up the first paint.
          `requestAnimationFrame(function(){setTimeout(function(){preload(0)},0)})}catch(e){}})()`;
        // The entry's stylesheet is a few hundred bytes: inlined, the first paint waits for no request.
        let out = html;
        for (const asset of Object.values(ctx.bundle ?? {})) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css') || asset.source.length > 4096) continue;
          const link = new RegExp(`<link rel="stylesheet"[^>]*href="${base}${asset.fileName}"[^>]*>`);
          out = out.replace(link, () => `<style>${String(asset.source)}</style>`);
        }
        return { html: out, tags: [{ tag: 'script', children: script, injectTo: 'head' }] };
      },
    },
  };
}

/**
 * antd components of the login page whose styles are prebuilt (a style left out is made at run
 * time when first shown, as without prebuilt styles). Only components the page really shows
 * belong here: antd scopes a style by the theme's class, not by the component, so a style that
 * would not otherwise be on the page can reach other elements of that theme.
 */
const LOGIN_ANTD = ['Alert', 'Button', 'Col', 'Dropdown', 'Form', 'Input', 'Row', 'Space', 'Spin', 'message'];

const execFileAsync = promisify(execFile);

/**
 * Prebuilds the login page's antd styles (scripts/antd-static-css.tsx), so the browser does not
 * make them at run time; index.html's inline script (see preloadLoginRoute) preloads them when the
 * first page is the login page, and main.tsx applies them before the first render. A signed-in
 * page gets none: prebuilt, the shell's and a list page's styles (0.9 MB of CSS) cost as much to
 * parse as antd took to make them (bench/web, decision 0021).
 */
function antdStaticStyles(): Plugin {
  const script = new URL('./scripts/antd-static-css.tsx', import.meta.url).pathname;
  return {
    name: 'ess:antd-static-styles',
    apply: 'build',
    async buildStart() {
      const tmp = mkdtempSync(join(tmpdir(), 'ess-antd-css-'));
      try {
        const out = join(tmp, 'antd-login.css');
        await execFileAsync(process.execPath, ['--import', 'tsx', script, out, LOGIN_ANTD.join(',')], {
          env: { ...process.env, NODE_ENV: 'production' },
          maxBuffer: 16 * 1024 * 1024,
        });
        // Parts of about 50 kB: each is parsed in a task of its own, short enough not to count as
        // blocking even on a slowed-down phone (320 kB in one piece was one long task).
        splitCss(readFileSync(out, 'utf8'), 50_000).forEach((part, i) =>
          this.emitFile({ type: 'asset', name: `antd-login-${i + 1}.css`, source: part }),
        );
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a gzip (`.gz`, level 9) and a brotli (`.br`, quality 11) copy beside every text file of
 * the build (JS, CSS, HTML, SVG, JSON) of 1 kB or more, when the copy is smaller. The server
 * sends the copy the browser's Accept-Encoding asks for (@fastify/static `preCompressed`), so the
 * console's files travel compressed without compressing on each request; the highest levels cost
 * only build time.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'ess:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const jobs: Promise<void>[] = [];
      for (const out of Object.values(bundle)) {
        if (!/\.(js|mjs|css|html|svg|json)$/.test(out.fileName) || out.fileName.startsWith('.vite/')) continue;
        const raw = Buffer.from(out.type === 'chunk' ? out.code : out.source);
        if (raw.length < 1024) continue;
        const file = join(outDir, out.fileName);
        jobs.push(
          (async () => {
            const [gz, br] = await Promise.all([
              gzipAsync(raw, { level: 9 }),
              brotliAsync(raw, {
                params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
              }),
            ]);
            if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
            if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          })(),
        );
      }
      await Promise.all(jobs);
    },
  };
}

export default defineConfig({
  plugins: [react(), deepImports(), antdStaticStyles(), preloadLoginRoute(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8620', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // No modulepreload links in index.html: its inline script adds them (ess:preload-login-route)
    // after the first paint, the entry's imports first. As links in <head>, the ones that had
    // downloaded before the first paint (the page's header bar, the spinner) counted in
    // Lighthouse's simulation as holding it up (mobile FCP 0.7 s -> 1.3-2 s) though it needs none.
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps) },
  },
});
