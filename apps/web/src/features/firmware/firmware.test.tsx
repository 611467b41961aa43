import {
  FIRMWARE_ERRORS, FIRMWARE_LOG_STATE_LABELS, FIRMWARE_LOG_STATES, FIRMWARE_TASK_FAILED_STATES, FIRMWARE_TASK_STATE_LABELS, FIRMWARE_TASK_STATES,
  firmwarePackageEndpoints, firmwareRolloutEndpoints, firmwareTaskEndpoints, HHMM_INVALID, LOG_RANGE_INVALID, VERSION_NOT_SEMVER,
  type FirmwareRolloutAction, type FirmwareTaskRecord, type FirmwareTaskState,
} from '@ess/contract/firmware';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { useState, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { liveEvents } from '../../platform/live-events.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { checkLog } from './LogPage.tsx';
import { LogStateTag, TaskStateTag } from './parts.tsx';
import { checkRollout, newRolloutValues, type RolloutForm } from './rollout.form.ts';
import { RolloutDetail } from './RolloutDetail.tsx';
import { checkUpload, signatureText, TOO_LARGE, type UploadForm } from './UploadDrawer.tsx';
import { FirmwarePage } from './FirmwarePage.tsx';

pageTests();

/** The pack-less `t`: `$n` replaced by the n-th argument. */
const t = (s: string, ...args: unknown[]) => s.replace(/\$(\d)/g, (_m, n: string) => String(args[Number(n) - 1]));
/** A page of records as the page calls answer. */
const page = (records: unknown[], pageSize = 20) => ({ current: 1, pageSize, total: records.length, records });
/** The signed-in user may call exactly these endpoints. */
const allow = (...eps: { path: string }[]) => useUserStore.setState({ permissions: new Set(eps.map(({ path: p }) => p)) });

/** A fake server by path: an answer's value is the envelope's data, a Response is sent as it is; unknown paths answer an empty page. */
const serve = (answers: Record<string, (c: Call) => unknown>) =>
  mockFetch((c) => {
    const answer = path(c) in answers ? answers[path(c)]!(c) : page([]);
    return answer instanceof Response ? answer : json(envelope(answer));
  });

/** The screen under the app's providers, at a route. */
function Shell({ url, children }: { url: string; children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>
      </App>
    </QueryClientProvider>
  );
}
const renderAt = (url: string, node: ReactNode) => render(<Shell url={url}>{node}</Shell>);

// ── The upload form ────────────────────────────────────────────────────────────

const UPLOAD: UploadForm = { companyId: 1, deviceType: 'bms', productId: null, name: 'bms-main', version: '1.4.0', upgradeFrom: '>=1.2.0 <1.4.0' };
const FILE = { name: 'bms-1.4.0.bin', size: 10 * 1024 * 1024 };
const SETTINGS = { maxPackageMb: 256, allowUnsigned: true };
const uploadErrors = (v: UploadForm, file: { name: string; size: number } | null = FILE, s: { maxPackageMb: number; allowUnsigned: boolean } = SETTINGS) => {
  const r = checkUpload(v, file, s, t);
  return r.ok ? {} : r.errors.fields;
};

describe('the upload form: the contract\'s rules before any byte is sent', () => {
  it('passes a valid description and sends the file\'s name and size', () => {
    const r = checkUpload(UPLOAD, FILE, SETTINGS, t);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.body).toMatchObject({ fileName: 'bms-1.4.0.bin', size: FILE.size, version: '1.4.0', signature: null, releaseNotes: null });
  });

  it('refuses a version that is not semver (v1.4, 1.4, 01.2.3) and names it', () => {
    for (const version of ['v1.4.0', '1.4', '01.2.3', '']) {
      const e = uploadErrors({ ...UPLOAD, version });
      expect(e.version, version).toEqual([VERSION_NOT_SEMVER]);
    }
    expect(uploadErrors({ ...UPLOAD, version: '2.0.0-rc.1+build.5' })).toEqual({});
  });

  it('refuses no file, a 2 GB file beyond the 256 MB limit, and an unsigned package when unsigned ones are not allowed', () => {
    expect(uploadErrors(UPLOAD, null)).toEqual({ fileName: ['请选择升级包文件'] });
    expect(uploadErrors(UPLOAD, { name: 'big.bin', size: 2 * 1024 ** 3 })).toEqual({ fileName: [t(TOO_LARGE, 256)] });
    expect(uploadErrors(UPLOAD, FILE, { maxPackageMb: 256, allowUnsigned: false })).toEqual({ signature: [FIRMWARE_ERRORS.unsignedRefused] });
    expect(uploadErrors({ ...UPLOAD, signature: 'AAAA' }, FILE, { maxPackageMb: 256, allowUnsigned: false })).toEqual({});
  });

  it('refuses a signature that is not base64, a missing name, type and company', () => {
    expect(uploadErrors({ ...UPLOAD, signature: 'not base64!' })).toEqual({ signature: [FIRMWARE_ERRORS.signatureMalformed] });
    expect(uploadErrors({ ...UPLOAD, name: ' ' }).name).toContain('固件名称不能为空');
    expect(Object.keys(uploadErrors({ ...UPLOAD, deviceType: undefined, companyId: undefined })).sort()).toEqual(['companyId', 'deviceType']);
  });

  it('reads a binary .sig as base64 and keeps a base64 text file as it is', async () => {
    expect(await signatureText(new Blob([new Uint8Array([0, 1, 2, 250, 251, 252])]))).toBe('AAEC+vv8');
    expect(await signatureText(new Blob(['MEUCIQDx1bU6\n7yZ0kXAmple+/==\n']))).toBe('MEUCIQDx1bU67yZ0kXAmple+/==');
  });
});

