import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), deepImports()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8620', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
  },
});
