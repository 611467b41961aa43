import { z } from 'zod';
import { endpoint, FILE } from './endpoint.ts';

/** Uploaded files (api-catalogue "Session and basics"): stored under a random suffix, read back by it. */

/**
 * What POST /basic/oss/upload takes: pictures (defect records, stations) and upgrade packages
 * (zip), each checked by its content. Spreadsheets and diagrams have their own upload calls; a
 * type whose content cannot be checked (.bin) is not taken.
 */
export const OSS_UPLOAD_TYPES = ['jpg', 'jpeg', 'png', 'zip'] as const;

export const downloadQuery = z.object({ suffix: z.string().regex(/^[A-Za-z0-9_-]{8,64}(\.[A-Za-z0-9]{1,10})?$/, '文件标识不正确') });

/** A stored upload: its suffix (the key to download it), original name, size in bytes and download URL. */
export const storedUpload = z.object({ suffix: z.string(), name: z.string(), size: z.number(), url: z.string() });
export type StoredUpload = z.infer<typeof storedUpload>;

export const filesEndpoints = {
  /** Multipart field `file`. */
  upload: endpoint({ method: 'POST', path: '/basic/oss/upload', multipart: true, response: storedUpload }),
  download: endpoint({ method: 'GET', path: '/basic/oss/download/suffix', query: downloadQuery, response: FILE }),
};
