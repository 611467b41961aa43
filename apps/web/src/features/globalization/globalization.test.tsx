import { i18nEndpoints, type CompletionCounts, type LanguageRecord, type OriginalRecord } from '@ess/contract/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { formatMoney, minorUnitsOf, rememberCurrencies } from '../../components/number-format.ts';
import { forgetPacks } from '../../platform/i18n/language.ts';
import { seenSources, setTranslateMode, useTranslateMode } from '../../platform/i18n/translate-mode.ts';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { CurrencyPage } from './CurrencyPage.tsx';
import { engineBody } from './engine.resource.tsx';
import { LanguagePage } from './LanguagePage.tsx';
import { problemText } from './parts.tsx';
import { sourceOfShown } from './translate-mode.match.ts';
import TranslateMode from './TranslateMode.tsx';
import { TranslationPage } from './TranslationPage.tsx';

pageTests();

const page = (records: unknown[]) => ({ records, total: records.length, current: 1, pageSize: 20 });
const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p);
const allowAll = () => useUserStore.setState({ permissions: new Set(Object.values(i18nEndpoints).map((e) => e.path)) });
const tt = (s: string, ...args: unknown[]) => args.reduce<string>((out, a, i) => out.replace(`$${i + 1}`, String(a)), s);

type Answer = (c: Call) => unknown;
function serve(answers: Record<string, Answer>) {
  return mockFetch((c) => {
    const a = answers[path(c)];
    const out = a ? a(c) : page([]);
    return out instanceof Response ? out : json(envelope(out));
  });
}
const refuse = (tip: string, status = 400, errorMsg = '') => json({ ...envelope(null, status === 406 ? 'A0406' : 'A0400', tip), errorMsg }, status);

function renderPage(node: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const counts = (c: Partial<CompletionCounts>): CompletionCounts => ({ total: 0, untranslated: 0, machine: 0, translated: 0, reviewed: 0, outdated: 0, percent: 0, ...c });
const language = (code: string, id: number, extra: Partial<LanguageRecord> = {}): LanguageRecord => ({
  id, code, name: code, nativeName: code === 'en-US' ? 'English' : code, direction: 'ltr', uiLocale: code.replace('-', '_'), dateFormat: 'YYYY-MM-DD', numberLocale: code,
  enabled: true, builtIn: true, isSource: code === 'zh-CN', sort: id, text: counts({ total: 200, reviewed: 150, translated: 10, machine: 20, outdated: 5, untranslated: 15, percent: 80 }),
  data: counts({ total: 10, untranslated: 10 }), updatedAt: '2026-11-29T00:00:00.000Z', ...extra,
});
const original = (extra: Partial<OriginalRecord> = {}): OriginalRecord => ({
  id: 7, source: '共 $1 条', context: 'shell', nodeId: null, nodeName: null, recordId: null, obsolete: false, maxLength: null, languageId: 'en-US',
  translation: null, state: 'untranslated', engineName: null, translatedAt: null, sourceChangedAt: '2026-11-29T00:00:00.000Z', ...extra,
});

describe('the checks and the translate mode lookup', () => {
  it('names a missing placeholder through the pack with the placeholder as its value', () => {
    expect(problemText('译文缺少占位符 $2', tt)).toBe('译文缺少占位符 $2');
    const en = (s: string, ...a: unknown[]) => tt(s === '译文缺少占位符 $1' ? 'Missing placeholder $1' : s, ...a);
    expect(problemText('译文缺少占位符 $2', en)).toBe('Missing placeholder $2');
  });

  it('finds the source of a shown text: exact first, then a text with its placeholders filled', () => {
    const pack = new Map([['保存', 'Save'], ['共 $1 条', '$1 items in all'], ['存', 'Save']]);
    expect(sourceOfShown('Save', ['保存', '共 $1 条'], pack)).toBe('保存');
    expect(sourceOfShown(' 12 items in all ', ['保存', '共 $1 条'], pack)).toBe('共 $1 条');
    expect(sourceOfShown('取消', ['取消'], pack)).toBe('取消');
    expect(sourceOfShown('Station 3', ['保存', '共 $1 条'], pack)).toBeNull();
  });

  it('shows money to the currency minor units: the installation first, else ISO 4217', () => {
    useI18nStore.setState({ locale: 'en-US' });
    expect(formatMoney(1234.5, 'CNY')).toBe('1,234.50 CNY');
    expect(formatMoney(1234.5, 'JPY')).toBe('1,235 JPY');
    expect(formatMoney(1.5, 'KWD')).toBe('1.500 KWD');
    rememberCurrencies([{ code: 'XTS', minorUnits: 4 }]);
    expect(minorUnitsOf('XTS')).toBe(4);
    expect(formatMoney(null, 'CNY')).toBe('-');
  });

  it('sends an engine key only when one is typed (edit keeps the stored key) and an app id only for Baidu', () => {
    const optionals = [
      { kind: 'baidu' as const, name: 'Baidu', defaultEndpoint: 'https://fanyi-api.baidu.com', needsAppId: true, keyOptional: false, docs: '' },
      { kind: 'libre' as const, name: 'Libre', defaultEndpoint: 'https://libretranslate.com', needsAppId: false, keyOptional: true, docs: '' },
    ];
    const to = engineBody(optionals);
    const base = { name: 'E', enabled: true, batchSize: 20 };
    expect(to({ ...base, kind: 'libre', appId: 'x', apiKey: '' }, 'edit', 3)).toEqual({ id: 3, ...base, kind: 'libre', endpoint: null, appId: null, remark: null });
    expect(to({ ...base, kind: 'baidu', appId: 'app', apiKey: 'k' }, 'add')).toMatchObject({ appId: 'app', apiKey: 'k' });
  });
});

describe('the language screen', () => {
  it('lists the languages with their completion per state and switches one off', async () => {
    allowAll();
    const { calls } = serve({ [i18nEndpoints.languagePage.path]: () => page([language('zh-CN', 1), language('en-US', 2)]) });
    renderPage(<LanguagePage />);
    const cell = await screen.findByTestId('completion-text-en-US', {}, { timeout: 20_000 });
    expect(cell.textContent).toContain('80%');
    expect(within(cell).getByTestId('completion-text-en-US-untranslated').textContent).toBe('未翻译 15');
    expect(within(cell).getByTestId('completion-text-en-US-outdated').textContent).toBe('待更新 5');
    // The source language cannot be switched off.
    expect(screen.queryByTestId('language-enabled-zh-CN')).toBeNull();
    fireEvent.click(screen.getByTestId('language-enabled-en-US'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.languageEdit.path)).toHaveLength(1));
    expect(body(callsTo(calls, i18nEndpoints.languageEdit.path)[0]!)).toMatchObject({ id: 2, enabled: false, name: 'en-US', dateFormat: 'YYYY-MM-DD' });
    // The translate mode switch.
    fireEvent.click(screen.getByTestId('translate-mode'));
    expect(useTranslateMode.getState().on).toBe(true);
    setTranslateMode(false);
  });
});

