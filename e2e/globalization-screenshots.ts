/**
 * Screenshots of the globalization screens (docs/screenshots/globalization-*.png), each checked by
 * axe (serious and critical violations are printed and fail the script): the console with the
 * demo seeded, a LibreTranslate peer started here as an engine (and a DeepL one without a
 * reachable service), one German text machine-translated by the peer and one translation edited,
 * so the states differ. Then the four screens on a desktop (the translation screen with a refused
 * edit and the completion dialog, its business-data tab filtered by a data field, the engine's language pairs, translate mode's editor) and each
 * on a phone (390 px).
 * Run: `npx tsx e2e/globalization-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import type { Page } from 'playwright-core';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { startLibrePeer } from './support/libre-peer.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { log, runScript, settled, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

interface Row {
  id: number;
  source: string;
}

async function prepare(api: ConsoleApi, peerUrl: string): Promise<void> {
  const { id: engineId } = await api.post<{ id: number }>('/i18n/engine/add', { name: 'LibreTranslate（自建）', kind: 'libre', endpoint: peerUrl, enabled: true, batchSize: 20 });
  await api.post('/i18n/engine/add', { name: 'DeepL 专业版', kind: 'deepl', apiKey: 'not-a-real-key:fx', enabled: false, batchSize: 50, remark: '待开通' });
  const page = await api.post<{ records: Row[] }>('/i18n/text/original/query/page', { languageId: 'de-DE', keyword: '翻译', current: 1, pageSize: 5 });
  const ids = page.records.slice(0, 3).map((r) => r.id);
  const { id } = await api.post<{ id: number }>('/i18n/text/original/completion', { languageId: 'de-DE', engineId, ids });
  for (let i = 0; i < 60; i++) {
    const job = await api.post<{ state: string }>('/i18n/text/original/completion/query/one', { id });
    if (job.state === 'done' || job.state === 'failed') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await api.post('/i18n/currency/add', { code: 'CHF', symbol: 'Fr.', name: '瑞士法郎', minorUnits: 2, enabled: true });
}

async function shot(page: Page, name: string, problems: string[], fullPage = true): Promise<void> {
  await settled(page, 500);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
  await page.screenshot({ path: shotPath(name), fullPage });
  log(`${name}.png`);
}

async function open(page: Page, base: string, route: string): Promise<void> {
  await page.goto(`${base}${route}`);
  await page.locator('main .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log(`${route}: no rows`));
}

const ROUTES = ['language', 'translation', 'engine', 'currency'] as const;

runScript(async () => {
  const peer = await startLibrePeer();
  const server = await startConsole({ SEED_DEMO: 'true', ...webDistEnv() });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  await prepare(api, peer.url);
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;

  await open(page, base, '/globalization/language');
  await shot(page, 'globalization-language', problems);

  await open(page, base, '/globalization/translation');
  await page.getByTestId('text-language').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '(de-DE)' }).first().click();
  await page.getByTestId('text-keyword').fill('翻译');
  await page.getByTestId('text-keyword').press('Enter');
  await page.getByTestId('state-machine').first().waitFor({ timeout: 30_000 }).catch(() => log('translation: no machine translated row'));
  await shot(page, 'globalization-translation', problems);
  const row = page.locator('main .ant-table-row').filter({ hasText: '$1' }).first();
  if (await row.count()) {
    await row.getByTestId('row-edit').click();
    await row.getByTestId('translation-input').fill('ohne Platzhalter');
    await row.getByTestId('translation-save').click();
    await row.getByTestId('translation-refusal').waitFor({ timeout: 30_000 }).catch(() => log('translation: no refusal'));
    await shot(page, 'globalization-translation-refused', problems);
  }
  await page.getByTestId('text-complete').click();
  await page.getByTestId('completion-engine').waitFor();
  await shot(page, 'globalization-translation-completion', problems, false);
  await page.keyboard.press('Escape');

  // The business data in German, filtered by one data field (the product models' names).
  await open(page, base, '/globalization/translation');
  await page.getByRole('tab', { name: '业务数据' }).click();
  await page.getByTestId('data-language').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '(de-DE)' }).first().click();
  await page.getByTestId('data-node').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '产品名称' }).first().click();
  await page.locator('main .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('business data: no rows'));
  await shot(page, 'globalization-translation-data', problems);

  await open(page, base, '/globalization/engine');
  await shot(page, 'globalization-engine', problems);
  await page.getByTestId('engine-supports').first().click();
  await page.getByTestId('supports-table').locator('.ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('engine: no pairs'));
  await shot(page, 'globalization-engine-supports', problems, false);
  await page.keyboard.press('Escape');

  await open(page, base, '/globalization/currency');
  await shot(page, 'globalization-currency', problems);

  // Translate mode in English: a click on a menu text opens its editor.
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await open(page, base, '/globalization/language');
  await page.getByTestId('translate-mode').click();
  await page.getByTestId('translate-mode-bar').waitFor({ timeout: 30_000 });
  await page.locator('.ess-sider .ant-menu-item').filter({ hasText: 'Currencies' }).first().click();
  await page.getByTestId('in-context-source').waitFor({ timeout: 30_000 }).catch(() => log('translate mode: no editor'));
  await shot(page, 'globalization-translate-mode', problems, false);
  await page.keyboard.press('Escape');
  await page.getByTestId('translate-mode-off').click();
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  await browser.close();

  // Each phone screen in a fresh session: one tab open, as a phone user has.
  for (const r of ROUTES) {
    const phone = await signedInPage(server, { width: 390, height: 844 });
    await open(phone.page, base, `/globalization/${r}`);
    await shot(phone.page, `globalization-${r}-phone`, problems);
    await phone.browser.close();
  }
  await server.close();
  await peer.close();
  if (problems.length) throw new Error(`axe:\n${problems.join('\n')}`);
});
