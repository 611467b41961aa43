import {
  mailAccountEndpoints, mailLogEndpoints, mailTemplateEndpoints, messageRuleEndpoints, RULE_MINUTES_REQUIRED, smsChannelEndpoints, smsTemplateEndpoints,
  type MailAccountRecord, type MailLogRecord, type MessageRuleRecord, type SmsChannelRecord,
} from '@ess/contract/messaging';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { MailLogPage } from './LogPages.tsx';
import { MailAccountPage } from './MailAccountPage.tsx';
import { MessageConfigPage } from './MessageConfigPage.tsx';
import { SmsChannelPage } from './SmsChannelPage.tsx';
import { ruleApplies, ruleBody, type RuleForm } from './rule.resource.tsx';
import { MailTemplatePage } from './TemplatePages.tsx';

pageTests();

const page = (records: unknown[]) => ({ records, total: records.length, current: 1, pageSize: 20 });
const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p);
const AUDIT = { createdAt: '2026-11-20T02:00:00.000Z', updatedAt: '2026-11-20T02:00:00.000Z', createdByName: 'admin' };

function serve(answers: Record<string, (c: Call) => unknown>) {
  return mockFetch((c) => {
    const a = answers[path(c)];
    return json(envelope(a ? a(c) : page([])));
  });
}

function renderPage(node: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const allow = (...eps: { path: string }[]) => useUserStore.setState({ permissions: new Set(eps.map((e) => e.path)) });

// A server that (wrongly) leaks the password with the record: the screen must still never show it.
const LEAKED = 'S3cret-Leak!';
const ACCOUNT = {
  id: 3, companyId: 1, companyName: '华东', name: '运维邮箱', host: 'smtp.example.com', port: 465, tlsMode: 'tls', verifyCertificate: true,
  username: 'ops', passwordSet: true, fromName: '储能运维', fromAddress: 'ops@example.com', replyTo: null, dailyLimit: 500, sentToday: 12,
  enabled: true, isDefault: true, remark: null, lastTestAt: null, lastTestOk: null, lastTestReason: null, ...AUDIT, password: LEAKED,
} satisfies MailAccountRecord & { password: string };
const TREE = [{ id: 1, name: '华东', children: [] }];
/** The account's list, record and edit, the company tree, and what a test adds. */
const serveAccount = (more: Record<string, (c: Call) => unknown> = {}) =>
  serve({
    [mailAccountEndpoints.page.path]: () => page([ACCOUNT]),
    [mailAccountEndpoints.one.path]: () => ACCOUNT,
    [mailAccountEndpoints.edit.path]: () => null,
    '/system/company/query/tree': () => TREE,
    ...more,
  });

describe('mail accounts: the password is write-only', () => {
  it('lists "set" without any value, starts the edit form empty, keeps the stored password when left empty and sends a new one typed', async () => {
    allow(mailAccountEndpoints.page, mailAccountEndpoints.one, mailAccountEndpoints.edit);
    const srv = serveAccount();
    const { container } = renderPage(<MailAccountPage />);
    const row = (await screen.findByText('运维邮箱', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByText('smtp.example.com:465')).toBeTruthy();
    expect(within(row).getByText('已设置')).toBeTruthy();
    expect(container.textContent).not.toContain(LEAKED);

    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    await waitFor(() => expect(within(drawer).getByLabelText<HTMLInputElement>('SMTP服务器').value).toBe('smtp.example.com'));
    const password = within(drawer).getByLabelText<HTMLInputElement>('密码');
    expect(password.value).toBe('');
    expect(within(drawer).getByText('留空则保持原密码不变')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(LEAKED);

    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, mailAccountEndpoints.edit.path).length).toBe(1));
    const kept = body(callsTo(srv.calls, mailAccountEndpoints.edit.path)[0]!);
    expect(kept).toMatchObject({ id: 3, host: 'smtp.example.com', port: 465, tlsMode: 'tls' });
    expect(kept).not.toHaveProperty('password');

    fireEvent.click((await screen.findAllByRole('button', { name: /编\s*辑/ }))[0]!);
    const again = await screen.findByRole('dialog');
    await waitFor(() => expect(within(again).getByLabelText<HTMLInputElement>('SMTP服务器').value).toBe('smtp.example.com'));
    fireEvent.change(within(again).getByLabelText('密码'), { target: { value: 'n3w-pass' } });
    fireEvent.click(within(again).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, mailAccountEndpoints.edit.path).length).toBe(2));
    expect(body(callsTo(srv.calls, mailAccountEndpoints.edit.path)[1]!)).toMatchObject({ id: 3, password: 'n3w-pass' });
  });

  it('refuses a port outside 1–65535 before sending, and shows the connection test’s failure with its reason', async () => {
    allow(mailAccountEndpoints.page, mailAccountEndpoints.one, mailAccountEndpoints.edit, mailAccountEndpoints.testConnection);
    const srv = serve({
      [mailAccountEndpoints.page.path]: () => page([ACCOUNT]),
      [mailAccountEndpoints.one.path]: () => ACCOUNT,
      [mailAccountEndpoints.testConnection.path]: () => ({ ok: false, message: '连接失败', reason: '535 5.7.8 Authentication failed', latencyMs: 42 }),
    });
    renderPage(<MailAccountPage />);
    const row = (await screen.findByText('运维邮箱', {}, { timeout: 20_000 })).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    await waitFor(() => expect(within(drawer).getByLabelText<HTMLInputElement>('端口').value).toBe('465'));
    fireEvent.change(within(drawer).getByLabelText('端口'), { target: { value: '70000' } });
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect((await within(drawer).findAllByText('端口应为1-65535')).length).toBeGreaterThan(0);
    expect(callsTo(srv.calls, mailAccountEndpoints.edit.path)).toEqual([]);
    fireEvent.click(within(drawer).getByRole('button', { name: /取\s*消/ }));

    fireEvent.click(within(row).getByTestId('sender-test'));
    // antd's confirm dialog draws its title twice (heading and label); each says the same.
    expect((await screen.findAllByTestId('outcome-message')).map((e) => e.textContent)).toContain('连接失败');
    expect(screen.getAllByTestId('outcome-reason')[0]!.textContent).toContain('535 5.7.8 Authentication failed');
    expect(body(callsTo(srv.calls, mailAccountEndpoints.testConnection.path)[0]!)).toEqual({ id: 3 });
  });
});