describe('the translation screen', () => {
  const languages = () => [language('zh-CN', 1), language('en-US', 2), language('de-DE', 3)];

  it('edits a translation in place: the checks as it is typed, the server refusal shown, then saved', async () => {
    allowAll();
    let refuseNext = true;
    const { calls } = serve({
      [i18nEndpoints.languageList.path]: languages,
      [i18nEndpoints.textPage.path]: () => page([original()]),
      [i18nEndpoints.textEdit.path]: () => (refuseNext ? ((refuseNext = false), refuse('译文缺少占位符 $1')) : null),
    });
    renderPage(<TranslationPage />);
    const row = (await screen.findByText('共 $1 条', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByTestId('state-untranslated')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('row-edit'));
    const input = await screen.findByTestId('translation-input');
    fireEvent.change(input, { target: { value: 'items in all' } });
    expect(screen.getByTestId('translation-problems').textContent).toContain('译文缺少占位符 $1');
    fireEvent.click(screen.getByTestId('translation-save'));
    expect((await screen.findByTestId('translation-refusal')).textContent).toContain('译文缺少占位符 $1');
    expect(body(callsTo(calls, i18nEndpoints.textEdit.path)[0]!)).toEqual({ id: 7, languageId: 'en-US', translation: 'items in all', reviewed: false });
    fireEvent.change(input, { target: { value: '$1 items in all' } });
    expect(screen.queryByTestId('translation-problems')).toBeNull();
    fireEvent.click(screen.getByTestId('translation-save-review'));
    await waitFor(() => expect(screen.queryByTestId('translation-editor')).toBeNull());
    expect(body(callsTo(calls, i18nEndpoints.textEdit.path)[1]!)).toEqual({ id: 7, languageId: 'en-US', translation: '$1 items in all', reviewed: true });
  });

  it('filters by language, state and text; shows the refresh tip before refreshing', async () => {
    allowAll();
    const { calls } = serve({
      [i18nEndpoints.languageList.path]: languages,
      [i18nEndpoints.textPage.path]: () => page([original({ translation: '$1 in all', state: 'machine', engineName: 'LibreTranslate' })]),
      [i18nEndpoints.textTip.path]: () => ({ added: 3, changed: 2, removed: 1, lastRefreshAt: null }),
      [i18nEndpoints.textRefresh.path]: () => ({ added: 3, changed: 2, obsoleted: 1, restored: 0, total: 900 }),
    });
    renderPage(<TranslationPage />);
    const row = (await screen.findByText('$1 in all', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByTestId('state-machine')).toBeTruthy();
    expect(within(row).getByText('LibreTranslate')).toBeTruthy();
    const search = screen.getByTestId('text-keyword');
    const box = search.tagName === 'INPUT' ? search : search.querySelector('input')!;
    fireEvent.change(box, { target: { value: '条' } });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.textPage.path).map(body).at(-1)).toMatchObject({ languageId: 'en-US', keyword: '条', current: 1 }));
    fireEvent.click(screen.getByTestId('text-refresh'));
    await waitFor(() => expect(screen.getByTestId('refresh-tip').textContent).toContain('新增 3，变更 2，移除 1'));
    expect(screen.getByTestId('refresh-tip').textContent).toContain('从未');
    // Review a machine translation.
    fireEvent.click(within(row).getByTestId('row-review'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.textEdit.path)).toHaveLength(1));
    expect(body(callsTo(calls, i18nEndpoints.textEdit.path)[0]!)).toMatchObject({ translation: '$1 in all', reviewed: true });
  });

  it('filters the business data by data field (text node), with the other filters', async () => {
    allowAll();
    const node = { id: 3, field: 'role.name', fieldName: '角色名称', name: '角色名称', enabled: true, remark: null, originals: 4, updatedAt: '2026-11-29T00:00:00.000Z' };
    const { calls } = serve({
      [i18nEndpoints.languageList.path]: languages,
      [i18nEndpoints.nodeList.path]: () => [node, { ...node, id: 4, field: 'product.name', fieldName: '产品名称', name: '产品名称' }],
      [i18nEndpoints.dataPage.path]: () => page([original({ id: 11, source: '运维人员', context: 'role.name', nodeId: 3, nodeName: '角色名称', recordId: 2 })]),
    });
    renderPage(<TranslationPage />);
    fireEvent.click(await screen.findByText('业务数据', {}, { timeout: 20_000 }));
    await screen.findByText('运维人员', {}, { timeout: 20_000 });
    expect(callsTo(calls, i18nEndpoints.dataPage.path).map(body)[0]).not.toHaveProperty('nodeId');
    const picker = screen.getByTestId('data-node');
    fireEvent.mouseDown(picker.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('角色名称'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.dataPage.path).map(body).at(-1)).toMatchObject({ languageId: 'en-US', nodeId: 3, current: 1 }));
    fireEvent.mouseDown(screen.getByTestId('data-state').querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('待更新'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.dataPage.path).map(body).at(-1)).toMatchObject({ nodeId: 3, state: 'outdated' }));
  });

  it('shows an import refusal naming the row, and follows a machine completion to its end', async () => {
    allowAll();
    let polls = 0;
    const job = (state: string, done: number) => ({ id: 5, domain: 'text', languageId: 'en-US', engineId: 1, engineName: 'Libre', state, total: 4, done, failed: 0, error: null, createdAt: '2026-11-29T00:00:00.000Z', finishedAt: null });
    const { calls } = serve({
      [i18nEndpoints.languageList.path]: languages,
      [i18nEndpoints.textPage.path]: () => page([original()]),
      [i18nEndpoints.textImport.path]: () => refuse('第 3 行：译文缺少占位符 $1', 406, JSON.stringify({ errors: [{ row: 3, column: '译文', message: '译文缺少占位符 $1' }] })),
      [i18nEndpoints.engineList.path]: () => [{ id: 1, name: 'Libre', kind: 'libre' }],
      [i18nEndpoints.textCompletion.path]: () => ({ id: 5 }),
      [i18nEndpoints.textCompletionOne.path]: () => (++polls < 2 ? job('running', 2) : job('done', 4)),
    });
    renderPage(<TranslationPage />);
    await screen.findByText('共 $1 条', {}, { timeout: 20_000 });
    const file = new File(['x'], 'en.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const picker = screen.getByTestId('text-import').closest('.ant-upload')!.querySelector('input[type=file]')!;
    act(() => {
      fireEvent.change(picker, { target: { files: [file] } });
    });
    const report = await screen.findByTestId('import-errors');
    expect(within(report).getByText('3')).toBeTruthy();
    expect((callsTo(calls, i18nEndpoints.textImport.path)[0]!.init.body as FormData).get('languageId')).toBe('en-US');
    fireEvent.click(within(report.closest<HTMLElement>('.ant-modal')!).getByRole('button', { name: /关\s*闭/ }));

    fireEvent.click(screen.getByTestId('text-complete'));
    const engine = await screen.findByTestId('completion-engine');
    fireEvent.mouseDown(engine.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('Libre'));
    fireEvent.click(screen.getByTestId('completion-start'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.textCompletion.path)).toHaveLength(1));
    expect(body(callsTo(calls, i18nEndpoints.textCompletion.path)[0]!)).toEqual({ languageId: 'en-US', engineId: 1, ids: [] });
    await waitFor(() => expect(screen.getByTestId('completion-progress').getAttribute('data-state')).toBe('done'), { timeout: 10_000 });
    expect(screen.getByTestId('completion-progress').textContent).toContain('已翻译 4 / 4，失败 0');
  });
});

