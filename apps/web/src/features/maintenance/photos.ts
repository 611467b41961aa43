import { MAINT_PHOTO_MAX_BYTES, MAINT_PHOTO_MAX_FILES } from '@ess/contract/maintenance';

/**
 * The photo rules of defects, work order results and repairs (product-spec §5): jpg, jpeg or png
 * only, recognised by the file's content (not its name), at most 20 MB each and 20 per record.
 * The console checks them before anything is uploaded; the server checks them again.
 */

export const PHOTO_MAX_FILES = MAINT_PHOTO_MAX_FILES;
export const PHOTO_MAX_BYTES = MAINT_PHOTO_MAX_BYTES;
export const PHOTO_MAX_MB = PHOTO_MAX_BYTES / 1024 / 1024;
export const PHOTO_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';

type Translate = (source: string, ...args: unknown[]) => string;

/** The image kind of a file's first bytes: JPEG (FF D8 FF) or PNG (89 50 4E 47 0D 0A 1A 0A), else null. */
export function imageKindOf(head: Uint8Array): 'jpeg' | 'png' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return 'png';
  return null;
}

/** The first bytes of a file (Blob.arrayBuffer, or FileReader where a browser lacks it). */
async function headOf(file: Blob, n = 8): Promise<Uint8Array> {
  const part = file.slice(0, n);
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(part);
  });
}

/** What the check found: the files that may be uploaded, and the reasons (translated) for the others. */
export interface PhotoCheck {
  accepted: File[];
  refusals: string[];
}

/**
 * Checks picked files against the photo rules, given how many photos the record already holds:
 * more than 20 in all refuses the whole pick; each file must be ≤ 20 MB, named .jpg/.jpeg/.png
 * and be a JPEG or PNG by content (a renamed .exe is refused).
 */
export async function checkPhotos(files: readonly File[], existing: number, t: Translate): Promise<PhotoCheck> {
  if (existing + files.length > PHOTO_MAX_FILES) {
    return { accepted: [], refusals: [t('最多上传$1张图片，已有$2张', PHOTO_MAX_FILES, existing)] };
  }
  const accepted: File[] = [];
  const refusals: string[] = [];
  for (const file of files) {
    if (file.size > PHOTO_MAX_BYTES) {
      refusals.push(t('$1 超过 $2 MB', file.name, PHOTO_MAX_MB));
      continue;
    }
    const named = /\.(jpe?g|png)$/i.test(file.name);
    const kind = named ? imageKindOf(await headOf(file)) : null;
    if (!kind) {
      refusals.push(t('$1 不是 jpg、jpeg 或 png 图片', file.name));
      continue;
    }
    accepted.push(file);
  }
  return { accepted, refusals };
}