const openEdit = async (name: string) => {
  const row = (await screen.findByText(name, {}, { timeout: 20_000 })).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  return screen.findByRole('dialog');
};

describe('mail account form: tests of the unsaved values, clearing the password, the company fixed on edit', () => {
  it('tests the connection and sends a test mail with the values as typed (the id, no password: the stored one), then with a password typed', async () => {
    allow(mailAccountEndpoints.page, mailAccountEndpoints.one, mailAccountEndpoints.edit, mailAccountEndpoints.testConnection, mailAccountEndpoints.testSend);
    const srv = serveAccount({
      [mailAccountEndpoints.testConnection.path]: () => ({ ok: true, message: '连接成功', reason: null, latencyMs: 12 }),
      [mailAccountEndpoints.testSend.path]: () => ({ ok: true, message: '发送成功', reason: null, providerMessageId: '<m1@example.com>', logId: 7 }),
      [mailTemplateEndpoints.list.path]: () => [],
    });
    renderPage(<MailAccountPage />);
    const drawer = await openEdit('运维邮箱');
    await waitFor(() => expect(within(drawer).getByLabelText<HTMLInputElement>('SMTP服务器').value).toBe('smtp.example.com'));
    fireEvent.change(within(drawer).getByLabelText('SMTP服务器'), { target: { value: 'smtp2.example.com' } });
    fireEvent.click(within(drawer).getByTestId('form-test-connection'));
    expect((await screen.findAllByTestId('outcome-message')).map((e) => e.textContent)).toContain('连接成功');
    const tested = body(callsTo(srv.calls, mailAccountEndpoints.testConnection.path)[0]!);
    expect(tested).toMatchObject({ id: 3, companyId: 1, host: 'smtp2.example.com', port: 465, username: 'ops', fromAddress: 'ops@example.com' });
    expect(tested).not.toHaveProperty('password');
    // Nothing saved.
    expect(callsTo(srv.calls, mailAccountEndpoints.edit.path)).toEqual([]);

    fireEvent.change(within(drawer).getByLabelText('密码'), { target: { value: 'typed-Pass1' } });
    fireEvent.click(within(drawer).getByTestId('form-test-send'));
    const modal = (await screen.findAllByRole('dialog')).find((d) => within(d).queryByTestId('test-send-form'))!;
    expect(within(modal).getByTestId('test-send-unsaved')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('收件地址'), { target: { value: 'duty@example.com' } });
    fireEvent.click(within(modal).getByRole('button', { name: /发\s*送/ }));
    await waitFor(() => expect(callsTo(srv.calls, mailAccountEndpoints.testSend.path).length).toBe(1));
    const sent = body(callsTo(srv.calls, mailAccountEndpoints.testSend.path)[0]!);
    expect(Object.keys(sent).sort()).toEqual(['account', 'id', 'to']);
    expect(sent).toMatchObject({ id: 3, to: 'duty@example.com', account: { companyId: 1, host: 'smtp2.example.com', password: 'typed-Pass1', fromAddress: 'ops@example.com' } });
    expect(callsTo(srv.calls, mailAccountEndpoints.edit.path)).toEqual([]);
  });

  it('refuses to test values that are not valid (a port of 70000) and sends nothing', async () => {
    allow(mailAccountEndpoints.page, mailAccountEndpoints.one, mailAccountEndpoints.edit, mailAccountEndpoints.testConnection);
    const srv = serveAccount();
    renderPage(<MailAccountPage />);
    const drawer = await openEdit('运维邮箱');
    await waitFor(() => expect(within(drawer).getByLabelText<HTMLInputElement>('端口').value).toBe('465'));
    fireEvent.change(within(drawer).getByLabelText('端口'), { target: { value: '70000' } });
    fireEvent.click(within(drawer).getByTestId('form-test-connection'));
    expect((await within(drawer).findAllByText('端口应为1-65535')).length).toBeGreaterThan(0);
    expect(callsTo(srv.calls, mailAccountEndpoints.testConnection.path)).toEqual([]);
  });

  it('clears the stored password only through "clear" and its confirmation (null on save), undone by "undo"; the company is read-only text on edit', async () => {
    allow(mailAccountEndpoints.page, mailAccountEndpoints.one, mailAccountEndpoints.edit);
    const srv = serveAccount();
    renderPage(<MailAccountPage />);
    const drawer = await openEdit('运维邮箱');
    // The company: its name in a read-only field (no picker), still sent.
    const company = await within(drawer).findByTestId<HTMLInputElement>('company-readonly');
    await waitFor(() => expect(company.value).toBe('华东'));
    expect(company.readOnly).toBe(true);
    expect(within(drawer).getByLabelText('所属公司')).toBe(company);
    expect(drawer.querySelector('.ant-select-disabled, .ant-tree-select')).toBeNull();

    // Undo: nothing cleared.
    fireEvent.click(within(drawer).getByTestId('secret-clear'));
    fireEvent.click(await screen.findByRole('button', { name: /^清\s*除$/ }));
    expect((await within(drawer).findByTestId('secret-cleared')).textContent).toContain('保存后将清除已存储的密码');
    fireEvent.click(within(drawer).getByTestId('secret-undo'));
    await waitFor(() => expect(within(drawer).queryByTestId('secret-cleared')).toBeNull());
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, mailAccountEndpoints.edit.path).length).toBe(1));
    expect(body(callsTo(srv.calls, mailAccountEndpoints.edit.path)[0]!)).not.toHaveProperty('password');

    const again = await openEdit('运维邮箱');
    await waitFor(() => expect(within(again).getByLabelText<HTMLInputElement>('SMTP服务器').value).toBe('smtp.example.com'));
    fireEvent.click(within(again).getByTestId('secret-clear'));
    fireEvent.click(await screen.findByRole('button', { name: /^清\s*除$/ }));
    await within(again).findByTestId('secret-cleared');
    fireEvent.click(within(again).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, mailAccountEndpoints.edit.path).length).toBe(2));
    expect(body(callsTo(srv.calls, mailAccountEndpoints.edit.path)[1]!)).toMatchObject({ id: 3, companyId: 1, password: null });
  });
});