describe('the currency screen', () => {
  it('shows each currency with an amount to its minor units', async () => {
    allowAll();
    serve({
      [i18nEndpoints.currencyPage.path]: () => page([
        { id: 1, code: 'JPY', symbol: '¥', name: '日元', minorUnits: 0, enabled: true, stations: 0, updatedAt: '2026-11-29T00:00:00.000Z' },
        { id: 2, code: 'KWD', symbol: 'د.ك', name: '科威特第纳尔', minorUnits: 3, enabled: true, stations: 2, updatedAt: '2026-11-29T00:00:00.000Z' },
      ]),
    });
    renderPage(<CurrencyPage />);
    expect(await screen.findByText('1,235 JPY', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText('1,234.500 KWD')).toBeTruthy();
  });
});

function Texts() {
  const t = useT();
  return (
    <div>
      <button type="button">{t('保存')}</button>
      <span>{t('共 $1 条', 12)}</span>
    </div>
  );
}

describe('translate mode', () => {
  it('opens a clicked text in the editor, saves through the edit call and reloads the pack', async () => {
    allowAll();
    forgetPacks();
    useI18nStore.setState({ locale: 'en-US', pack: new Map([['保存', 'Save']]) });
    setTranslateMode(true);
    let packs = 0;
    const { calls } = serve({
      [i18nEndpoints.textPage.path]: (c) => page([original({ id: 9, source: String(body(c).keyword), translation: 'Save', state: 'reviewed' })]),
      [i18nEndpoints.textEdit.path]: () => null,
      [i18nEndpoints.pack.path]: () => (++packs, [{ source: '保存', translation: 'Store' }]),
    });
    renderPage(
      <>
        <Texts />
        <TranslateMode />
      </>,
    );
    expect(seenSources.has('保存')).toBe(true);
    fireEvent.click(screen.getByText('Save'));
    expect((await screen.findByTestId('in-context-source')).textContent).toBe('保存');
    expect(screen.getByTestId('state-reviewed')).toBeTruthy();
    expect(body(callsTo(calls, i18nEndpoints.textPage.path)[0]!)).toMatchObject({ languageId: 'en-US', keyword: '保存' });
    fireEvent.change(screen.getByTestId('translation-input'), { target: { value: 'Store' } });
    fireEvent.click(screen.getByTestId('translation-save'));
    await waitFor(() => expect(screen.getByText('Store')).toBeTruthy());
    expect(body(callsTo(calls, i18nEndpoints.textEdit.path)[0]!)).toEqual({ id: 9, languageId: 'en-US', translation: 'Store', reviewed: false });
    expect(packs).toBe(1);
    // A filled text is traced to its source too; the bar turns the mode off.
    fireEvent.click(screen.getByText('共 12 条'));
    await waitFor(() => expect(callsTo(calls, i18nEndpoints.textPage.path).map(body).at(-1)).toMatchObject({ keyword: '共 $1 条' }));
    fireEvent.click(screen.getByTestId('translate-mode-off'));
    expect(useTranslateMode.getState().on).toBe(false);
  });
});