// ── The rollout form ───────────────────────────────────────────────────────────

const ROLLOUT: RolloutForm = { ...newRolloutValues(undefined, 5), name: 'BMS 1.4.0 华东' };
const rolloutErrors = (v: RolloutForm) => {
  const r = checkRollout(v, t);
  return r.ok ? {} : r.errors.fields;
};

describe('the rollout form: target, grouping, thresholds, windows', () => {
  it('sends a canary then groups by percentage, the settings\' thresholds, and the picked devices', () => {
    const r = checkRollout({ ...ROLLOUT, siteIds: [1, 2], deviceIds: [7], windows: [{ days: [6, 7], start: '22:00', end: '06:00' }] }, t);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.body.grouping).toEqual({ canarySize: 1, groupSize: null, groupPercent: 50 });
      expect(r.body.target).toEqual({ packageId: 5, siteIds: [1, 2], productIds: [], versions: [], deviceIds: [7] });
      expect(r.body).toMatchObject({ successThreshold: 50, errorThreshold: 50, requireApproval: false, safeGate: true, startAt: null });
    }
    const bySize = checkRollout({ ...ROLLOUT, splitBy: 'size', groupSize: 20, groupPercent: 50 }, t);
    expect(bySize.ok && bySize.body.grouping).toEqual({ canarySize: 1, groupSize: 20, groupPercent: null });
  });

  it('refuses no package, no name, a canary over 1000, a group size missing, thresholds outside 1–100', () => {
    expect(rolloutErrors({ ...ROLLOUT, packageId: undefined })).toEqual({ packageId: ['升级包不能为空'] });
    expect(rolloutErrors({ ...ROLLOUT, name: '' })).toEqual({ name: ['升级任务名称不能为空'] });
    expect(rolloutErrors({ ...ROLLOUT, canarySize: 1001 })).toEqual({ canarySize: ['金丝雀组设备数须为0-1000'] });
    expect(rolloutErrors({ ...ROLLOUT, splitBy: 'size', groupSize: null })).toEqual({ groupSize: ['分组须按设备数或百分比之一划分'] });
    expect(rolloutErrors({ ...ROLLOUT, groupPercent: null })).toEqual({ groupPercent: ['分组须按设备数或百分比之一划分'] });
    expect(rolloutErrors({ ...ROLLOUT, successThreshold: 0 })).toEqual({ successThreshold: ['成功阈值须为1-100'] });
    expect(rolloutErrors({ ...ROLLOUT, errorThreshold: 101 })).toEqual({ errorThreshold: ['失败阈值须为1-100'] });
  });

  it('names the bad field of each maintenance window: a time that is not HH:mm, start equal to end', () => {
    expect(rolloutErrors({ ...ROLLOUT, windows: [{ days: [], start: '22:00', end: '06:00' }, { days: [1], start: '25:00', end: '06:00' }] })).toEqual({ 'windows.1.start': [HHMM_INVALID] });
    expect(rolloutErrors({ ...ROLLOUT, windows: [{ days: [], start: '02:00', end: '02:00' }] })).toEqual({ 'windows.0.end': ['维护时段的开始与结束不能相同'] });
  });
});