const CHANNEL: SmsChannelRecord = {
  id: 5, companyId: 1, companyName: '华东', name: 'Twilio 演示', provider: 'twilio', accessKeyId: `AC${'0'.repeat(32)}`, secretSet: true, region: null, appId: null,
  sender: '+15005550006', signName: null, endpoint: 'http://127.0.0.1:4010', dailyLimit: 1000, sentToday: 0, enabled: true, isDefault: true, remark: null, ...AUDIT,
};

describe('SMS channel form', () => {
  it('sends a test SMS with the values as typed (the stored secret when left empty) and clears the stored secret on save after confirming', async () => {
    allow(smsChannelEndpoints.page, smsChannelEndpoints.one, smsChannelEndpoints.edit, smsChannelEndpoints.testSend);
    const srv = serve({
      [smsChannelEndpoints.page.path]: () => page([CHANNEL]),
      [smsChannelEndpoints.one.path]: () => CHANNEL,
      [smsChannelEndpoints.edit.path]: () => null,
      [smsChannelEndpoints.testSend.path]: () => ({ ok: false, message: '发送失败', reason: '20003: Authenticate', providerMessageId: null, logId: 8 }),
      [smsTemplateEndpoints.list.path]: () => [{ id: 4, name: '告警短信', code: 'alarm.sms', language: 'zh-CN', companyId: 1, enabled: true }],
      '/system/company/query/tree': () => TREE,
    });
    renderPage(<SmsChannelPage />);
    const drawer = await openEdit('Twilio 演示');
    await waitFor(() => expect(within(drawer).getByLabelText<HTMLInputElement>('发送号码').value).toBe('+15005550006'));
    fireEvent.change(within(drawer).getByLabelText('发送号码'), { target: { value: '+15005550007' } });
    fireEvent.click(within(drawer).getByTestId('form-test-send'));
    const modal = (await screen.findAllByRole('dialog')).find((d) => within(d).queryByTestId('test-send-form'))!;
    fireEvent.change(within(modal).getByLabelText('手机号码'), { target: { value: '+8613800138000' } });
    fireEvent.mouseDown(within(modal).getByLabelText('模板'));
    fireEvent.click(await screen.findByText('告警短信 · alarm.sms · 简体中文', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(modal).getByRole('button', { name: /发\s*送/ }));
    expect((await screen.findAllByTestId('outcome-reason'))[0]!.textContent).toContain('20003: Authenticate');
    const sent = body(callsTo(srv.calls, smsChannelEndpoints.testSend.path)[0]!);
    expect(sent).toMatchObject({ id: 5, templateId: 4, phone: '+8613800138000', channel: { provider: 'twilio', sender: '+15005550007', accessKeyId: CHANNEL.accessKeyId } });
    expect(sent.channel).not.toHaveProperty('secret');

    fireEvent.click(within(drawer).getByTestId('secret-clear'));
    fireEvent.click(await screen.findByRole('button', { name: /^清\s*除$/ }));
    expect((await within(drawer).findByTestId('secret-cleared')).textContent).toContain('保存后将清除已存储的访问密钥');
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, smsChannelEndpoints.edit.path).length).toBe(1));
    expect(body(callsTo(srv.calls, smsChannelEndpoints.edit.path)[0]!)).toMatchObject({ id: 5, secret: null, sender: '+15005550007' });
  });
});

