import { createHash } from 'node:crypto';
import type {
  FirmwareInfo, LogReport, LogUploadParams, OtaCommandPayload, OtaDownloadParams, OtaFaultPoint, OtaReport,
} from '@ess/contract';
import { OTA_FAULT_POINTS, utcOffsetMinutes } from '@ess/contract';
import type { Clock } from './clock.ts';
import type { CommandOutcome } from './commands.ts';
import type { DeviceDef, StationDef } from './fleet.ts';
import { hash01, hashRange } from './random.ts';
import type { StationState } from './state.ts';

/**
 * The device side of firmware upgrades (OTA) and log capture (contract ota.ts, docs/mqtt.md):
 *
 * - `otaDownload`: replies, then GETs the package (resuming with `Range` after a broken
 *   connection), reports `downloading` every 20 %, checks size and SHA-256 and stages it
 *   (`downloaded`) or reports `downloadFailed` / `verifyFailed`. Already on the version: replies
 *   `{ alreadyCurrent: true }` and reports `success`.
 * - `otaFlash`: replies, reports `flashing`, goes offline for `flashMs`, reboots and comes back
 *   online with the new firmware on its status, then reports `success` (or `flashFailed`, the old
 *   version kept).
 * - `logUpload`: replies, reports `uploading`, PUTs a plain-text log of the range (its journal,
 *   the incidents it knows, periodic self-checks) and reports `uploaded` with the bytes, or `failed`.
 *
 * Faults are injected per device (`OtaFaultPoint`): the simulator handle's `setOtaFault`.
 */

/** The firmware a device runs: what it flashed last, else the fleet's (the demo seed's device table). */
export function currentFirmware(station: StationState, device: DeviceDef): FirmwareInfo {
  return station.dyn.firmware?.[device.code] ?? { name: device.firmwareName, version: device.firmwareVersion };
}