describe('the log capture form', () => {
  const LOG = { companyId: 1, name: '电池簇日志', deviceIds: [3, 4], range: ['2026-11-29T10:00:00.000Z', '2026-11-29T12:00:00.000Z'] as [string, string] };
  it('sends the range as from/to and the timeout when given', () => {
    const r = checkLog({ ...LOG, timeoutMinutes: 15 }, t);
    expect(r.ok && r.body).toMatchObject({ from: LOG.range[0], to: LOG.range[1], timeoutMinutes: 15, deviceIds: [3, 4] });
  });
  it('refuses a range whose start is not before its end, no device, a timeout over 1440', () => {
    const fields = (v: Parameters<typeof checkLog>[0]) => {
      const r = checkLog(v, t);
      return r.ok ? {} : r.errors.fields;
    };
    expect(fields({ ...LOG, range: [LOG.range[1], LOG.range[0]] })).toEqual({ range: [LOG_RANGE_INVALID] });
    expect(fields({ ...LOG, deviceIds: [] })).toEqual({ deviceIds: ['至少选择一台设备'] });
    expect(fields({ ...LOG, timeoutMinutes: 2000 })).toEqual({ timeoutMinutes: ['上传超时须为1-1440'] });
  });
});

// ── State tags ─────────────────────────────────────────────────────────────────

describe('state tags with the spec\'s labels (product-spec §4)', () => {
  it('shows every upgrade task state by its label; failures red, success green, waiting grey', () => {
    render(<>{FIRMWARE_TASK_STATES.map((s) => <TaskStateTag key={s} state={s} progress={s === 'downloading' ? 42 : null} />)}</>);
    for (const s of FIRMWARE_TASK_STATES) {
      const tag = screen.getByTestId(`task-state-${s}`);
      expect(tag.textContent).toBe(s === 'downloading' ? '下载中 42%' : FIRMWARE_TASK_STATE_LABELS[s]);
      const tone = tag.getAttribute('data-tone');
      if (FIRMWARE_TASK_FAILED_STATES.includes(s)) expect(tone, s).toBe('error');
      else if (s === 'success') expect(tone).toBe('success');
      else if (s === 'pendingStart' || s === 'cancelled') expect(tone, s).toBe('default');
      else expect(['processing', 'warning'], s).toContain(tone);
    }
    // the spec's eight
    expect(['待开始', '下发成功', '下发失败', '下载失败', '校验失败', '刷写失败', '升级失败', '升级成功'].every((l) => screen.queryByText(l))).toBe(true);
  });

  it('shows every log upload state by its label', () => {
    render(<>{FIRMWARE_LOG_STATES.map((s) => <LogStateTag key={s} state={s} />)}</>);
    for (const s of FIRMWARE_LOG_STATES) expect(screen.getByTestId(`log-state-${s}`).textContent).toBe(FIRMWARE_LOG_STATE_LABELS[s]);
    expect(['上传中', '上传完成', '上传超时', '上传失败'].every((l) => screen.queryByText(l))).toBe(true);
  });
});

// ── Screens ────────────────────────────────────────────────────────────────────

const counts = (over: Partial<Record<FirmwareTaskState | 'total', number>> = {}) => ({
  total: 0, ...Object.fromEntries(FIRMWARE_TASK_STATES.map((s) => [s, 0])), ...over,
}) as Record<FirmwareTaskState | 'total', number>;

const ROLLOUT_ROW = (state: string, actions: FirmwareRolloutAction[]) => ({
  id: 9, companyId: 1, companyName: '演示公司', name: 'BMS 1.4.0', packageId: 5, packageName: 'bms-main', packageVersion: '1.4.0', deviceType: 'bms', state,
  target: { packageId: 5, siteIds: [1], productIds: [], versions: [], deviceIds: [] }, siteNames: ['演示站'],
  grouping: { canarySize: 1, groupSize: null, groupPercent: 50 }, successThreshold: 50, errorThreshold: 50, requireApproval: true,
  approvedByName: null, approvedAt: null, approvalNote: null, startAt: null, windows: [{ days: [6, 7], start: '22:00', end: '06:00' }], safeGate: true,
  startedAt: null, finishedAt: null, pauseReason: null, remark: null, counts: counts({ total: 2, pendingStart: 2 }), actions,
  createdAt: '2026-11-29T10:00:00Z', updatedAt: '2026-11-29T10:00:00Z', createdByName: 'admin',
  groups: [{ id: 1, no: 1, canary: true, state: 'waiting', successThreshold: 50, errorThreshold: 50, startedAt: null, finishedAt: null, counts: counts({ total: 1, pendingStart: 1 }) }],
});
const TASK = (state: FirmwareTaskState, extra: Partial<FirmwareTaskRecord> = {}): FirmwareTaskRecord => ({
  id: 100, rolloutId: 9, rolloutName: 'BMS 1.4.0', groupId: 1, groupNo: 1, deviceId: 3, deviceCode: 'BMS-001', deviceName: '1号BMS', siteId: 1, siteName: '演示站',
  fromVersion: '1.3.0', toVersion: '1.4.0', reportedVersion: null, state, progress: null, waitReason: null, reason: null, attempts: 1,
  issuedAt: null, finishedAt: null, updatedAt: '2026-11-29T10:00:00Z', ...extra,
});