describe('mail template form: variables listed as typed', () => {
  it('lists the known variables of subject and body with their meaning, flags an unknown one inline and sends nothing', async () => {
    allow(mailTemplateEndpoints.page, mailTemplateEndpoints.add);
    const srv = serve({ '/system/company/query/tree': () => [{ id: 1, name: '华东', children: [] }] });
    renderPage(<MailTemplatePage />);
    fireEvent.click(await screen.findByRole('button', { name: /新\s*增/ }, { timeout: 20_000 }));
    const drawer = await screen.findByRole('dialog');
    const list = await within(drawer).findByTestId('template-variables');
    expect(list.textContent).toContain('未使用变量');

    fireEvent.change(within(drawer).getByLabelText('邮件主题'), { target: { value: '${station} 告警 ${ level }' } });
    await waitFor(() => expect(within(list).getAllByTestId('variable-known').map((e) => e.textContent)).toEqual(['${station} 站点名称', '${level} 告警等级']));
    fireEvent.change(within(drawer).getByLabelText('HTML正文'), { target: { value: '<p>${device} ${stationName}</p>' } });
    await waitFor(() => expect(within(list).getAllByTestId('variable-known').length).toBe(3));
    expect(within(list).getByTestId('variable-unknown').textContent).toBe('${stationName} 未知变量');
    expect(within(drawer).getByTestId('variables-unknown-alert')).toBeTruthy();

    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect((await within(drawer).findAllByText(/模板使用了未知变量：stationName/)).length).toBeGreaterThan(0);
    expect(callsTo(srv.calls, mailTemplateEndpoints.add.path)).toEqual([]);

    // Fixed: nothing flagged any more.
    fireEvent.change(within(drawer).getByLabelText('HTML正文'), { target: { value: '<p>${device}</p>' } });
    await waitFor(() => expect(within(list).queryByTestId('variable-unknown')).toBeNull());
  });
});

