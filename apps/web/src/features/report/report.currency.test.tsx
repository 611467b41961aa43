import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import { currencySource } from '../../components/options/sites.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { priceTemplateResource } from '../pricing/template.resource.tsx';
import { ReportPage } from './ReportPage.tsx';

pageTests();

const currencies = [
  { id: 1, code: 'CNY', symbol: '¥', name: '人民币', minorUnits: 2, enabled: true, stations: 3, updatedAt: '2026-11-29T00:00:00.000Z' },
  { id: 9, code: 'CHF', symbol: 'Fr.', name: '瑞士法郎', minorUnits: 2, enabled: true, stations: 0, updatedAt: '2026-11-29T00:00:00.000Z' },
];

/** Currencies are chosen from /globalization/currency's enabled ones (issue 24), never from a list in the code. */
describe('where a currency is chosen', () => {
  it('report parameters: a template that reads a currency offers the enabled currencies of the currency list', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (path(c) === '/report/template/query/list') {
        return json(envelope([{ template: 'operations', name: '运营报表', params: ['granularity'] }, { template: 'revenue', name: '收益报表', params: ['granularity', 'currency'] }]));
      }
      if (path(c) === '/i18n/currency/query/list') return json(envelope(currencies));
      return json(envelope(path(c).endsWith('/page') ? { records: [], total: 0, current: 1, pageSize: 10 } : []));
    });
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><ReportPage /></QueryClientProvider>
      </App>,
    );
    await screen.findByTestId('report-template', {}, { timeout: 20_000 });
    // The operations report reads no currency: no select, no call.
    expect(screen.queryByTestId('report-currency')).toBeNull();
    expect(calls.some((c) => path(c) === '/i18n/currency/query/list')).toBe(false);
    fireEvent.mouseDown(screen.getByTestId('report-template').querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('收益报表'));
    const select = await screen.findByTestId('report-currency');
    await waitFor(() => expect(calls.filter((c) => path(c) === '/i18n/currency/query/list').map(body)).toEqual([{ enabled: true }]));
    fireEvent.mouseDown(select.querySelector('.ant-select-selector')!);
    expect(await screen.findByTitle('CHF Fr. 瑞士法郎')).toBeTruthy();
    expect(screen.getByTitle('CNY ¥ 人民币')).toBeTruthy();
    expect(screen.queryByTitle('USD')).toBeNull();
  });

  it('price templates: the form and the filter pick from the currency list', () => {
    expect(priceTemplateResource.form?.fields.find((f) => f.name === 'currency')).toMatchObject({ type: 'select', source: currencySource });
    expect(priceTemplateResource.filters?.find((f) => f.key === 'currency')).toMatchObject({ type: 'select', source: currencySource });
    expect(priceTemplateResource.form?.fields.find((f) => f.name === 'currency')).not.toHaveProperty('options');
  });
});
