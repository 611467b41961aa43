import { roleEndpoints, userEndpoints, type UserOne } from '@ess/contract/system';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { UserPage } from './UserPage.tsx';

pageTests();

const USER: UserOne = {
  id: 7, username: 'oncall', name: '值班员', phone: null, email: null, companyId: 1, companyName: '储能集团', status: 1, buildIn: false,
  siteCount: 0, allSites: false, timeZone: 'America/Los_Angeles', lastLoginAt: null, createdAt: '2026-11-20T02:00:00.000Z',
  updatedAt: '2026-11-20T02:00:00.000Z', roles: [{ id: 3, name: '运维人员' }], roleIds: [3], siteIds: [],
};

function serve() {
  return mockFetch((c) => {
    const answers: Record<string, unknown> = {
      [userEndpoints.page.path]: { records: [USER], total: 1, current: 1, pageSize: 20 },
      [userEndpoints.one.path]: USER,
      [userEndpoints.edit.path]: null,
      [roleEndpoints.list.path]: [{ id: 3, name: '运维人员', companyId: 1, companyName: '储能集团' }],
      '/system/company/query/tree': [{ id: 1, name: '储能集团', children: [] }],
    };
    const p = path(c);
    return json(envelope(p in answers ? answers[p] : []));
  });
}

const edits = (calls: Call[]) => calls.filter((c) => path(c) === userEndpoints.edit.path);

describe('the user form sets the user’s own time zone', () => {
  it('loads the stored zone, sends it back unchanged, and sends a zone picked from the IANA list', async () => {
    useUserStore.setState({ permissions: new Set([userEndpoints.page.path, userEndpoints.one.path, userEndpoints.edit.path]) });
    const srv = serve();
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <UserPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    const row = (await screen.findByText('oncall', {}, { timeout: 20_000 })).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByLabelText('时区');
    await waitFor(() => expect(within(drawer).getByTitle('America/Los_Angeles')).toBeTruthy());

    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(edits(srv.calls)).toHaveLength(1));
    expect(body(edits(srv.calls)[0]!)).toMatchObject({ id: 7, timeZone: 'America/Los_Angeles' });

    fireEvent.click((await screen.findAllByRole('button', { name: /编\s*辑/ }))[0]!);
    const again = await screen.findByRole('dialog');
    const picker = await within(again).findByLabelText('时区');
    await waitFor(() => expect(within(again).getByTitle('America/Los_Angeles')).toBeTruthy());
    fireEvent.mouseDown(picker);
    fireEvent.change(picker, { target: { value: 'Europe/Berl' } });
    const berlin = await waitFor(() => {
      const option = document.querySelector<HTMLElement>('.ant-select-item-option[title="Europe/Berlin"]');
      expect(option).not.toBeNull();
      return option!;
    });
    fireEvent.click(berlin);
    fireEvent.click(within(again).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(edits(srv.calls)).toHaveLength(2));
    expect(body(edits(srv.calls)[1]!)).toMatchObject({ id: 7, timeZone: 'Europe/Berlin' });
  });
});
