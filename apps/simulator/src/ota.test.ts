import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OtaCommandPayload, OtaReport } from '@ess/contract';
import { commandReplySchema, deviceTopic, logReportSchema, otaReportSchema, parseDeviceTopic, statusPayloadSchema } from '@ess/contract';
import type { MqttClient } from 'mqtt';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
import { manualClock } from './clock.ts';
import { createFleet } from './fleet.ts';
import { currentFirmware, parseOtaFaults, renderDeviceLog } from './ota.ts';
import { loadState, saveState } from './persist.ts';
import { createState } from './state.ts';
import { step } from './step.ts';
import { runSimulator, type SimulatorHandle } from './agent.ts';

/** One message seen on the broker. */
interface Seen {
  kind: string;
  device: string;
  body: Record<string, unknown>;
}

const PKG = randomBytes(300 * 1024);
const PKG_SHA = createHash('sha256').update(PKG).digest('hex');
const NOW = Date.UTC(2025, 5, 10, 1, 0);

/** The package server and log peer: what the server's firmware module will be. */
class Peer {
  server!: Server;
  base = '';
  ranges: (string | null)[] = [];
  brokenServed = new Set<string>();
  uploads: { path: string; contentType: string | undefined; body: string }[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.route(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    if (req.method === 'PUT') {
      const parts: Buffer[] = [];
      for await (const p of req) parts.push(p as Buffer);
      if (url.pathname === '/log-refused') {
        res.writeHead(500).end('no');
        return;
      }
      this.uploads.push({ path: `${url.pathname}${url.search}`, contentType: req.headers['content-type'], body: Buffer.concat(parts).toString('utf8') });
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/missing') {
      res.writeHead(404).end();
      return;
    }
    const range = req.headers.range ?? null;
    if (url.pathname === '/broken') this.ranges.push(range);
    // /broken and /no-range: the first connection breaks after 40 % of the body; /no-range then ignores Range.
    if ((url.pathname === '/broken' || url.pathname === '/no-range') && !this.brokenServed.has(url.pathname)) {
      this.brokenServed.add(url.pathname);
      res.writeHead(200, { 'Content-Length': PKG.length, 'Content-Type': 'application/octet-stream' });
      res.write(PKG.subarray(0, Math.floor(PKG.length * 0.4)), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    const partial = range !== null && url.pathname !== '/no-range';
    const start = partial ? Number(/bytes=(\d+)-/.exec(range)?.[1] ?? 0) : 0;
    const body = PKG.subarray(start);
    res.writeHead(partial ? 206 : 200, {
      'Content-Length': body.length,
      ...(partial ? { 'Content-Range': `bytes ${start}-${PKG.length - 1}/${PKG.length}` } : {}),
    });
    res.end(body);
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

let broker: EmbeddedBroker;
let observer: MqttClient;
let sim: SimulatorHandle;
const peer = new Peer();
const seen: Seen[] = [];
const clock = manualClock(NOW);

beforeAll(async () => {
  broker = await startEmbeddedBroker(0);
  await peer.start();
  observer = await connectAsync(broker.url, { clientId: 'ota-observer', reconnectPeriod: 0 });
  observer.on('message', (topic, payload) => {
    const t = parseDeviceTopic(topic);
    if (t) seen.push({ kind: t.kind, device: t.deviceCode, body: JSON.parse(payload.toString('utf8')) as Record<string, unknown> });
  });
  await observer.subscribeAsync('ess/#', { qos: 1 });
  sim = await runSimulator({ mqttUrl: broker.url, fleet: createFleet(1, 1), intervalMs: 0, clock, flashMs: 200, otaFaults: { 'SH01-AC-01': 'issue' } });
});

afterAll(async () => {
  await sim?.stop();
  await observer?.endAsync();
  await broker?.close();
  await peer.stop();
});

/** Polls what was seen from index `from` on until `pick` finds something. */
async function until<T>(pick: (list: Seen[]) => T | undefined, from = 0, timeoutMs = 8000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const hit = pick(seen.slice(from));
    if (hit !== undefined) return hit;
    if (Date.now() > end) throw new Error(`not seen within ${timeoutMs} ms; last: ${JSON.stringify(seen.slice(-5))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const otaOf = (device: string, taskId: number) => (list: Seen[]) =>
  list.filter((m) => m.kind === 'ota' && m.device === device && m.body.taskId === taskId).map((m) => otaReportSchema.parse(m.body));
/** Waits for the task's report of `step` and returns all the task's reports so far. */
const otaUntil = (device: string, taskId: number, step: OtaReport['step'], from = 0) =>
  until((list) => {
    const reports = otaOf(device, taskId)(list);
    return reports.some((r) => r.step === step) ? reports : undefined;
  }, from);

let requests = 0;
async function send(device: string, cmd: Omit<OtaCommandPayload, 'requestId' | 'ts'>) {
  const requestId = `ota-${++requests}`;
  await observer.publishAsync(deviceTopic('SH01', device, 'command'), JSON.stringify({ ...cmd, requestId, ts: clock.now() }), { qos: 1 });
  return until((list) => {
    const m = list.find((x) => x.kind === 'command/reply' && x.body.requestId === requestId);
    return m ? commandReplySchema.parse(m.body) : undefined;
  });
}

const download = (taskId: number, version: string, path = '/pkg', sha256 = PKG_SHA, name = 'pcs-dsp') =>
  ({ command: 'otaDownload', params: { taskId, name, version, url: `${peer.base}${path}?token=t${taskId}`, sha256, size: PKG.length } }) as const;

describe('simulated OTA over MQTT with a real HTTP peer', () => {
  it('downloads with progress, verifies, flashes offline, reboots and reports success with the new version on its status', async () => {
    const from = seen.length;
    expect(sim.firmware('SH01-PCS-01')).toEqual({ name: 'pcs-dsp', version: '2.8.4' });
    expect(await send('SH01-PCS-01', download(1, '2.9.0'))).toMatchObject({ ok: true, result: {} });
    const reports = await otaUntil('SH01-PCS-01', 1, 'downloaded', from);
    const progress = reports.filter((r) => r.step === 'downloading').map((r) => r.progress);
    expect(progress[0]).toBe(0);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect([...progress].sort((a, b) => a! - b!)).toEqual(progress);
    expect(progress.every((p) => p! % 20 === 0 && p! < 100)).toBe(true);
    expect(reports.at(-1)).toMatchObject({ step: 'downloaded', progress: 100 });

    const flashFrom = seen.length;
    expect(await send('SH01-PCS-01', { command: 'otaFlash', params: { taskId: 1, version: '2.9.0' } })).toMatchObject({ ok: true, result: { taskId: 1, version: '2.9.0' } });
    const done = await otaUntil('SH01-PCS-01', 1, 'success', flashFrom);
    expect(done.map((r) => r.step)).toEqual(['flashing', 'success']);
    expect(done[1]!.firmware).toEqual({ name: 'pcs-dsp', version: '2.9.0' });
    const after = seen.slice(flashFrom).filter((m) => m.device === 'SH01-PCS-01' && (m.kind === 'status' || m.kind === 'ota'));
    const order = after.map((m) => (m.kind === 'status' ? (statusPayloadSchema.parse(m.body).online ? 'online' : 'offline') : String(m.body.step)));
    expect(order).toEqual(['flashing', 'offline', 'online', 'success']);
    const online = statusPayloadSchema.parse(after[2]!.body);
    expect(online.firmware).toEqual({ name: 'pcs-dsp', version: '2.9.0' });
    expect(sim.firmware('SH01-PCS-01')).toEqual({ name: 'pcs-dsp', version: '2.9.0' });
    // Flashed: nothing is staged any more.
    expect(await send('SH01-PCS-01', { command: 'otaFlash', params: { taskId: 1, version: '2.9.0' } })).toMatchObject({ ok: false, error: 'nothing staged for task 1' });
  });

  it('resumes with Range after the connection breaks mid-body', async () => {
    const from = seen.length;
    expect((await send('SH01-EMS-01', download(2, '3.3.0', '/broken', PKG_SHA, 'ems-controller'))).ok).toBe(true);
    await otaUntil('SH01-EMS-01', 2, 'downloaded', from);
    expect(peer.ranges[0]).toBeNull();
    expect(peer.ranges).toHaveLength(2);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(peer.ranges[1] ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(PKG.length);

    // A server that answers a Range request with the whole file (200): the device starts over and still verifies.
    expect((await send('SH01-EMS-01', download(6, '3.3.1', '/no-range', PKG_SHA, 'ems-controller'))).ok).toBe(true);
    await otaUntil('SH01-EMS-01', 6, 'downloaded', from);
  });

  it('reports verifyFailed for a wrong SHA-256, downloadFailed for an HTTP error, and refuses to flash what is not staged', async () => {
    const from = seen.length;
    expect((await send('SH01-BMS-01', download(3, '2.0.0', '/pkg', 'b'.repeat(64), 'bms-master'))).ok).toBe(true);
    const bad = await otaUntil('SH01-BMS-01', 3, 'verifyFailed', from);
    expect(bad.at(-1)!.reason).toBe(`sha256 mismatch: got ${PKG_SHA}`);
    expect(await send('SH01-BMS-01', { command: 'otaFlash', params: { taskId: 3, version: '2.0.0' } })).toMatchObject({ ok: false, error: 'nothing staged for task 3' });

    expect((await send('SH01-BMS-01', download(4, '2.0.0', '/missing', PKG_SHA, 'bms-master'))).ok).toBe(true);
    const missing = await otaUntil('SH01-BMS-01', 4, 'downloadFailed', from);
    expect(missing.at(-1)!.reason).toBe('HTTP 404');

    expect((await send('SH01-BMS-01', { ...download(7, '2.0.0', '/pkg', PKG_SHA, 'bms-master'), params: { ...download(7, '2.0.0', '/pkg', PKG_SHA, 'bms-master').params, size: PKG.length + 1 } })).ok).toBe(true);
    expect((await otaUntil('SH01-BMS-01', 7, 'verifyFailed', from)).at(-1)!.reason).toBe(`size ${PKG.length} bytes, expected ${PKG.length + 1}`);
    expect(sim.firmware('SH01-BMS-01')).toEqual({ name: 'bms-master', version: '1.9.0' });
  });

  it('answers alreadyCurrent and reports success at once for the version it runs', async () => {
    const from = seen.length;
    expect(await send('SH01-BMS-01', download(5, '1.9.0', '/pkg', PKG_SHA, 'bms-master'))).toMatchObject({ ok: true, result: { alreadyCurrent: true } });
    const reports = await otaUntil('SH01-BMS-01', 5, 'success', from);
    expect(reports).toEqual([expect.objectContaining({ step: 'success', firmware: { name: 'bms-master', version: '1.9.0' } })]);
  });

  it('gives each injected fault its state, and clearing the fault lets the next try through', async () => {
    // issue (set by the otaFaults option): the command is refused.
    const refused = await send('SH01-AC-01', download(10, '5.1.0', '/pkg', PKG_SHA, 'hvac'));
    expect(refused).toMatchObject({ ok: false, error: 'upgrade refused: device busy (injected fault)' });
    expect(seen.some((m) => m.kind === 'ota' && m.body.taskId === 10)).toBe(false);

    let from = seen.length;
    sim.setOtaFault('SH01-TR-01', 'download');
    expect((await send('SH01-TR-01', download(11, '1.1.0', '/pkg', PKG_SHA, 'tr-monitor'))).ok).toBe(true);
    expect((await otaUntil('SH01-TR-01', 11, 'downloadFailed', from)).at(-1)!.reason).toBe('connection reset by peer (injected fault)');

    sim.setOtaFault('SH01-MT-MAIN', 'verify');
    expect((await send('SH01-MT-MAIN', download(12, '2.2.0', '/pkg', PKG_SHA, 'meter'))).ok).toBe(true);
    expect((await otaUntil('SH01-MT-MAIN', 12, 'verifyFailed', from)).at(-1)!.reason).toMatch(/^sha256 mismatch/);

    sim.setOtaFault('SH01-MT-ESS', 'flash');
    expect((await send('SH01-MT-ESS', download(13, '2.2.0', '/pkg', PKG_SHA, 'meter'))).ok).toBe(true);
    await otaUntil('SH01-MT-ESS', 13, 'downloaded', from);
    from = seen.length;
    expect((await send('SH01-MT-ESS', { command: 'otaFlash', params: { taskId: 13, version: '2.2.0' } })).ok).toBe(true);
    const flash = await otaUntil('SH01-MT-ESS', 13, 'flashFailed', from);
    expect(flash.map((r) => r.step)).toEqual(['flashing', 'flashFailed']);
    const back = seen.slice(from).filter((m) => m.kind === 'status' && m.device === 'SH01-MT-ESS').map((m) => statusPayloadSchema.parse(m.body));
    expect(back.at(-1)).toMatchObject({ online: true, firmware: { name: 'meter', version: '2.1.0' } });
    expect(sim.firmware('SH01-MT-ESS').version).toBe('2.1.0');

    sim.setOtaFault('SH01-AC-01', null);
    from = seen.length;
    expect(await send('SH01-AC-01', download(14, '5.1.0', '/pkg', PKG_SHA, 'hvac'))).toMatchObject({ ok: true });
    await otaUntil('SH01-AC-01', 14, 'downloaded', from);

    // otaCancel drops the staged package: flashing it is refused.
    expect(await send('SH01-AC-01', { command: 'otaCancel', params: { taskId: 14 } })).toMatchObject({ ok: true, result: { cancelled: true } });
    expect(await send('SH01-AC-01', { command: 'otaFlash', params: { taskId: 14, version: '5.1.0' } })).toMatchObject({ ok: false });
    expect(await send('SH01-AC-01', { command: 'otaCancel', params: { taskId: 14 } })).toMatchObject({ ok: true, result: { cancelled: false } });
  });

  it('refuses an invalid OTA command with the reason', async () => {
    const r = await send('SH01-PCS-01', { command: 'otaDownload', params: { taskId: 1, name: 'x', version: '1', url: 'ftp://x', sha256: 'zz', size: 1 } });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/sha256 must be 64 lower-case hex digits/);
  });
});

describe('simulated log upload', () => {
  const logsOf = (device: string, captureId: number) => (list: Seen[]) =>
    list.filter((m) => m.kind === 'log' && m.device === device && m.body.captureId === captureId).map((m) => logReportSchema.parse(m.body));
  const logUntil = (device: string, captureId: number, state: 'uploaded' | 'failed', from: number) =>
    until((list) => {
      const r = logsOf(device, captureId)(list);
      return r.some((x) => x.state === state) ? r : undefined;
    }, from);

  it('PUTs a plain-text log of the range (with what the device went through) and reports uploaded with its bytes', async () => {
    await sim.injectFault('SH01-PCS-01', 'PCS_IGBT_FAULT');
    const from = seen.length;
    const range = { from: NOW - 2 * 3_600_000, to: NOW + 60_000 };
    const reply = await send('SH01-PCS-01', { command: 'logUpload', params: { captureId: 21, ...range, url: `${peer.base}/log?token=c21` } });
    expect(reply).toMatchObject({ ok: true, result: { captureId: 21 } });
    const reports = await logUntil('SH01-PCS-01', 21, 'uploaded', from);
    expect(reports.map((r) => r.state)).toEqual(['uploading', 'uploaded']);
    const upload = peer.uploads.find((u) => u.path === '/log?token=c21')!;
    expect(upload.contentType).toBe('text/plain; charset=utf-8');
    expect(reports[1]!.bytes).toBe(Buffer.byteLength(upload.body));
    expect(upload.body.length).toBeGreaterThan(5000);
    expect(upload.body).toContain(`# range: ${new Date(range.from).toISOString()} .. ${new Date(range.to).toISOString()}`);
    expect(upload.body).toContain('# firmware: pcs-dsp 2.9.0');
    expect(upload.body).toMatch(/ERROR \[fault\] PCS_IGBT_FAULT raised: IGBT故障/);
    expect(upload.body).toMatch(/INFO {2}\[ota\] task 1 success pcs-dsp 2\.9\.0/);
    // Every line is inside the range (Shanghai time, +08:00).
    const stamps = stampsOf(upload.body);
    expect(stamps.length).toBeGreaterThan(100);
    expect(Math.min(...stamps)).toBeGreaterThanOrEqual(range.from);
    expect(Math.max(...stamps)).toBeLessThanOrEqual(range.to);
    await sim.clearFault('SH01-PCS-01');
  });

  it('reports failed when the peer refuses the upload, or with the log fault injected', async () => {
    let from = seen.length;
    expect((await send('SH01-BMS-01', { command: 'logUpload', params: { captureId: 22, from: NOW - 60_000, to: NOW, url: `${peer.base}/log-refused?token=x` } })).ok).toBe(true);
    expect((await logUntil('SH01-BMS-01', 22, 'failed', from)).at(-1)!.reason).toBe('HTTP 500');

    sim.setOtaFault('SH01-BMS-01', 'log');
    from = seen.length;
    const before = peer.uploads.length;
    expect((await send('SH01-BMS-01', { command: 'logUpload', params: { captureId: 23, from: NOW - 60_000, to: NOW, url: `${peer.base}/log?token=y` } })).ok).toBe(true);
    const failed = await logUntil('SH01-BMS-01', 23, 'failed', from);
    expect(failed.map((r) => r.state)).toEqual(['uploading', 'failed']);
    expect(peer.uploads.length).toBe(before);
  });
});

/** The epoch ms of each log line (`2025-06-10 09:00:00.000 +08:00 …`). */
const stampsOf = (text: string) =>
  text.split('\n').filter((l) => /^\d{4}-/.test(l)).map((l) => Date.parse(`${l.slice(0, 10)}T${l.slice(11, 23)}${l.slice(24, 30)}`));

describe('log file and settings', () => {
  it('sizes the log by the range: one self-check a minute, at most 2000 of them for a month', () => {
    const fleet = createFleet(1, 1);
    const station = fleet.stations[0]!;
    const device = station.devices.find((d) => d.type === 'pcs')!;
    const render = (span: number) =>
      renderDeviceLog({ station, device, firmware: { name: 'pcs-dsp', version: '2.8.4' }, from: NOW - span, to: NOW, now: NOW, journal: [], incidents: [], values: { activePower: 10 } });
    const hour = render(3_600_000);
    const day = render(86_400_000);
    // Nothing after `to`, nothing before `from`, whatever the seeded extras (an NTP line now and then).
    expect(Math.max(...stampsOf(day))).toBe(NOW);
    expect(Math.min(...stampsOf(day))).toBe(NOW - 86_400_000);
    expect(day).toContain('[sys] ntp sync ok');
    expect(hour.split('\n').filter((l) => l.includes('[sys] self-check')).length).toBe(61);
    expect(hour).toContain('[data] snapshot activePower=10');
    const month = render(30 * 86_400_000);
    const checks = month.split('\n').filter((l) => l.includes('[sys] self-check')).length;
    expect(checks).toBeGreaterThan(1500);
    expect(checks).toBeLessThanOrEqual(2001);
    expect(Buffer.byteLength(month)).toBeLessThan(400_000);
    expect(Buffer.byteLength(hour)).toBeGreaterThan(4000);
  });

  it('keeps a flashed version through the physics steps and a restart from the state file, which also ends a flash cut short', async () => {
    const fleet = createFleet(1, 1);
    const s0 = createState(fleet, NOW);
    const station = s0.stations[0]!;
    const pcs = station.def.devices.find((d) => d.type === 'pcs')!;
    expect(currentFirmware(station, pcs)).toEqual({ name: 'pcs-dsp', version: '2.8.4' });
    station.dyn.firmware = { [pcs.code]: { name: 'pcs-dsp', version: '2.9.0' } };
    station.dyn.controls.rebooting[pcs.code] = true;
    const s1 = step(s0, 600_000, NOW + 600_000);
    expect(currentFirmware(s1.stations[0]!, pcs).version).toBe('2.9.0');
    const dir = await mkdtemp(join(tmpdir(), 'ess-ota-'));
    try {
      await saveState(join(dir, 'state.json'), s1);
      const resumed = (await loadState(join(dir, 'state.json'), fleet, NOW + 600_000))!;
      expect(currentFirmware(resumed.stations[0]!, pcs)).toEqual({ name: 'pcs-dsp', version: '2.9.0' });
      expect(resumed.stations[0]!.dyn.controls.rebooting).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('parses SIM_OTA_FAULTS and refuses an unknown fault point', () => {
    expect(parseOtaFaults('SH01-PCS-01=flash, BE01-BMS-01=verify')).toEqual({ 'SH01-PCS-01': 'flash', 'BE01-BMS-01': 'verify' });
    expect(parseOtaFaults('')).toEqual({});
    expect(() => parseOtaFaults('SH01-PCS-01=explode')).toThrow(/issue\|download\|verify\|flash\|log\|cut/);
  });
});
