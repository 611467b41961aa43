import { describe, expect, it } from 'vitest';
import {
  OTA_COMMAND_NAMES, deviceCommandPayloadSchema, isOtaCommand, logReportSchema, otaCommandPayloadSchema, otaReportSchema,
} from './ota.ts';
import { SERVER_SUBSCRIPTIONS, deviceTopic, parseDeviceTopic, statusPayloadSchema } from './telemetry.ts';

const SHA = 'a'.repeat(64);
const download = {
  requestId: 'r1', ts: 1, command: 'otaDownload',
  params: { taskId: 7, name: 'pcs-dsp', version: '2.9.0', url: 'http://127.0.0.1:8080/api/manager/firmware/device/package?token=x', sha256: SHA, size: 1024 },
};
const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('OTA and log over MQTT', () => {
  it('builds and parses the ota and log topics, and the server subscribes to them', () => {
    expect(deviceTopic('SH01', 'SH01-PCS-01', 'ota')).toBe('ess/SH01/SH01-PCS-01/ota');
    expect(parseDeviceTopic('ess/SH01/SH01-PCS-01/ota')).toEqual({ siteCode: 'SH01', deviceCode: 'SH01-PCS-01', kind: 'ota' });
    expect(parseDeviceTopic('ess/SH01/SH01-PCS-01/log')).toEqual({ siteCode: 'SH01', deviceCode: 'SH01-PCS-01', kind: 'log' });
    expect(parseDeviceTopic('ess/SH01/SH01-PCS-01/ota/extra')).toBeNull();
    expect(parseDeviceTopic('ess/SH01/SH01-PCS-01/firmware')).toBeNull();
    expect(SERVER_SUBSCRIPTIONS.ota).toBe('ess/+/+/ota');
    expect(SERVER_SUBSCRIPTIONS.log).toBe('ess/+/+/log');
  });

  it('accepts the four commands and refuses bad parameters with a clear message', () => {
    expect(otaCommandPayloadSchema.safeParse(download).success).toBe(true);
    expect(otaCommandPayloadSchema.safeParse({ requestId: 'r2', ts: 1, command: 'otaFlash', params: { taskId: 7, version: '2.9.0' } }).success).toBe(true);
    expect(otaCommandPayloadSchema.safeParse({ requestId: 'r3', ts: 1, command: 'otaCancel', params: { taskId: 7 } }).success).toBe(true);
    const log = { requestId: 'r4', ts: 1, command: 'logUpload', params: { captureId: 3, from: 1000, to: 2000, url: 'https://ess.example.com/up?token=y' } };
    expect(otaCommandPayloadSchema.safeParse(log).success).toBe(true);

    expect(firstError(otaCommandPayloadSchema.safeParse({ ...download, params: { ...download.params, sha256: 'A'.repeat(64) } }))).toMatch(/sha256/);
    expect(firstError(otaCommandPayloadSchema.safeParse({ ...download, params: { ...download.params, url: 'ftp://x/y' } }))).toMatch(/http/);
    expect(firstError(otaCommandPayloadSchema.safeParse({ ...download, params: { ...download.params, url: '/relative' } }))).toMatch(/absolute/);
    expect(otaCommandPayloadSchema.safeParse({ ...download, params: { ...download.params, taskId: 0 } }).success).toBe(false);
    expect(otaCommandPayloadSchema.safeParse({ ...download, params: { ...download.params, size: -1 } }).success).toBe(false);
    expect(firstError(otaCommandPayloadSchema.safeParse({ ...log, params: { ...log.params, from: 3000 } }))).toBe('from must not be after to');
  });

  it('routes every device command through one schema: the thing model commands and the OTA ones', () => {
    expect(deviceCommandPayloadSchema.safeParse(download).success).toBe(true);
    expect(deviceCommandPayloadSchema.safeParse({ requestId: 'r', ts: 1, command: 'reboot', params: {} }).success).toBe(true);
    expect(deviceCommandPayloadSchema.safeParse({ requestId: 'r', ts: 1, command: 'otaExplode', params: {} }).success).toBe(false);
    expect(OTA_COMMAND_NAMES.every(isOtaCommand)).toBe(true);
    expect(isOtaCommand('reboot')).toBe(false);
  });

  it('validates ota reports: success carries the firmware, downloading its progress', () => {
    expect(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'downloading', progress: 40 }).success).toBe(true);
    expect(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'success', firmware: { name: 'pcs-dsp', version: '2.9.0' } }).success).toBe(true);
    expect(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'verifyFailed', reason: 'sha256 mismatch' }).success).toBe(true);
    expect(firstError(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'success' }))).toMatch(/firmware/);
    expect(firstError(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'downloading' }))).toMatch(/progress/);
    expect(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'downloading', progress: 101 }).success).toBe(false);
    expect(otaReportSchema.safeParse({ ts: 1, taskId: 7, step: 'rebooting' }).success).toBe(false);
  });

  it('validates log reports and the firmware on the status', () => {
    expect(logReportSchema.safeParse({ ts: 1, captureId: 3, state: 'uploaded', bytes: 5000 }).success).toBe(true);
    expect(logReportSchema.safeParse({ ts: 1, captureId: 3, state: 'failed', reason: 'HTTP 500' }).success).toBe(true);
    expect(logReportSchema.safeParse({ ts: 1, captureId: 3, state: 'timeout' }).success).toBe(false);
    expect(statusPayloadSchema.parse({ ts: 1, online: true, firmware: { name: 'pcs-dsp', version: '2.8.4' } }).firmware).toEqual({ name: 'pcs-dsp', version: '2.8.4' });
    expect(statusPayloadSchema.parse({ ts: 1, online: false }).firmware).toBeUndefined();
    expect(statusPayloadSchema.safeParse({ ts: 1, online: true, firmware: { name: '', version: '1' } }).success).toBe(false);
  });
});
