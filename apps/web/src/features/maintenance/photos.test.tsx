import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { checkPhotos, imageKindOf, PHOTO_MAX_BYTES } from './photos.ts';
import { PhotoUpload } from './PhotoUpload.tsx';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const t = (s: string, ...args: unknown[]) => args.reduce<string>((acc, a, i) => acc.replace(`$${i + 1}`, String(a)), s);
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const EXE = [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0];
const file = (name: string, bytes: number[], size?: number) => {
  const f = new File([new Uint8Array(bytes)], name);
  if (size !== undefined) Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('photo rules before upload', () => {
  it('recognises JPEG and PNG by their first bytes only', () => {
    expect(imageKindOf(new Uint8Array(JPEG))).toBe('jpeg');
    expect(imageKindOf(new Uint8Array(PNG))).toBe('png');
    expect(imageKindOf(new Uint8Array(EXE))).toBeNull();
    expect(imageKindOf(new Uint8Array([]))).toBeNull();
  });

  it('refuses an .exe renamed .png, a 25 MB image, a .gif name, and keeps the good ones', async () => {
    const r = await checkPhotos(
      [file('a.jpg', JPEG), file('virus.png', EXE), file('big.jpeg', JPEG, 25 * 1024 * 1024), file('b.PNG', PNG), file('c.gif', JPEG)],
      0,
      t,
    );
    expect(r.accepted.map((f) => f.name)).toEqual(['a.jpg', 'b.PNG']);
    expect(r.refusals).toEqual(['virus.png 不是 jpg、jpeg 或 png 图片', 'big.jpeg 超过 20 MB', 'c.gif 不是 jpg、jpeg 或 png 图片']);
  });

  it('takes an image of exactly 20 MB', async () => {
    const r = await checkPhotos([file('edge.jpg', JPEG, PHOTO_MAX_BYTES)], 0, t);
    expect(r.accepted).toHaveLength(1);
  });

  it('refuses 21 photos in all, counting those already stored', async () => {
    const many = Array.from({ length: 21 }, (_, i) => file(`p${i}.jpg`, JPEG));
    expect(await checkPhotos(many, 0, t)).toEqual({ accepted: [], refusals: ['最多上传20张图片，已有0张'] });
    expect((await checkPhotos(many.slice(0, 3), 18, t)).refusals).toEqual(['最多上传20张图片，已有18张']);
    expect((await checkPhotos(many.slice(0, 2), 18, t)).accepted).toHaveLength(2);
  });
});

describe('PhotoUpload', () => {
  const mount = (value: string[], onChange: (v: string[]) => void) =>
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <PhotoUpload value={value} onChange={onChange} />
        </QueryClientProvider>
      </App>,
    );

  it('sends nothing for a refused pick and shows why; uploads the accepted files', async () => {
    let n = 0;
    const srv = mockFetch((c) => {
      if (c.url.includes('/basic/oss/upload')) return json(envelope({ suffix: `s${++n}.jpg`, name: 'x', size: 1, url: '' }));
      return new Response(new Uint8Array(JPEG), { headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="x.jpg"' } });
    });
    const onChange = vi.fn();
    mount([], onChange);
    const input = screen.getByTestId('photo-input');

    fireEvent.change(input, { target: { files: Array.from({ length: 21 }, (_, i) => file(`p${i}.jpg`, JPEG)) } });
    expect(await screen.findByText('最多上传20张图片，已有0张')).toBeTruthy();
    fireEvent.change(input, { target: { files: [file('virus.png', EXE), file('big.jpg', JPEG, 25 * 1024 * 1024)] } });
    expect(await screen.findByText('virus.png 不是 jpg、jpeg 或 png 图片')).toBeTruthy();
    expect(screen.getByText('big.jpg 超过 20 MB')).toBeTruthy();
    expect(srv.calls.filter((c) => c.url.includes('/basic/oss/upload'))).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { files: [file('ok.png', PNG), file('ok2.jpg', JPEG)] } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(['s1.jpg', 's2.jpg']));
    expect(srv.calls.filter((c) => c.url.includes('/basic/oss/upload'))).toHaveLength(2);
    expect(screen.queryByTestId('photo-refusals')).toBeNull();
  });
});
