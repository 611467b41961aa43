import { filesEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { probeSuffix, sendStoredFile, storeUpload } from './files.service.ts';

export const filesRoutes = [
  route(api.upload, {
    // Only the screens that attach files (station pictures, upgrade packages, defect photos) may
    // upload: the menu table maps /basic/oss/** to them.
    access: 'menu', name: '上传文件', area: 'Session and basics', kind: 'other',
    scope: { global: "stores a new file for the caller's own company; names no object" },
    handler: ({ ctx, user, req }) => storeUpload(ctx, user, req),
  }),
  route(api.download, {
    access: 'user', name: '下载文件', area: 'Session and basics', kind: 'download',
    scope: { entity: 'storedFile', input: (id) => ({ suffix: probeSuffix(id) }) },
    handler: ({ ctx, user, query, reply }) => sendStoredFile(ctx, user, query.suffix, reply),
  }),
];
