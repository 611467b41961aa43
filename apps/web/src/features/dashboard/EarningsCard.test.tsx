import type { RevenueEnergy, RevenueMoney, SiteEarnings } from '@ess/contract/dashboard';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { EarningsCard } from './EarningsCard.tsx';

const zeroPeriods = { tip: 0, peak: 0, flat: 0, valley: 0, deepValley: 0 };
const part = (money: Partial<RevenueMoney>, energy: Partial<RevenueEnergy> = {}): RevenueMoney & RevenueEnergy => ({
  currency: 'EUR', arbitrage: 0, chargeCost: 0, dischargeIncome: 0, pvRevenue: 0, chargingRevenue: 0, total: 0,
  charge: 0, discharge: 0, chargeByPeriod: zeroPeriods, dischargeByPeriod: zeroPeriods, pv: null, pvSelfUsed: null, pvExported: null, piles: null, cycles: null, efficiency: null,
  ...money, ...energy,
});
const earnings = (over: Partial<SiteEarnings>): SiteEarnings => ({
  siteId: 2, date: '2026-03-02', timeZone: 'Europe/Berlin', currency: 'EUR',
  day: part({}), month: part({}), year: part({}), total: part({}), computedAt: null, pricesComplete: true, ...over,
});
const subsystems = { storage: true, pv: true, pvCoupling: 'dc' as const, charging: false, transformer: true, mainMeter: true };

function show(e: SiteEarnings) {
  mockFetch((call) => json(envelope(call.url.includes('/earnings/chart')
    ? { siteId: 2, type: 'month', date: e.date, timeZone: e.timeZone, currency: e.currency, labels: ['03-01', '03-02'], arbitrage: [1, 2], pvRevenue: [0, 1], chargingRevenue: [0, 0], total: [1, 3], charge: [5, 5], discharge: [4, 4] }
    : e)));
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <EarningsCard siteId={2} subsystems={subsystems} />
      </App>
    </QueryClientProvider>,
  );
}

describe('station earnings card', () => {
  afterEach(cleanup);

  it('shows money in the station’s currency, PV but no charging row, and warns of missing prices', async () => {
    show(earnings({
      computedAt: '2026-03-02T10:00:00.000Z', pricesComplete: false,
      day: part({ total: 12.5, arbitrage: 10, pvRevenue: 2.5, chargeCost: 3, dischargeIncome: 13 }, { charge: 30, discharge: 27, cycles: 0.4, efficiency: 90 }),
      total: part({ total: 1234.56, arbitrage: 1000, pvRevenue: 234.56 }),
    }));
    const table = await screen.findByTestId('earnings-table');
    expect(within(table).getByText('光伏收益')).toBeTruthy();
    expect(within(table).queryByText('充电收益')).toBeNull();
    expect(within(table).getByText('1,234.56 EUR')).toBeTruthy();
    expect(screen.getByTestId('earnings-today').textContent).toContain('12.50 EUR');
    expect(screen.getByText('30 kWh')).toBeTruthy();
    expect(screen.getByTestId('earnings-prices-missing')).toBeTruthy();
  });

  it('says why there is nothing when revenue was never computed', async () => {
    show(earnings({}));
    expect((await screen.findByTestId('earnings-empty')).textContent).toContain('需要站点的电价');
  });
});