/** SIM_OTA_FAULTS: `DEVICE=point,…` → faults by device code. */
export function parseOtaFaults(raw: string | undefined): Record<string, OtaFaultPoint> {
  const out: Record<string, OtaFaultPoint> = {};
  for (const item of (raw ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    const [code, point] = item.split('=').map((x) => x.trim());
    if (!code || !(OTA_FAULT_POINTS as readonly string[]).includes(point ?? '')) {
      throw new Error(`SIM_OTA_FAULTS: "${item}" is not DEVICE=${OTA_FAULT_POINTS.join('|')}`);
    }
    out[code] = point as OtaFaultPoint;
  }
  return out;
}

// ── Journal: what a device remembers for its log ─────────────────────────────────────

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export interface JournalEntry {
  ts: number;
  level: LogLevel;
  /** Subsystem tag: sys, mqtt, cmd, fault, ota, log. */
  tag: string;
  text: string;
}

/** Entries kept per device (oldest dropped first). */
const JOURNAL_LIMIT = 5000;

/** Per device, the things it did and saw while the simulator ran (in memory). */
export class DeviceJournal {
  private readonly entries = new Map<string, JournalEntry[]>();

  add(deviceCode: string, entry: JournalEntry): void {
    let list = this.entries.get(deviceCode);
    if (!list) this.entries.set(deviceCode, (list = []));
    list.push(entry);
    if (list.length > JOURNAL_LIMIT) list.splice(0, list.length - JOURNAL_LIMIT);
  }

  between(deviceCode: string, from: number, to: number): JournalEntry[] {
    return (this.entries.get(deviceCode) ?? []).filter((e) => e.ts >= from && e.ts <= to);
  }
}

// ── The log file ──────────────────────────────────────────────────────────────────────

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `2025-06-10 09:00:00.000 +08:00` in the station's zone. */
export function logTimestamp(ts: number, timeZone: string): string {
  const off = utcOffsetMinutes(ts, timeZone);
  const d = new Date(ts + off * 60_000);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)} ${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** At most this many periodic self-check lines per file (a month's range: one per ~22 min). */
const MAX_PERIODIC_LINES = 2000;

export interface DeviceLogInput {
  station: StationDef;
  device: DeviceDef;
  firmware: FirmwareInfo;
  from: number;
  to: number;
  /** The device's clock: nothing after it is logged. */
  now: number;
  journal: readonly JournalEntry[];
  /** Incidents of the station's operating life that touch the device, as it saw them. */
  incidents: StationState['dyn']['incidents'];
  /** The device's latest readings, logged as a snapshot when `now` is in the range. */
  values: Record<string, unknown>;
}

/**
 * A device's log of [from, to] as plain text: a header, then time-ordered lines `timestamp LEVEL
 * [tag] text` — a self-check every minute or more (CPU, memory, board temperature, signal),
 * the incidents it went through, what its journal holds (statuses, faults, commands, OTA steps)
 * and a snapshot of its readings. A few KB for an hour, up to some hundreds of KB for a month.
 */
export function renderDeviceLog(input: DeviceLogInput): string {
  const { station, device, firmware, from, now, journal } = input;
  const to = Math.min(input.to, now);
  const lines: JournalEntry[] = [...journal];
  const span = Math.max(0, to - from);
  const every = Math.max(60_000, Math.ceil(span / MAX_PERIODIC_LINES / 60_000) * 60_000);
  for (let t = Math.ceil(from / every) * every; t <= to; t += every) {
    const cpu = hashRange(4, 38, device.code, t, 'cpu').toFixed(0);
    const mem = hashRange(31, 64, device.code, t, 'mem').toFixed(0);
    const board = hashRange(34, 52, device.code, t, 'temp').toFixed(1);
    const rssi = hashRange(-82, -55, device.code, t, 'rssi').toFixed(0);
    lines.push({ ts: t, level: 'DEBUG', tag: 'sys', text: `self-check ok: cpu ${cpu}%, mem ${mem}%, board ${board} °C, rssi ${rssi} dBm` });
    if (hash01(device.code, t, 'sync') < 0.02 && t + 1500 <= to) lines.push({ ts: t + 1500, level: 'INFO', tag: 'sys', text: 'ntp sync ok, offset 3 ms' });
  }
  for (const i of input.incidents) {
    const touches = i.subject === device.code || i.codeDevice === device.code || i.silent.includes(device.code);
    if (!touches) continue;
    const what = i.code ?? (i.kind === 'offline' ? 'link' : 'cabinet link');
    if (i.start >= from && i.start <= to) {
      const silent = i.silent.includes(device.code);
      lines.push({ ts: i.start, level: silent ? 'WARN' : 'ERROR', tag: silent ? 'comm' : 'fault', text: silent ? `${what}: link to gateway lost` : `${what} raised` });
    }
    if (i.end >= from && i.end <= to) lines.push({ ts: i.end, level: 'INFO', tag: 'fault', text: `${what} cleared` });
  }
  if (now >= from && now <= input.to) {
    const shown = Object.entries(input.values).slice(0, 12).map(([k, v]) => `${k}=${String(v)}`).join(' ');
    lines.push({ ts: now, level: 'INFO', tag: 'data', text: `snapshot ${shown}` });
  }
  lines.sort((a, b) => a.ts - b.ts);
  const head = [
    `# ESS device log`,
    `# device: ${device.code} (${device.name}, ${device.type}), serial ${device.barcode}`,
    `# station: ${station.code} ${station.name}, zone ${station.timeZone}`,
    `# firmware: ${firmware.name} ${firmware.version}`,
    `# range: ${new Date(from).toISOString()} .. ${new Date(input.to).toISOString()}`,
    `# generated: ${new Date(now).toISOString()}, ${lines.length} lines`,
  ];
  const body = lines.map((l) => `${logTimestamp(l.ts, station.timeZone)} ${l.level.padEnd(5)} [${l.tag}] ${l.text}`);
  return `${[...head, ...body].join('\n')}\n`;
}

// ── HTTP ──────────────────────────────────────────────────────────────────────────────

export type DownloadOutcome =
  | { ok: true; bytes: number }
  | { ok: false; step: 'downloadFailed' | 'verifyFailed'; reason: string };

export interface DownloadOptions {
  signal: AbortSignal;
  /** Called with 0–100 as bytes arrive. */
  onProgress(progress: number): void;
  /** Injected fault: the connection drops for good after the first part. */
  failDownload?: boolean;
  /** Injected fault: a byte arrives corrupted. */
  corrupt?: boolean;
  /** Attempts after a broken connection (each resumes with Range), default 5. */
  retries?: number;
  retryDelayMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

/**
 * GETs a package and checks it: resumes with `Range: bytes=N-` when the connection breaks
 * (a server answering 200 instead of 206 sends it whole again); an HTTP error, or no progress
 * after the retries, is downloadFailed; a wrong size or SHA-256 is verifyFailed. The bytes are
 * hashed as they arrive, not kept (a simulated device has nowhere to flash them to).
 */
export async function downloadPackage(p: Pick<OtaDownloadParams, 'url' | 'sha256' | 'size'>, o: DownloadOptions): Promise<DownloadOutcome> {
  let hash = createHash('sha256');
  let received = 0;
  let corrupted = false;
  let failures = 0;
  const retries = o.retries ?? 5;
  for (;;) {
    if (o.signal.aborted) return { ok: false, step: 'downloadFailed', reason: 'cancelled' };
    let res: Response;
    try {
      res = await fetch(p.url, { signal: o.signal, headers: received > 0 ? { Range: `bytes=${received}-` } : {} });
    } catch (err) {
      if (o.signal.aborted || ++failures > retries) return { ok: false, step: 'downloadFailed', reason: `connection failed: ${(err as Error).message}` };
      await sleep(o.retryDelayMs ?? 200, o.signal);
      continue;
    }
    if (res.status === 416 && received > 0) break; // nothing left to send: the whole file is here
    if (!res.ok || !res.body) return { ok: false, step: 'downloadFailed', reason: `HTTP ${res.status}` };
    if (received > 0 && res.status !== 206) {
      hash = createHash('sha256');
      received = 0;
      corrupted = false;
    }
    try {
      for await (const part of res.body) {
        const chunk = Buffer.from(part as Uint8Array);
        if (o.corrupt && !corrupted && chunk.length > 0) {
          chunk[chunk.length >> 1] = chunk[chunk.length >> 1]! ^ 0x5a;
          corrupted = true;
        }
        hash.update(chunk);
        received += chunk.length;
        o.onProgress(p.size > 0 ? Math.min(100, (received / p.size) * 100) : 100);
        if (o.failDownload && received >= Math.min(p.size / 3, 64 * 1024)) {
          await res.body.cancel().catch(() => undefined);
          return { ok: false, step: 'downloadFailed', reason: 'connection reset by peer (injected fault)' };
        }
      }
      break;
    } catch (err) {
      if (o.signal.aborted) return { ok: false, step: 'downloadFailed', reason: 'cancelled' };
      if (++failures > retries) return { ok: false, step: 'downloadFailed', reason: `connection broken after ${received} bytes: ${(err as Error).message}` };
      await sleep(o.retryDelayMs ?? 200, o.signal);
    }
  }
  if (received !== p.size) return { ok: false, step: 'verifyFailed', reason: `size ${received} bytes, expected ${p.size}` };
  const sha = hash.digest('hex');
  if (sha !== p.sha256) return { ok: false, step: 'verifyFailed', reason: `sha256 mismatch: got ${sha}` };
  return { ok: true, bytes: received };
}

/** PUTs a log file; resolves with the bytes sent or throws with the reason. */
export async function uploadLog(url: string, text: string, signal: AbortSignal): Promise<number> {
  const body = Buffer.from(text, 'utf8');
  const res = await fetch(url, { method: 'PUT', body, signal, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  await res.body?.cancel().catch(() => undefined);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return body.length;
}

// ── Per-device OTA behaviour ──────────────────────────────────────────────────────────

/** What the agent provides: reports, statuses, the current state, timers. */
export interface OtaHost {
  clock: Clock;
  /** Wall-clock ms a flash keeps the device offline. */
  flashMs: number;
  station(siteCode: string): StationState;
  report(siteCode: string, deviceCode: string, kind: 'ota', payload: OtaReport): Promise<void>;
  report(siteCode: string, deviceCode: string, kind: 'log', payload: LogReport): Promise<void>;
  /** Status offline, nothing published until back. */
  goOffline(siteCode: string, deviceCode: string): Promise<void>;
  /** Status online (with the firmware it now runs). */
  comeBack(siteCode: string, deviceCode: string): Promise<void>;
  /** Runs `fn` after `ms` unless the simulator stops first. */
  later(ms: number, fn: () => void): void;
  journal: DeviceJournal;
  /** The device's latest readings (the log's snapshot). */
  values(station: StationState, device: DeviceDef): Record<string, unknown>;
  log(message: string): void;
}

interface Staged {
  taskId: number;
  name: string;
  version: string;
}

export interface OtaRun {
  outcome: CommandOutcome;
  /** Runs after the reply is published (download, flash, upload). */
  after?: () => Promise<void>;
}

/** The OTA and log-upload behaviour of all devices of one simulator. */
export class OtaDevices {
  private readonly faults = new Map<string, OtaFaultPoint>();
  private readonly downloads = new Map<string, { taskId: number; controller: AbortController }>();
  private readonly staged = new Map<string, Staged>();
  private readonly flashing = new Set<string>();
  private readonly running = new Set<AbortController>();

  constructor(private readonly host: OtaHost) {}

  setFault(deviceCode: string, failAt: OtaFaultPoint | null): void {
    if (failAt) this.faults.set(deviceCode, failAt);
    else this.faults.delete(deviceCode);
  }

  fault(deviceCode: string): OtaFaultPoint | null {
    return this.faults.get(deviceCode) ?? null;
  }

  /** The package staged on a device, if any. */
  stagedOn(deviceCode: string): Staged | null {
    return this.staged.get(deviceCode) ?? null;
  }

  private note(deviceCode: string, level: LogLevel, tag: string, text: string): void {
    this.host.journal.add(deviceCode, { ts: this.host.clock.now(), level, tag, text });
  }

  private ota(siteCode: string, deviceCode: string, r: Omit<OtaReport, 'ts'>): Promise<void> {
    const level: LogLevel = r.step.endsWith('Failed') ? 'ERROR' : 'INFO';
    const detail = r.step === 'downloading' ? ` ${Math.round(r.progress ?? 0)}%` : r.reason ? `: ${r.reason}` : r.firmware ? ` ${r.firmware.name} ${r.firmware.version}` : '';
    this.note(deviceCode, level, 'ota', `task ${r.taskId} ${r.step}${detail}`);
    return this.host.report(siteCode, deviceCode, 'ota', { ts: this.host.clock.now(), ...r });
  }

  private logReport(siteCode: string, deviceCode: string, r: Omit<LogReport, 'ts'>): Promise<void> {
    return this.host.report(siteCode, deviceCode, 'log', { ts: this.host.clock.now(), ...r });
  }

  handle(station: StationState, device: DeviceDef, cmd: OtaCommandPayload): OtaRun {
    const site = station.def.code;
    const fail = (error: string): OtaRun => ({ outcome: { ok: false, error } });
    switch (cmd.command) {
      case 'otaDownload': {
        const p = cmd.params;
        if (this.fault(device.code) === 'issue') return fail('upgrade refused: device busy (injected fault)');
        if (this.flashing.has(device.code)) return fail('flashing: try again after the reboot');
        const fw = currentFirmware(station, device);
        if (fw.name === p.name && fw.version === p.version) {
          return { outcome: { ok: true, result: { alreadyCurrent: true } }, after: () => this.ota(site, device.code, { taskId: p.taskId, step: 'success', firmware: fw }) };
        }
        const running = this.downloads.get(device.code);
        // The same task again (its reply was lost): the download goes on.
        if (running?.taskId === p.taskId) return { outcome: { ok: true, result: {} } };
        running?.controller.abort();
        this.staged.delete(device.code);
        const controller = new AbortController();
        this.downloads.set(device.code, { taskId: p.taskId, controller });
        return { outcome: { ok: true, result: {} }, after: () => this.download(site, device, p, controller) };
      }
      case 'otaFlash': {
        const staged = this.staged.get(device.code);
        if (this.flashing.has(device.code)) return fail('already flashing');
        if (!staged || staged.taskId !== cmd.params.taskId) return fail(`nothing staged for task ${cmd.params.taskId}`);
        if (staged.version !== cmd.params.version) return fail(`staged version is ${staged.version}, not ${cmd.params.version}`);
        this.flashing.add(device.code);
        return { outcome: { ok: true, result: { taskId: staged.taskId, version: staged.version } }, after: () => this.flash(site, device, staged) };
      }
      case 'otaCancel': {
        const running = this.downloads.get(device.code);
        const staged = this.staged.get(device.code);
        let cancelled = false;
        if (running?.taskId === cmd.params.taskId) {
          running.controller.abort();
          this.downloads.delete(device.code);
          cancelled = true;
        }
        if (staged?.taskId === cmd.params.taskId && !this.flashing.has(device.code)) {
          this.staged.delete(device.code);
          cancelled = true;
        }
        if (cancelled) this.note(device.code, 'INFO', 'ota', `task ${cmd.params.taskId} cancelled`);
        return { outcome: { ok: true, result: { cancelled } } };
      }
      case 'logUpload': {
        const p = cmd.params;
        return { outcome: { ok: true, result: { captureId: p.captureId } }, after: () => this.upload(station.def, device, p) };
      }
    }
  }

  private async download(site: string, device: DeviceDef, p: OtaDownloadParams, controller: AbortController): Promise<void> {
    this.running.add(controller);
    try {
      let reported = 0;
      await this.ota(site, device.code, { taskId: p.taskId, step: 'downloading', progress: 0 });
      const progressReports: Promise<void>[] = [];
      const outcome = await downloadPackage(p, {
        signal: controller.signal,
        failDownload: this.fault(device.code) === 'download',
        corrupt: this.fault(device.code) === 'verify',
        onProgress: (progress) => {
          // Every 20 %: 20, 40, 60, 80 (100 is `downloaded`).
          const mark = Math.floor(progress / 20) * 20;
          if (mark > reported && mark < 100) {
            reported = mark;
            progressReports.push(this.ota(site, device.code, { taskId: p.taskId, step: 'downloading', progress: mark }));
          }
        },
      });
      await Promise.all(progressReports);
      if (controller.signal.aborted) return;
      if (outcome.ok) {
        this.staged.set(device.code, { taskId: p.taskId, name: p.name, version: p.version });
        await this.ota(site, device.code, { taskId: p.taskId, step: 'downloaded', progress: 100 });
      } else {
        await this.ota(site, device.code, { taskId: p.taskId, step: outcome.step, reason: outcome.reason });
      }
    } finally {
      this.running.delete(controller);
      if (this.downloads.get(device.code)?.controller === controller) this.downloads.delete(device.code);
    }
  }

  private async flash(site: string, device: DeviceDef, staged: Staged): Promise<void> {
    await this.ota(site, device.code, { taskId: staged.taskId, step: 'flashing' });
    this.note(device.code, 'WARN', 'sys', `rebooting to flash ${staged.name} ${staged.version}`);
    await this.host.goOffline(site, device.code);
    this.host.later(this.host.flashMs, () => {
      this.flashing.delete(device.code);
      this.staged.delete(device.code);
      const station = this.host.station(site);
      const failed = this.fault(device.code) === 'flash';
      if (!failed) {
        station.dyn.firmware = { ...station.dyn.firmware, [device.code]: { name: staged.name, version: staged.version } };
      }
      const fw = currentFirmware(station, device);
      this.note(device.code, 'INFO', 'sys', `boot: firmware ${fw.name} ${fw.version}`);
      void this.host
        .comeBack(site, device.code)
        .then(() =>
          failed
            ? this.ota(site, device.code, { taskId: staged.taskId, step: 'flashFailed', reason: `image write verify failed, rolled back to ${fw.version} (injected fault)` })
            : this.ota(site, device.code, { taskId: staged.taskId, step: 'success', firmware: fw }),
        )
        .catch((err: unknown) => this.host.log(`${device.code} after flash: ${(err as Error).message}`));
    });
  }

  private async upload(stationDef: StationDef, device: DeviceDef, p: LogUploadParams): Promise<void> {
    const site = stationDef.code;
    const controller = new AbortController();
    this.running.add(controller);
    try {
      await this.logReport(site, device.code, { captureId: p.captureId, state: 'uploading' });
      this.note(device.code, 'INFO', 'log', `capture ${p.captureId}: uploading ${new Date(p.from).toISOString()} .. ${new Date(p.to).toISOString()}`);
      if (this.fault(device.code) === 'log') {
        await this.logReport(site, device.code, { captureId: p.captureId, state: 'failed', reason: 'storage read error (injected fault)' });
        return;
      }
      const station = this.host.station(site);
      const text = renderDeviceLog({
        station: stationDef,
        device,
        firmware: currentFirmware(station, device),
        from: p.from,
        to: p.to,
        now: this.host.clock.now(),
        journal: this.host.journal.between(device.code, p.from, p.to),
        incidents: station.dyn.incidents,
        values: this.host.values(station, device),
      });
      try {
        const bytes = await uploadLog(p.url, text, controller.signal);
        await this.logReport(site, device.code, { captureId: p.captureId, state: 'uploaded', bytes });
      } catch (err) {
        if (controller.signal.aborted) return;
        await this.logReport(site, device.code, { captureId: p.captureId, state: 'failed', reason: (err as Error).message.slice(0, 500) });
      }
    } finally {
      this.running.delete(controller);
    }
  }

  /** Aborts downloads and uploads (the simulator stops). */
  stop(): void {
    for (const c of this.running) c.abort();
    this.running.clear();
    this.downloads.clear();
  }
}
