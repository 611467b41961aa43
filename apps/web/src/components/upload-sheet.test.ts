// @vitest-environment node
import { deviceEndpoints } from '@ess/contract/device';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch, recordUi } from '../test/http.ts';
import { uploadSheet } from './upload-sheet.ts';

afterEach(() => vi.unstubAllGlobals());

describe('uploadSheet', () => {
  const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'devices.xlsx');

  it('sends the file as multipart and answers the counts of an accepted file', async () => {
    recordUi();
    const { calls } = mockFetch(() => json(envelope({ historyId: 3, totalRows: 2, created: 2, updated: 0 })));
    await expect(uploadSheet(deviceEndpoints.import, file)).resolves.toEqual({ ok: true, result: { historyId: 3, totalRows: 2, created: 2, updated: 0 } });
    expect(calls[0]!.url).toContain('/api/manager/configure/device/import');
    expect(calls[0]!.init.body).toBeInstanceOf(FormData);
    expect((calls[0]!.init.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('reads the per-row report of a refused file, without a toast', async () => {
    const ui = recordUi();
    const errors = [{ row: 3, column: '产品编码', message: '产品 X 不存在' }];
    mockFetch(() => json({ errorCode: 'A0406', tipMsg: '导入失败：第3行「产品编码」产品 X 不存在', errorMsg: JSON.stringify({ historyId: 9, errors }), data: null }, 406));
    await expect(uploadSheet(deviceEndpoints.import, file)).resolves.toEqual({ ok: false, tip: '导入失败：第3行「产品编码」产品 X 不存在', errors });
    expect(ui.toasts).toEqual([]);
  });

  it('keeps the tip when the refusal carries no report (not xlsx)', async () => {
    recordUi();
    mockFetch(() => json({ errorCode: 'A0420', tipMsg: '上传文件必须是xlsx格式', errorMsg: '', data: null }, 406));
    await expect(uploadSheet(deviceEndpoints.import, file)).resolves.toEqual({ ok: false, tip: '上传文件必须是xlsx格式', errors: [] });
  });
});