describe('the rollout detail', () => {
  it('offers only the actions the server allows; approval sends the note', async () => {
    allow(firmwareRolloutEndpoints.approve, firmwareRolloutEndpoints.reject, firmwareRolloutEndpoints.one, firmwareTaskEndpoints.page);
    const { calls } = serve({
      [firmwareRolloutEndpoints.one.path]: () => ROLLOUT_ROW('pendingApproval', ['approve', 'reject', 'stop']),
      [firmwareTaskEndpoints.page.path]: () => page([TASK('pendingStart')]),
    });
    renderAt('/firmware/upgrade?id=9', <RolloutDetail id={9} onEdit={() => undefined} />);
    await screen.findByTestId('rollout-detail');
    expect(screen.getByTestId('rollout-state-pendingApproval').textContent).toBe('待审批');
    expect(screen.getByTestId('rollout-approve')).toBeTruthy();
    expect(screen.getByTestId('rollout-reject')).toBeTruthy();
    expect(screen.queryByTestId('rollout-start')).toBeNull();
    expect(screen.queryByTestId('rollout-pause')).toBeNull();
    fireEvent.click(screen.getByTestId('rollout-approve'));
    fireEvent.change(await screen.findByTestId('action-note'), { target: { value: '已核对发布说明' } });
    fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    await waitFor(() => expect(calls.some((c) => path(c) === firmwareRolloutEndpoints.approve.path)).toBe(true));
    expect(body(calls.find((c) => path(c) === firmwareRolloutEndpoints.approve.path)!)).toEqual({ id: 9, note: '已核对发布说明' });
  });

  it('updates the device tasks live: a FirmwareProgress event of the rollout shows the new state without a reload', async () => {
    allow(firmwareRolloutEndpoints.one, firmwareTaskEndpoints.page);
    let state: FirmwareTaskState = 'downloading';
    serve({
      [firmwareRolloutEndpoints.one.path]: () => ROLLOUT_ROW('running', ['pause', 'stop']),
      [firmwareTaskEndpoints.page.path]: () => page([TASK(state, { progress: 40, waitReason: state === 'downloaded' ? 'dischargeWindow' : null })]),
    });
    renderAt('/firmware/upgrade?id=9', <RolloutDetail id={9} onEdit={() => undefined} />);
    const table = await screen.findByTestId('task-table');
    await within(table).findByTestId('task-state-downloading');
    expect(within(table).getByTestId('task-state-downloading').textContent).toBe('下载中 40%');
    state = 'downloaded';
    act(() => liveEvents.deliver({ event: 'FirmwareProgress', data: JSON.stringify({ rolloutId: 9 }), id: '1' }));
    await within(table).findByTestId('task-state-downloaded');
    expect(within(table).getByTestId('wait-dischargeWindow').textContent).toContain('处于运行策略的放电时段');
  }, 30_000);
});

describe('the package list', () => {
  it('shows a refused delete (a running rollout uses the package: 406) in a dialog with the server\'s text', async () => {
    allow(firmwarePackageEndpoints.page, firmwarePackageEndpoints.delete);
    const refusal = FIRMWARE_ERRORS.packageInUse('BMS 1.4.0');
    serve({
      [firmwarePackageEndpoints.page.path]: () =>
        page([{
          id: 5, companyId: 1, companyName: '演示公司', deviceType: 'bms', productId: null, productName: null, name: 'bms-main', version: '1.4.0', upgradeFrom: null,
          releaseNotes: null, fileName: 'bms.bin', size: 2048, sha256: 'a'.repeat(64), signed: true, signatureAlgorithm: 'ed25519', keyId: 1, keyName: '产线密钥',
          state: 'released', rolloutCount: 1, activeRolloutCount: 1, deviceCount: 0, createdAt: '2026-11-29T10:00:00Z', updatedAt: '2026-11-29T10:00:00Z', createdByName: 'admin',
        }]),
      [firmwarePackageEndpoints.delete.path]: () => json(envelope(null, 'A0406', refusal), 406),
    });
    renderAt('/firmware/firmware', <FirmwarePage />);
    fireEvent.click(await screen.findByTestId('package-delete'));
    fireEvent.click(await screen.findByRole('button', { name: '删 除' }));
    expect((await screen.findByTestId('delete-refused')).textContent).toBe(refusal);
  });
});
