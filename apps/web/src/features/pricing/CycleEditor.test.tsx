import type { PriceCycleRecord } from '@ess/contract/pricing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { CycleEditor } from './CycleEditor.tsx';

vi.setConfig({ testTimeout: 20_000 });
afterEach(cleanup);

const summer: PriceCycleRecord = {
  id: 3, templateId: 9, name: '夏季', months: [6, 7, 8], periods: [{ start: '00:00', end: '24:00', period: 'flat' }],
  tipPrice: null, peakPrice: null, flatPrice: 0.6, valleyPrice: null, deepValleyPrice: null, demandPrice: 38, capacityPrice: null, createdAt: '', updatedAt: '',
};

function open(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <CycleEditor templateId={9} billingSystem="twoPart" currency="CNY" cycle={null} others={[summer]} onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
  return { onClose };
}
const issues = () => [...(screen.queryByTestId('cycle-issues')?.querySelectorAll('li') ?? [])].map((li) => li.textContent);

describe('cycle editor', () => {
  it('shows what blocks saving, lets a person fix it, splits a band, and sends the cycle', async () => {
    const { calls } = mockFetch(() => json(envelope({ ids: [11] })));
    const { onClose } = open();
    // The summer cycle's months are taken; the rest are chosen for the new cycle.
    // dayjs names the months in the console's language (English in this test).
    const june = screen.getByRole('checkbox', { name: 'Jun' });
    expect((june as HTMLInputElement).disabled).toBe(true);
    expect(issues()).toEqual(['周期名称不能为空', '平时段未设置电价', '两部制电价需设置需量电价或容量电价']);

    fireEvent.change(screen.getByLabelText('周期名称'), { target: { value: '非夏季' } });
    fireEvent.change(screen.getByLabelText('平时段电价'), { target: { value: '0.65' } });
    fireEvent.change(screen.getByLabelText('需量电价'), { target: { value: '40.8' } });
    expect(issues()).toEqual([]);

    // Split the whole-day band: two flat halves, still one period when sent.
    fireEvent.click(within(screen.getByTestId('band-0')).getByRole('button', { name: /拆分/ }));
    expect(screen.getByTestId('band-1')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      '00:00–12:00 平 0.65 CNY/kWh',
      '12:00–24:00 平 0.65 CNY/kWh',
    ]);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = calls.find((c) => c.url.endsWith('/operation/price/cycle/add/batch'))!;
    expect(JSON.parse(sent.init.body as string)).toEqual({
      templateId: 9,
      cycles: [{
        name: '非夏季', months: [1, 2, 3, 4, 5, 9, 10, 11, 12], periods: [{ start: '00:00', end: '24:00', period: 'flat' }],
        tipPrice: null, peakPrice: null, flatPrice: 0.65, valleyPrice: null, deepValleyPrice: null, demandPrice: 40.8, capacityPrice: null,
      }],
    });
  });

  it('does not send a cycle the rules refuse', async () => {
    const { calls } = mockFetch(() => json(envelope(null)));
    open();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await act(() => Promise.resolve());
    expect(calls).toEqual([]);
    expect(screen.getByTestId('cycle-issues').className).toContain('ant-alert-error');
  });
});
