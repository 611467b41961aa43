import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { liveEvents } from '../../platform/live-events.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { MessageNotificationPage } from './MessageNotificationPage.tsx';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

interface Note {
  id: number;
  title: string;
  content: string;
  read: boolean;
  readAt: string | null;
  createdAt: string;
  settingId: number;
}

const path = (c: Call) => c.url.replace(/^\/api\/manager/, '');
const body = (c: Call) => JSON.parse(c.init.body as string) as Record<string, unknown>;

/** The inbox of one user, marking read like the server does. */
function inbox() {
  const notes: Note[] = [
    { id: 1, settingId: 1, title: '系统维护通知', content: '周六 02:00 维护', read: false, readAt: null, createdAt: '2026-01-02T00:00:00Z' },
    { id: 2, settingId: 2, title: '月度报表已生成', content: '请查看', read: true, readAt: '2026-01-01T01:00:00Z', createdAt: '2026-01-01T00:00:00Z' },
  ];
  const mock = mockFetch((c) => {
    const p = path(c);
    if (p === '/system/notification/query/page') {
      const b = body(c) as { read?: boolean };
      const records = notes.filter((n) => b.read === undefined || n.read === b.read);
      return json(envelope({ records, total: records.length, current: 1, pageSize: 10 }));
    }
    if (p === '/system/notification/query/one') return json(envelope(notes.find((n) => n.id === body(c).id)));
    if (p === '/system/notification/read') {
      const b = body(c) as { ids?: number[]; all?: boolean };
      for (const n of notes) if (b.all || b.ids?.includes(n.id)) n.read = true;
      return json(envelope({ updated: 1, unread: notes.filter((n) => !n.read).length }));
    }
    return json(envelope(null, 'A0404', '不存在'), 404);
  });
  return { notes, ...mock };
}

const mount = () =>
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MessageNotificationPage />
      </QueryClientProvider>
    </App>,
  );

const pages = (calls: Call[]) => calls.filter((c) => path(c) === '/system/notification/query/page').length;
const reads = (calls: Call[]) => calls.filter((c) => path(c) === '/system/notification/read').map(body);

describe('own notifications (/system/messageNotification)', () => {
  it('opening an unread notification marks it read; a read one is not marked again', async () => {
    const { calls } = inbox();
    mount();
    await screen.findByText('系统维护通知');
    expect(screen.getAllByText('未读')).toHaveLength(1);
    fireEvent.click(screen.getAllByRole('button', { name: /详\s*情/ })[0]!);
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [1] }]));
    await waitFor(() => expect(screen.queryAllByText('未读').filter((e) => e.closest('.ant-table-row'))).toHaveLength(0));
    fireEvent.click(screen.getAllByRole('button', { name: /详\s*情/ })[1]!);
    await screen.findByText('通知详情');
    expect(reads(calls)).toHaveLength(1);
  });

  it('marks ticked ones, or all, read', async () => {
    const { calls } = inbox();
    mount();
    await screen.findByText('系统维护通知');
    const markTicked = screen.getByRole('button', { name: /标记已读/ });
    expect(markTicked.hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getAllByRole('checkbox')[1]!);
    await waitFor(() => expect(screen.getByRole('button', { name: /标记已读/ }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: /标记已读/ }));
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [1] }]));
    fireEvent.click(screen.getByRole('button', { name: /全部已读/ }));
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: [1] }, { all: true }]));
    expect(await screen.findByText('已全部标记为已读')).toBeTruthy();
  });

  it('a pushed notification (PopupWindow) refreshes the list without a reload', async () => {
    const { calls, notes } = inbox();
    mount();
    await screen.findByText('系统维护通知');
    const before = pages(calls);
    notes.unshift({ id: 3, settingId: 3, title: '储能柜温度过高', content: '1号柜 55℃', read: false, readAt: null, createdAt: '2026-01-03T00:00:00Z' });
    act(() => liveEvents.deliver({ event: 'PopupWindow', data: JSON.stringify({ id: 3, title: '储能柜温度过高', content: '1号柜 55℃', createdAt: '2026-01-03T00:00:00Z' }), id: '1' }));
    expect(await screen.findByText('储能柜温度过高')).toBeTruthy();
    expect(pages(calls)).toBeGreaterThan(before);
  });
});