const RULE: MessageRuleRecord = {
  id: 9, companyId: 1, companyName: '华东', name: '一级告警未确认', event: 'alarmUnacknowledged', maxLevel: 1, minutes: 15, siteIds: [], siteNames: [],
  channels: ['console', 'mail'], mailTemplateCode: 'alarm.open', smsTemplateCode: null, mailAccountId: null, smsChannelId: null,
  recipients: { userIds: [], roleIds: [2], siteContacts: true, assignee: false }, userNames: [], roleNames: ['运维'],
  quietHours: null, escalation: { intervalMinutes: 30, levels: [{ userIds: [], roleIds: [2] }], maxRepeats: 1 }, enabled: true, remark: null, ...AUDIT,
};

describe('message rule form: dependent fields', () => {
  it('decides from the event and channels which fields apply, and sends those that do not as empty', () => {
    const v = { event: 'alarmOpened', channels: ['mail'] } as Partial<RuleForm>;
    expect(ruleApplies.alarm(v) && !ruleApplies.delayed(v) && ruleApplies.mail(v) && !ruleApplies.sms(v) && ruleApplies.quiet(v)).toBe(true);
    expect(ruleApplies.delayed({ event: 'deviceOffline' }) && !ruleApplies.alarm({ event: 'deviceOffline' })).toBe(true);
    expect(ruleApplies.assignee({ event: 'workOrderOverdue' }) && !ruleApplies.assignee({ event: 'alarmOpened' })).toBe(true);
    // The contract's list: a statement's parties too.
    expect(ruleApplies.assignee({ event: 'statementToConfirm' })).toBe(true);
    expect(ruleApplies.quiet({ channels: ['console'] })).toBe(false);
    // An alarm rule turned into an offline rule: its level and escalation go empty, its mail template too once mail is dropped.
    const sent = ruleBody({
      companyId: 1, name: 'x', event: 'deviceOffline', maxLevel: 2, minutes: 10, channels: ['sms'], mailTemplateCode: 'a', smsTemplateCode: 'b',
      recipients: { userIds: [1], roleIds: [], siteContacts: false, assignee: true }, escalation: RULE.escalation, quietHours: null, enabled: true,
    }, 'add');
    expect(sent).toMatchObject({ maxLevel: null, minutes: 10, escalation: null, mailTemplateCode: null, smsTemplateCode: 'b', recipients: { assignee: false } });
  });

  it('shows an alarm rule’s level, minutes, mail template and escalation, then for an offline event hides level and escalation and asks for minutes', async () => {
    allow(messageRuleEndpoints.page, messageRuleEndpoints.one, messageRuleEndpoints.edit);
    let rule: MessageRuleRecord = RULE;
    const srv = serve({
      [messageRuleEndpoints.page.path]: () => page([rule]),
      [messageRuleEndpoints.one.path]: () => rule,
    });
    renderPage(<MessageConfigPage />);
    const row = (await screen.findByText('一级告警未确认', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByText('告警超时未转维修（1级及以上，15分钟）')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByTestId('rule-escalation-fields');
    expect(within(drawer).getByLabelText('告警等级')).toBeTruthy();
    expect(within(drawer).getByLabelText('持续分钟数')).toBeTruthy();
    expect(within(drawer).getByLabelText('邮件模板')).toBeTruthy();
    expect(within(drawer).queryByLabelText('短信模板')).toBeNull();
    expect(within(drawer).queryByTestId('rule-assignee')).toBeNull();
    fireEvent.click(within(drawer).getByRole('button', { name: /取\s*消/ }));

    rule = { ...RULE, id: 10, name: '设备离线', event: 'deviceOffline', maxLevel: null, minutes: null, escalation: null, channels: ['sms'], smsTemplateCode: 'offline' };
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[0]!);
    const second = (await screen.findAllByRole('dialog')).at(-1)!;
    await within(second).findByLabelText('短信模板');
    expect(within(second).queryByLabelText('告警等级')).toBeNull();
    expect(within(second).queryByTestId('rule-escalation')).toBeNull();
    expect(within(second).queryByLabelText('邮件模板')).toBeNull();
    // The offline event needs its minutes: refused with the contract's message, nothing sent.
    fireEvent.click(within(second).getByRole('button', { name: /保\s*存/ }));
    expect((await within(second).findAllByText(new RegExp(`${RULE_MINUTES_REQUIRED}|持续分钟数不能为空`))).length).toBeGreaterThan(0);
    expect(callsTo(srv.calls, messageRuleEndpoints.edit.path)).toEqual([]);
  });
});

const LOG: MailLogRecord = {
  id: 1, companyId: 1, companyName: '华东', recipient: 'ops@example.com', userId: null, userName: null, templateId: 2, templateName: '告警通知', templateCode: 'alarm.open',
  language: 'zh-CN', origin: 'rule', eventType: 'alarmOpened', ruleId: 9, ruleName: '告警', state: 'failed', providerMessageId: null,
  error: '550 mailbox unavailable', attempts: 3, createdAt: '2026-11-20T02:00:00.000Z', lastAttemptAt: '2026-11-20T02:10:00.000Z', nextAttemptAt: null, sentAt: null,
  accountId: 3, accountName: '运维邮箱', subject: '上海站 告警',
};

describe('mail log', () => {
  it('shows each state as its coloured tag and filters by state', async () => {
    allow(mailLogEndpoints.page, mailLogEndpoints.one, mailLogEndpoints.export);
    const srv = serve({
      [mailLogEndpoints.page.path]: (c) => {
        const state = body(c).state;
        const rows = [LOG, { ...LOG, id: 2, state: 'sent', error: null, attempts: 1, subject: '日报' }];
        return page(state ? rows.filter((r) => r.state === state) : rows);
      },
    });
    renderPage(<MailLogPage />);
    await screen.findByText('日报', {}, { timeout: 20_000 });
    expect(screen.getByTestId('state-failed').textContent).toBe('发送失败');
    expect(screen.getByTestId('state-sent').textContent).toBe('已发送');
    expect(screen.getByTestId('state-failed').getAttribute('data-tone')).toBe('error');
    expect(screen.getByTestId('state-sent').getAttribute('data-tone')).toBe('success');

    const state = await screen.findByRole('combobox', { name: '状态' }, { timeout: 20_000 });
    fireEvent.mouseDown(state);
    fireEvent.click(await screen.findByText('发送失败', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(screen.queryByText('日报')).toBeNull());
    const last = callsTo(srv.calls, mailLogEndpoints.page.path).at(-1)!;
    expect(body(last)).toMatchObject({ state: 'failed', current: 1 });
    expect(screen.getByText('上海站 告警')).toBeTruthy();
  });
});
