/**
 * The Lighthouse half of bench/web, run by run.ts with a Node 22 binary (Lighthouse 13 needs
 * Node >= 22.19; Node 22 strips the types of this file). Reads a job as JSON from argv[2], starts
 * Debian's Chromium with chrome-launcher, and for each page and form factor runs Lighthouse's
 * performance category `runs` times, each on a new tab with a cold HTTP cache (Lighthouse clears
 * the cache and the origin's service workers and Cache Storage; it keeps localStorage, which is
 * where the console keeps its sign-in token). Signed-in pages get the token through puppeteer
 * before their runs; the login page runs with none. Prints one JSON line per run on stdout and
 * writes each run's full report (JSON) into job.outDir.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';

export type FormFactor = 'desktop' | 'mobile';

export interface PageJob {
  name: string;
  path: string;
  signedIn: boolean;
}

export interface Job {
  baseUrl: string;
  chromePath: string;
  chromeFlags: string[];
  token: string;
  tokenKey: string;
  runs: number;
  formFactors: FormFactor[];
  /** Multiplies the form factor's simulated CPU slowdown (run.ts --cpu-slowdown). */
  cpuSlowdown: number;
  pages: PageJob[];
  outDir: string;
}

export interface RunResult {
  page: string;
  formFactor: FormFactor;
  run: number;
  requestedUrl: string;
  finalUrl: string;
  score: number | null;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Bytes over the wire by resource type (script, stylesheet, document, ...). */
  transfer: Record<string, number>;
  /** Same-origin script and stylesheet paths the page loaded. */
  assets: string[];
  /** Lighthouse's largest savings (ms) the audits suggest, biggest first. */
  opportunities: { id: string; ms: number }[];
  mainThreadMs: number;
  /** Lighthouse's measure of this machine's CPU speed at the time (a typical desktop: 1000-2000+). */
  benchmarkIndex: number;
  warnings: string[];
  error: string | null;
  report: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;

const numeric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

function summarise(lhr: Result, page: PageJob, formFactor: FormFactor, run: number, report: string): RunResult {
  const origin = new URL(job.baseUrl).origin;
  const transfer: Record<string, number> = {};
  const assets: string[] = [];
  const items = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  for (const it of items) {
    const type = it.resourceType ?? 'Other';
    transfer[type] = (transfer[type] ?? 0) + (it.transferSize ?? 0);
    if ((type === 'Script' || type === 'Stylesheet') && it.url.startsWith(origin)) assets.push(new URL(it.url).pathname);
  }
  const opportunities = Object.values(lhr.audits)
    .map((a) => ({ id: a.id, ms: (a.metricSavings?.LCP ?? 0) + (a.metricSavings?.FCP ?? 0) + (a.metricSavings?.TBT ?? 0) }))
    .filter((o) => o.ms > 0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  return {
    page: page.name,
    formFactor,
    run,
    requestedUrl: lhr.requestedUrl ?? '',
    finalUrl: lhr.finalDisplayedUrl,
    score: lhr.categories.performance?.score ?? null,
    fcp: numeric(lhr, 'first-contentful-paint'),
    lcp: numeric(lhr, 'largest-contentful-paint'),
    tbt: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    si: numeric(lhr, 'speed-index'),
    transfer,
    assets,
    opportunities,
    mainThreadMs: numeric(lhr, 'mainthread-work-breakdown'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    warnings: lhr.runWarnings.map(String),
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
    report,
  };
}

/** Sets (or removes) the sign-in token in the origin's localStorage from a same-origin page that is not the console. */
async function setToken(browser: Browser, token: string | null) {
  const tab = await browser.newPage();
  // An API path: a small JSON 404, so the console itself does not start in this tab.
  await tab.goto(`${job.baseUrl}/api/manager/bench-no-such-path`);
  await tab.evaluate(
    token === null ? `localStorage.removeItem(${JSON.stringify(job.tokenKey)})` : `localStorage.setItem(${JSON.stringify(job.tokenKey)}, ${JSON.stringify(token)})`,
  );
  await tab.close();
}

async function main() {
  const chrome = await chromeLauncher.launch({ chromePath: job.chromePath, chromeFlags: job.chromeFlags, logLevel: 'error' });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  try {
    for (const page of job.pages) {
      await setToken(browser, page.signedIn ? job.token : null);
      for (const formFactor of job.formFactors) {
        for (let run = 1; run <= job.runs; run++) {
          const tab = await browser.newPage();
          // Signed in, the console keeps its live-event stream (a fetch) open. It opens after the
          // load event at low priority (src/platform/live-events.ts), so Lighthouse's network-quiet
          // test does not count it (at most 2 requests in flight, none of high priority) and the
          // run ends when the page has settled; Lighthouse's own limit of 45 s stays as the cap.
          const flags: Flags = { onlyCategories: ['performance'], output: 'json', logLevel: 'error', maxWaitForLoad: 45_000 };
          const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
          if (job.cpuSlowdown > 1) {
            const throttling = { ...(formFactor === 'desktop' ? desktopConfig.settings?.throttling : undefined) };
            flags.throttling = { ...throttling, cpuSlowdownMultiplier: (throttling.cpuSlowdownMultiplier ?? 4) * job.cpuSlowdown };
          }
          const result = await lighthouse(job.baseUrl + page.path, flags, config, tab);
          await tab.close().catch(() => undefined);
          if (!result) throw new Error(`lighthouse gave no result for ${page.path}`);
          const report = join(job.outDir, `${page.name.replace(/\W+/g, '-')}-${formFactor}-${run}.json`);
          writeFileSync(report, JSON.stringify(result.lhr));
          const r = summarise(result.lhr, page, formFactor, run, report);
          process.stdout.write(`${JSON.stringify(r)}\n`);
          process.stderr.write(`  ${page.name} ${formFactor} #${run}: ${r.score === null ? 'no score' : Math.round(r.score * 100)}${r.error ? ` (${r.error})` : ''}\n`);
        }
      }
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

await main();
