/**
 * bench/i18n: the cost of serving business data in the caller's language (decision 0053). Starts
 * the real server in this process (PostgreSQL, or PGlite with --pglite), makes a station with
 * `--devices` devices (default 500: the largest page), collects them as originals and gives each
 * a de-DE translation, then asks the device page of all of them `--rounds` times without the
 * Client-Language header, and with it (warm cache), and once with a cold cache. Prints the
 * latency p50/p99 of each, the pass alone over the page in memory, and the cache's load time.
 *
 *   npx tsx bench/i18n/run.ts [--pglite] [--devices 500] [--rounds 50]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { device, product } from '../../apps/server/src/db/schema/device.ts';
import { dataTranslations, dropDataTranslations, rulesOf, translateData } from '../../apps/server/src/modules/i18n/data-translation.ts';
import { refreshData } from '../../apps/server/src/modules/i18n/translation.service.ts';
import { newSite, seededCompanies } from '../../apps/server/test/factory.ts';
import { startTestApp } from '../../apps/server/test/harness.ts';

const args = process.argv.slice(2);
const num = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const DEVICES = num('--devices', 500);
const ROUNDS = num('--rounds', 50);
const target = args.includes('--pglite') ? 'pglite' : 'postgres';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function main() {
  const t = await startTestApp(target);
  try {
    const c = await seededCompanies(t);
    const s = await newSite(t, c.east.id, { name: '基准测试站' });
    const [p] = await t.ctx.db.select({ id: product.id }).from(product).where(sql`${product.type} = 'bms'`).limit(1);
    await t.ctx.db.insert(device).values(Array.from({ length: DEVICES }, (_, i) => ({ code: `B${i}`, name: `电池簇${i + 1}`, siteId: s.id, productId: p!.id, type: 'bms' })));
    await refreshData(t.ctx.db, null);
    await t.ctx.db.execute(sql`insert into i18n_translation (original_id, language_code, translation, state)
      select o.id, 'de-DE', 'Batteriecluster ' || o.record_id, 'translated' from i18n_original o join text_node n on n.id = o.node_id
      where o.domain = 'data' and n.field in ('device.name', 'site.name') on conflict do nothing`);
    dropDataTranslations(t.ctx.db);
    const body = { siteId: s.id, pageSize: DEVICES };
    const ask = async (language?: string) => {
      const t0 = performance.now();
      const r = await t.api.call<{ records: { name: string }[] }>('POST', '/configure/device/query/page', { token: t.adminToken, body, headers: language ? { 'client-language': language } : {} });
      const took = performance.now() - t0;
      if (r.status !== 200 || r.body.data.records.length !== DEVICES) throw new Error(`page: ${r.status}`);
      return { took, first: r.body.data.records[0]!.name };
    };
    for (let i = 0; i < 5; i++) await ask();
    const cold: number[] = [];
    for (let i = 0; i < 5; i++) {
      dropDataTranslations(t.ctx.db);
      cold.push((await ask('de-DE')).took);
    }
    const plain: number[] = [];
    const translated: number[] = [];
    let sample = '';
    for (let i = 0; i < ROUNDS; i++) {
      plain.push((await ask()).took);
      const r = await ask('de-DE');
      translated.push(r.took);
      sample = r.first;
    }
    // The pass alone, on the page as the handler answers it.
    const page = (await t.api.call<unknown>('POST', '/configure/device/query/page', { token: t.adminToken, body })).body.data;
    const tables = await dataTranslations(t.ctx.db, 'de-DE');
    const rules = rulesOf('/configure/device/query/page');
    const pass: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      translateData(page, tables, rules);
      pass.push(performance.now() - t0);
    }
    const loads: number[] = [];
    for (let i = 0; i < 5; i++) {
      dropDataTranslations(t.ctx.db);
      const t0 = performance.now();
      await dataTranslations(t.ctx.db, 'de-DE');
      loads.push(performance.now() - t0);
    }
    const rows = [...tables.values()].reduce((n, m) => n + m.size, 0);
    console.log(`target ${target}, ${DEVICES} devices on one page, ${rows} de-DE data translations held, ${ROUNDS} rounds (first record: ${sample})`);
    console.log(`device page, no Client-Language:      p50 ${ms(pct(plain, 50))}  p99 ${ms(pct(plain, 99))}`);
    console.log(`device page, de-DE (warm cache):      p50 ${ms(pct(translated, 50))}  p99 ${ms(pct(translated, 99))}`);
    console.log(`device page, de-DE (cache dropped):   p50 ${ms(pct(cold, 50))}  max ${ms(Math.max(...cold))}`);
    console.log(`the pass alone over the page:         p50 ${ms(pct(pass, 50))}  p99 ${ms(pct(pass, 99))}`);
    console.log(`loading the language's translations:  p50 ${ms(pct(loads, 50))}  max ${ms(Math.max(...loads))}`);
  } finally {
    await t.stop();
  }
}

await main();
