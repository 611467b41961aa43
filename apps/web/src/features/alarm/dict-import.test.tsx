import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alarmEndpoints } from '@ess/contract/alarm';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, recordUi, type Call } from '../../test/http.ts';
import { AlarmDictPage } from './AlarmDictPage.tsx';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => {
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  // The import button shows only to a user the import call allows.
  useUserStore.setState({ permissions: new Set(Object.values(alarmEndpoints).map((e) => e.path)) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const path = (c: Call) => c.url.replace(/^\/api\/manager/, '').replace(/\?.*$/, '');
const TIP = '导入失败：第3行「产品编码」产品不存在（共2处错误）';
const errors = [
  { row: 3, column: '产品编码', message: '产品不存在' },
  { row: 7, column: '告警等级', message: '告警等级应为1-5' },
];

/** The dictionary's page and an import answered by `importReply`. */
function server(importReply: () => Response) {
  return mockFetch((c) => {
    const p = path(c);
    if (p === '/alarm/dict/query/page') return json(envelope({ records: [], total: 0, current: 1, pageSize: 10 }));
    if (p === '/alarm/dict/import') return importReply();
    return json(envelope([]));
  });
}

async function upload() {
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AlarmDictPage />
      </QueryClientProvider>
    </App>,
  );
  await screen.findByText('导入');
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'dict.xlsx')] } });
}

describe('alarm dictionary import', () => {
  it('shows the rows of a refused file: row, column and reason, and no toast', async () => {
    const ui = recordUi();
    const srv = server(() => json({ errorCode: 'A0406', tipMsg: TIP, errorMsg: JSON.stringify({ errors }), data: null }, 406));
    await upload();
    const table = await screen.findByTestId('import-errors');
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['3', '产品编码', '产品不存在'],
      ['7', '告警等级', '告警等级应为1-5'],
    ]);
    expect(screen.getByText(TIP)).toBeTruthy();
    expect(srv.calls.filter((c) => path(c) === '/alarm/dict/import')).toHaveLength(1);
    expect(ui.toasts).toEqual([]);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /^关\s?闭$/ }));
    await waitFor(() => expect(screen.queryByTestId('import-errors')).toBeNull());
  });

  it('keeps the toast of a failure without a report, and opens no report', async () => {
    const ui = recordUi();
    server(() => json({ errorCode: 'A0420', tipMsg: '上传文件必须是xlsx格式', errorMsg: '', data: null }, 406));
    await upload();
    await waitFor(() => expect(ui.toasts.map((x) => x.text)).toEqual(['上传文件必须是xlsx格式']));
    expect(screen.queryByTestId('import-errors')).toBeNull();
  });
});
