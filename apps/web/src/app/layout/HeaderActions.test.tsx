import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { liveEvents } from '../../platform/live-events.ts';
import { PopupNotices, UnreadBell } from './HeaderActions.tsx';

afterEach(cleanup);

const mount = () =>
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <UnreadBell />
          <PopupNotices />
        </MemoryRouter>
      </QueryClientProvider>
    </App>,
  );

const badge = () => document.querySelector('[data-testid=unread-bell] .ant-scroll-number')?.getAttribute('title');

describe('unread badge and popups fed by live events (§4)', () => {
  it('starts from the unread count and follows Unread events', async () => {
    const { calls } = mockFetch(() => json(envelope({ unread: 2, total: 9 })));
    mount();
    await waitFor(() => expect(badge()).toBe('2'));
    expect(calls[0]!.url).toBe('/api/manager/system/notification/query/count');
    act(() => liveEvents.deliver({ event: 'Unread', data: '{"count":5}', id: '1' }));
    await waitFor(() => expect(badge()).toBe('5'));
  });

  it('names the bell with the number the badge shows, 99+ past 99', async () => {
    mockFetch(() => json(envelope({ unread: 210, total: 300 })));
    mount();
    expect(await screen.findByRole('button', { name: '消息通知：99+ 条未读' })).toBeTruthy();
    expect(document.querySelector('[data-testid=unread-bell] .ant-scroll-number')?.textContent).toBe('99+');
  });

  it('shows a PopupWindow event as a notice that stays open', async () => {
    mockFetch(() => json(envelope({ unread: 0, total: 0 })));
    mount();
    act(() =>
      liveEvents.deliver({ event: 'PopupWindow', data: JSON.stringify({ id: 7, title: '储能柜温度过高', content: '1号柜 55℃', createdAt: '2026-01-01T00:00:00Z' }), id: '2' }),
    );
    expect(await screen.findByText('储能柜温度过高')).toBeTruthy();
    expect(screen.getByText('1号柜 55℃')).toBeTruthy();
  });

  it('shows a newly opened alarm with its level in the user\'s language and a way to the alarm monitor', async () => {
    mockFetch(() => json(envelope({ unread: 0, total: 0 })));
    useI18nStore.setState({ locale: 'en-US', pack: new Map([['一级告警', 'Level 1 alarm'], ['查看告警', 'View alarms']]) });
    mount();
    act(() =>
      liveEvents.deliver({
        event: 'PopupWindow',
        data: JSON.stringify({ id: 7, kind: 'alarm', title: '一级告警', content: '上海站 · PCS：IGBT故障（ALM20260101000007）', createdAt: '2026-01-01T00:00:00Z' }),
        id: '3',
      }),
    );
    expect(await screen.findByText('Level 1 alarm')).toBeTruthy();
    expect(screen.getByText('上海站 · PCS：IGBT故障（ALM20260101000007）')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'View alarms' })).toBeTruthy();
    // A notification with the same id is a different notice.
    act(() =>
      liveEvents.deliver({ event: 'PopupWindow', data: JSON.stringify({ id: 7, title: '维护通知', content: '周六', createdAt: '2026-01-01T00:00:00Z' }), id: '4' }),
    );
    expect(await screen.findByText('维护通知')).toBeTruthy();
    expect(screen.getByText('Level 1 alarm')).toBeTruthy();
    useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  });
});
