import { CameraOutlined, DeleteOutlined } from '@ant-design/icons';
import { filesEndpoints } from '@ess/contract/files';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Image, Space, Spin, Typography } from 'antd';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { call, callFile } from '../../platform/request.ts';
import { checkPhotos, PHOTO_ACCEPT, PHOTO_MAX_FILES, PHOTO_MAX_MB } from './photos.ts';
import { maintKeys } from './maintenance.keys.ts';

/** A stored photo read with the caller's token (downloads need it) and shown from memory. */
function useStoredPhoto(suffix: string) {
  const q = useQuery({
    queryKey: maintKeys.photo(suffix),
    queryFn: async () => (await callFile(filesEndpoints.download, { suffix }, { save: false, loading: false, noMessage: true, fileName: suffix })).blob,
    staleTime: Infinity,
    retry: false,
  });
  const url = useMemo(() => (q.data ? URL.createObjectURL(q.data) : null), [q.data]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return { url, failed: q.isError };
}

/** One photo of a record as a thumbnail that opens large. */
export function StoredPhoto({ suffix, size = 88 }: { suffix: string; size?: number }) {
  const t = useT();
  const { url, failed } = useStoredPhoto(suffix);
  if (failed) return <Typography.Text type="secondary">{t('图片无法加载')}</Typography.Text>;
  if (!url) return <Spin size="small" />;
  return <Image src={url} width={size} height={size} className="ess-photo" alt={t('照片')} data-testid="stored-photo" />;
}

/** The photos of a record, read-only. */
export function PhotoGallery({ photos }: { photos: readonly string[] }) {
  const t = useT();
  if (!photos.length) return <Typography.Text type="secondary">{t('无照片')}</Typography.Text>;
  return (
    <Image.PreviewGroup>
      <Space wrap size={8} data-testid="photo-gallery">
        {photos.map((s) => (
          <StoredPhoto key={s} suffix={s} />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}

export interface PhotoUploadProps {
  /** Suffixes of the stored photos. */
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
  disabled?: boolean;
}

/**
 * Photos of a record: pick (or take, on a phone) pictures, which are checked before anything is
 * sent — at most 20 in all, each ≤ 20 MB, jpg/jpeg/png by content — then uploaded one by one;
 * thumbnails of what is stored, each removable.
 */
export function PhotoUpload({ value = [], onChange, id, disabled }: PhotoUploadProps) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [refusals, setRefusals] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const picked = async (list: FileList | null) => {
    const files = list ? [...list] : [];
    if (input.current) input.current.value = '';
    if (!files.length) return;
    const check = await checkPhotos(files, value.length, t);
    setRefusals(check.refusals);
    if (!check.accepted.length) return;
    setBusy(true);
    const stored: string[] = [];
    try {
      for (const file of check.accepted) stored.push((await call(filesEndpoints.upload, { file }, { loading: false })).suffix);
    } catch {
      // The request layer has shown the reason; what was stored stays.
    } finally {
      setBusy(false);
      if (stored.length) onChange?.([...value, ...stored]);
    }
  };

  return (
    <div className="ess-photo-upload" data-testid="photo-upload">
      <Image.PreviewGroup>
        <Space wrap size={8}>
          {value.map((s) => (
            <span key={s} className="ess-photo-item">
              <StoredPhoto suffix={s} />
              {!disabled && (
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('删除照片')}
                  onClick={() => onChange?.(value.filter((x) => x !== s))}
                />
              )}
            </span>
          ))}
        </Space>
      </Image.PreviewGroup>
      <div>
        <input
          ref={input}
          id={id}
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          hidden
          aria-describedby={hintId}
          data-testid="photo-input"
          onChange={(e) => void picked(e.target.files)}
        />
        <Button icon={<CameraOutlined />} loading={busy} disabled={disabled || value.length >= PHOTO_MAX_FILES} onClick={() => input.current?.click()}>
          {t('添加照片')}
        </Button>
        <Typography.Text type="secondary" id={hintId} className="ess-photo-hint">
          {t('jpg、jpeg 或 png，每张不超过 $1 MB，最多 $2 张', PHOTO_MAX_MB, PHOTO_MAX_FILES)}
        </Typography.Text>
      </div>
      {refusals.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="photo-refusals"
          message={
            <>
              {refusals.map((r) => (
                <div key={r}>{r}</div>
              ))}
            </>
          }
        />
      )}
    </div>
  );
}
