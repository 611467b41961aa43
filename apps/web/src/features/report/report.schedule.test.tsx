import type { ReportEmbedRecord, ReportRunRecord, ReportScheduleRecord } from '@ess/contract/report';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { ReportEmbed } from './ReportEmbed.tsx';
import { ReportSchedules } from './ReportSchedules.tsx';

pageTests();

const page = (records: unknown[]) => ({ records, total: records.length, current: 1, pageSize: 10 });

function serve(answers: Record<string, (c: Call) => unknown>) {
  return mockFetch((c) => {
    const a = answers[path(c)];
    return json(envelope(a ? a(c) : page([])));
  }).calls;
}

function show(node: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{node}</QueryClientProvider>
    </App>,
  );
}

const SCHEDULE: ReportScheduleRecord = {
  id: 5, companyId: 2, companyName: '华东公司', name: '日报', template: 'revenue', siteIds: [3], granularity: 'day', currency: null, format: 'pdf',
  frequency: 'weekly', hour: 8, weekday: 1, monthDay: 1, timeZone: 'Asia/Shanghai', userIds: [7], roleIds: [], enabled: true, remark: null, ownerId: 1,
  ownerName: 'admin', nextRunAt: '2026-03-09T00:00:00.000Z', lastRunAt: null, createdAt: '2026-03-01T00:00:00.000Z', updatedAt: '2026-03-01T00:00:00.000Z',
};
const RUN: ReportRunRecord = {
  id: 9, scheduleId: 5, scheduleName: '日报', template: 'revenue', dueAt: '2026-03-02T00:00:00.000Z', start: '2026-02-23', end: '2026-03-01', state: 'sent',
  error: null, startedAt: '2026-03-02T00:00:01.000Z', finishedAt: '2026-03-02T00:00:03.000Z',
  recipients: [
    { userId: 7, name: 'Alice', email: 'alice@example.com', language: 'en-US', mailId: 11, mailState: 'sent', skipped: null },
    { userId: 8, name: 'Bob', email: null, language: 'zh-CN', mailId: null, mailState: null, skipped: '接收人未设置邮箱' },
  ],
};

describe('report schedules (/report/jimu, schedules tab)', () => {
  it('lists the schedules with when they send, the run history with each recipient, and deletes one', async () => {
    const calls = serve({
      '/report/schedule/query/page': () => page([SCHEDULE]),
      '/report/schedule/run/query/page': () => page([RUN]),
      '/report/schedule/delete': () => true,
    });
    show(<ReportSchedules />);
    const table = await screen.findByTestId('report-schedules');
    await within(table).findByText('日报', { selector: 'td' });
    expect(within(table).getByText('每周 周一 08:00 (Asia/Shanghai)')).toBeTruthy();
    expect(within(table).getByText('收益报表 · PDF')).toBeTruthy();
    const runs = screen.getByTestId('report-runs');
    await within(runs).findByText('Alice · en-US');
    expect(within(runs).getByText('Bob · zh-CN').closest('span[title]')!.getAttribute('title')).toBe('接收人未设置邮箱');
    expect(within(runs).getByText('已发送')).toBeTruthy();
    fireEvent.click(within(table).getByText('删除'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(calls.some((c) => path(c) === '/report/schedule/delete' && c.url.includes('id=5'))).toBe(true));
  });

  it('adds a schedule: the form sends the contract body', async () => {
    const calls = serve({
      '/system/company/query/tree': () => [{ id: 2, name: '华东公司', children: [] }],
      '/configure/site/query/list': () => [{ id: 3, name: '一号站', code: 'S1', companyId: 2, timeZone: 'Asia/Shanghai' }],
      '/system/user/query/list': () => [{ id: 7, name: 'Alice', username: 'alice' }],
      '/system/role/query/list': () => [],
      '/report/schedule/add': () => ({ id: 6 }),
    });
    show(<ReportSchedules />);
    fireEvent.click(await screen.findByTestId('report-schedule-add'));
    const form = await screen.findByTestId('report-schedule-form');
    fireEvent.change(within(form).getByLabelText('计划名称'), { target: { value: '周报' } });
    // The pickers: company, a station, a user.
    fireEvent.mouseDown(within(form).getByLabelText('公司'));
    fireEvent.click(await screen.findByTitle('华东公司'));
    fireEvent.mouseDown(within(form).getByLabelText('站点'));
    fireEvent.click(await screen.findByText(/一号站/, { selector: '.ant-select-item-option-content' }));
    fireEvent.mouseDown(within(form).getByLabelText('接收用户'));
    fireEvent.click(await screen.findByText('Alice (alice)', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(calls.some((c) => path(c) === '/report/schedule/add')).toBe(true));
    const sent = body(calls.find((c) => path(c) === '/report/schedule/add')!);
    expect(sent).toMatchObject({ companyId: 2, name: '周报', template: 'operations', siteIds: [3], userIds: [7], roleIds: [], frequency: 'daily', hour: 8, format: 'xlsx' });
  });
});

describe('the external report tool (embed tab)', () => {
  const CONFIG: ReportEmbedRecord = {
    enabled: true, tool: 'metabase', siteUrl: 'https://bi.example.com', hasSecret: true, siteParam: 'site_id', dashboards: [{ id: 7, name: 'Fleet' }],
    editable: false, updatedAt: '2026-03-01T00:00:00.000Z',
  };

  it('opens a dashboard through the signed URL in a frame; no settings for a non-administrator', async () => {
    const url = 'https://bi.example.com/embed/dashboard/eyJ.eyJ.sig#bordered=true&titled=true';
    const calls = serve({
      '/report/embed/query/one': () => CONFIG,
      '/report/embed/url': () => ({ url, expiresAt: '2026-03-01T00:10:00.000Z', siteIds: [3, 4] }),
    });
    show(<ReportEmbed />);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '报表' }));
    fireEvent.click(await screen.findByText('Fleet', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('report-embed-open'));
    const frame = await screen.findByTitle('外部报表');
    expect(frame.getAttribute('src')).toBe(url);
    expect(body(calls.find((c) => path(c) === '/report/embed/url')!)).toEqual({ dashboard: 7 });
    expect(screen.queryByTestId('report-embed-settings')).toBeNull();
  });

  it('an administrator saves the settings; an empty secret is sent as null (the stored one is kept)', async () => {
    const calls = serve({ '/report/embed/query/one': () => ({ ...CONFIG, editable: true }), '/report/embed/edit': () => true });
    show(<ReportEmbed />);
    const settings = await screen.findByTestId('report-embed-settings');
    expect(within(settings).getByLabelText<HTMLInputElement>('嵌入密钥').value).toBe('');
    fireEvent.click(within(settings).getByTestId('report-embed-save'));
    await waitFor(() => expect(calls.some((c) => path(c) === '/report/embed/edit')).toBe(true));
    expect(body(calls.find((c) => path(c) === '/report/embed/edit')!)).toEqual({
      enabled: true, tool: 'metabase', siteUrl: 'https://bi.example.com', secret: null, siteParam: 'site_id', dashboards: [{ id: 7, name: 'Fleet' }],
    });
  });

  it('says so when no tool is configured', async () => {
    serve({ '/report/embed/query/one': () => ({ ...CONFIG, enabled: false, tool: null, dashboards: [] }) });
    show(<ReportEmbed />);
    expect(await screen.findByText('未配置外部报表工具')).toBeTruthy();
  });
});
