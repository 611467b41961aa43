import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { startLibrePeer } from './support/libre-peer.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

/**
 * Translation management in the console (issue 24), in English: a translation changed on
 * /globalization/translation shows in the console after a reload, without a rebuild (the pack is
 * served from the database); a translation that drops the source's `$1` is refused and the
 * refusal shown; a machine completion with a LibreTranslate peer started here marks the result
 * "machine translated", a review makes it reviewed, and German shows it; translate mode edits a
 * menu text in place; built-in data shows in English, and a renamed product model (a changed
 * source text of the business data) is counted changed by the refresh, shown outdated, machine
 * translated, reviewed and then shown in German. The four screens are axe clean.
 */

let server: Awaited<ReturnType<typeof startConsole>>;
let peer: Awaited<ReturnType<typeof startLibrePeer>>;
let browser: Browser;
let page: Page;
let api: ConsoleApi;

/** The row of the translation table (UI texts or business data) whose source is exactly `source`, found through the search box. */
async function rowOf(source: string, domain: 'text' | 'data' = 'text') {
  const search = page.getByTestId(`${domain}-keyword`);
  await search.fill(source);
  await search.press('Enter');
  const row = page.locator('main .ant-table-row').filter({ has: page.getByTestId('row-source').getByText(source, { exact: true }) }).first();
  await row.waitFor({ timeout: 30_000 });
  return row;
}

