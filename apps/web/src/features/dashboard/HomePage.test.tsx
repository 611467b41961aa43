import type { HomeIncome, RevenueMoney } from '@ess/contract/dashboard';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { IncomeCard, openingCurrency } from './HomePage.tsx';

const money = (currency: string, total = 0): RevenueMoney => ({
  currency, arbitrage: total, chargeCost: 0, dischargeIncome: total, pvRevenue: 0, chargingRevenue: 0, total,
});
const currency = (c: string, stationCount: number, total: number, missingPrices: HomeIncome['currencies'][number]['missingPrices'] = []): HomeIncome['currencies'][number] => ({
  currency: c, stationCount, missingPrices, today: money(c), month: money(c, total), year: money(c, total), total: money(c, total), days: [], months: [],
});

function show(income: HomeIncome) {
  mockFetch((call) => json(envelope(call.url.includes('/home/page/income') ? income : null)));
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>
          <IncomeCard companyId={1} />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('home page revenue card', () => {
  afterEach(cleanup);

  it('opens on the currency with the most stations in scope, not the first listed (a CNY station without price showing 0.00)', async () => {
    show({
      companyId: 1,
      currencies: [
        currency('CNY', 1, 0),
        currency('EUR', 2, 1234.5, [{ siteId: 3, siteName: '柏林光储电站', days: 4 }]),
        currency('USD', 1, 99),
      ],
    });
    const table = await screen.findByTestId('income-table');
    expect(await within(table).findByText('收益（EUR）')).toBeTruthy();
    expect(within(table).getAllByText('1,234.50 EUR').length).toBeGreaterThan(0);
    // It says which station has days without a price, and for how many days.
    const note = screen.getByTestId('income-prices-missing');
    expect(note.textContent).toContain('部分日期或时段未配置电价');
    expect(note.textContent).toContain('柏林光储电站: 4天');
  });

  it('shows no note when every day of the currency had its prices', async () => {
    show({ companyId: 1, currencies: [currency('CNY', 3, 10), currency('EUR', 1, 5, [{ siteId: 3, siteName: 'B', days: 1 }])] });
    const table = await screen.findByTestId('income-table');
    expect(await within(table).findByText('收益（CNY）')).toBeTruthy();
    expect(screen.queryByTestId('income-prices-missing')).toBeNull();
  });

  it('picks the opening currency by station count, the first of equals', () => {
    expect(openingCurrency([currency('CNY', 1, 0), currency('EUR', 2, 1), currency('USD', 2, 5)])?.currency).toBe('EUR');
    expect(openingCurrency([currency('CNY', 1, 0), currency('EUR', 1, 1)])?.currency).toBe('CNY');
    expect(openingCurrency([])).toBeUndefined();
  });
});