async function pickOption(testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

const pickLanguage = (code: string, domain: 'text' | 'data' = 'text') => pickOption(`${domain}-language`, `(${code})`);

/** Machine completion of the checked rows with the LibreTranslate peer, followed to its end, the dialog closed. */
async function completeChecked(domain: 'text' | 'data') {
  await page.getByTestId(`${domain}-complete`).click();
  await pickOption('completion-engine', 'E2E LibreTranslate');
  await page.getByTestId('completion-start').click();
  await page.locator('[data-testid=completion-progress][data-state=done]').waitFor({ timeout: 60_000 });
  await page.getByTestId('completion-start').click();
  await animationsSettled(page);
}

describe('translation management: edit, refusal, machine completion, review and translate mode, shown without a rebuild', () => {
  beforeAll(async () => {
    peer = await startLibrePeer();
    server = await startConsole({});
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    await api.post('/i18n/engine/add', { name: 'E2E LibreTranslate', kind: 'libre', endpoint: peer.url, enabled: true, batchSize: 20 });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.addInitScript(() => {
      if (!localStorage.getItem('e2e-locale-set')) {
        localStorage.setItem('locale', 'en-US');
        localStorage.setItem('e2e-locale-set', '1');
      }
    });
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await peer?.close();
  });

  it('refuses a translation without the source placeholder, shows why, and keeps the stored one', async () => {
    await page.goto(`${server.url}/globalization/translation`);
    const row = await rowOf('共 $1 条');
    const before = await row.getByTestId('row-translation').textContent();
    await row.getByTestId('row-edit').click();
    await row.getByTestId('translation-input').fill('items in all');
    await row.getByTestId('translation-save').click();
    const refusal = row.getByTestId('translation-refusal');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.textContent()).toContain('$1');
    await page.reload();
    const again = await rowOf('共 $1 条');
    expect(await again.getByTestId('row-translation').textContent()).toBe(before);
  });

  it('changes a menu text; after a reload the console shows it (the pack from the database)', async () => {
    await page.goto(`${server.url}/globalization/translation`);
    const row = await rowOf('币种管理');
    await row.getByTestId('row-edit').click();
    await row.getByTestId('translation-input').fill('Currency register');
    await row.getByTestId('translation-save-review').click();
    await row.getByTestId('state-reviewed').waitFor({ timeout: 30_000 });
    await page.reload();
    await page.locator('.ess-sider').getByText('Currency register', { exact: true }).waitFor({ timeout: 30_000 });
  });

  it('machine-completes a text in German with the engine, reviews it, and German shows it', async () => {
    await page.goto(`${server.url}/globalization/translation`);
    await pickLanguage('de-DE');
    const row = await rowOf('翻译引擎');
    await row.locator('.ant-checkbox-input').check();
    await completeChecked('text');
    expect(peer.requests.some((r) => r.target === 'de' && r.q.includes('翻译引擎'))).toBe(true);
    const done = await rowOf('翻译引擎');
    await done.getByTestId('state-machine').waitFor({ timeout: 30_000 });
    expect(await done.getByTestId('row-translation').textContent()).toBe('[de] 翻译引擎');
    await done.getByTestId('row-review').click();
    await done.getByTestId('state-reviewed').waitFor({ timeout: 30_000 });
    await page.evaluate(() => localStorage.setItem('locale', 'de-DE'));
    await page.reload();
    await page.locator('.ess-sider').getByText('[de] 翻译引擎', { exact: true }).waitFor({ timeout: 30_000 });
    await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
    await page.reload();
  });

  it('built-in data in English; a renamed product model: refresh counts it changed, German shows it outdated, machine completion and review show the new name in German without a rebuild', async () => {
    // Built-in data (product models, roles) shows translated in en-US from the first start.
    await page.goto(`${server.url}/product/management`);
    await page.locator('main').getByText('Air conditioner standard model', { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.goto(`${server.url}/system/role`);
    await page.locator('main').getByText('Maintenance staff', { exact: true }).first().waitFor({ timeout: 30_000 });

    // The source text changes: the model is renamed (its German translation was made from the old name).
    const products = await api.post<{ id: number; code: string; name: string; type: string; description: string | null }[]>('/configure/product/query/list', {});
    const ac = products.find((p) => p.name === '空调标准模型')!;
    await api.post('/configure/product/edit', { id: ac.id, code: ac.code, name: '空调柜标准模型', type: ac.type, description: ac.description });

    await page.goto(`${server.url}/globalization/translation`);
    await page.getByRole('tab', { name: 'Business data' }).click();
    await pickLanguage('de-DE', 'data');
    await pickOption('data-node', 'Product name');
    await page.getByTestId('data-refresh').click();
    await page.locator('.ant-message').getByText(/Refreshed: \d+ added, 1 changed,/).waitFor({ timeout: 30_000 });
    const outdated = await rowOf('空调柜标准模型', 'data');
    await outdated.getByTestId('state-outdated').waitFor({ timeout: 30_000 });
    expect(await outdated.getByTestId('row-translation').textContent()).toBe('Klimagerät Standardmodell');
    // The field filter: only product names are listed.
    await page.getByTestId('data-keyword').fill('');
    await page.getByTestId('data-keyword').press('Enter');
    await page.locator('main .ant-table-row').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('main .ant-table-row').filter({ hasNotText: 'Product name' }).count()).toBe(0);

    const row = await rowOf('空调柜标准模型', 'data');
    await row.locator('.ant-checkbox-input').check();
    await completeChecked('data');
    expect(peer.requests.some((r) => r.target === 'de' && r.q.includes('空调柜标准模型'))).toBe(true);
    const done = await rowOf('空调柜标准模型', 'data');
    await done.getByTestId('state-machine').waitFor({ timeout: 30_000 });
    expect(await done.getByTestId('row-translation').textContent()).toBe('[de] 空调柜标准模型');
    await done.getByTestId('row-review').click();
    await done.getByTestId('state-reviewed').waitFor({ timeout: 30_000 });

    // The console in German shows the new name's translation (the same build, the answers translated by the server).
    await page.evaluate(() => localStorage.setItem('locale', 'de-DE'));
    await page.goto(`${server.url}/product/management`);
    await page.locator('main').getByText('[de] 空调柜标准模型', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await page.locator('main').getByText('Klimagerät Standardmodell', { exact: true }).count()).toBe(0);
    await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
    await page.reload();
  });

  it('translate mode: a click on a menu text opens its translation, saving shows it at once', async () => {
    await page.goto(`${server.url}/globalization/language`);
    await page.getByTestId('translate-mode').click();
    await page.getByTestId('translate-mode-bar').waitFor();
    await page.locator('.ess-sider').getByText('Currency register', { exact: true }).click();
    const editor = page.getByTestId('in-context-editor');
    await editor.getByTestId('in-context-source').waitFor({ timeout: 30_000 });
    expect(await editor.getByTestId('in-context-source').textContent()).toBe('币种管理');
    await editor.getByTestId('state-reviewed').waitFor();
    await editor.getByTestId('translation-input').fill('Currencies (edited in place)');
    await editor.getByTestId('translation-save').click();
    await page.locator('.ess-sider').getByText('Currencies (edited in place)', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByTestId('translate-mode-off').click();
    await page.getByTestId('translate-mode-bar').waitFor({ state: 'detached' });
  });

  it('the four screens are axe clean', async () => {
    for (const route of ['/globalization/language', '/globalization/translation', '/globalization/engine', '/globalization/currency']) {
      await page.goto(`${server.url}${route}`);
      await page.locator('main .ant-table-row').first().waitFor({ timeout: 30_000 });
      await animationsSettled(page);
      expect({ route, violations: await seriousViolations(page) }).toEqual({ route, violations: [] });
    }
  });
});
