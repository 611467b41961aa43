import { downloadQuery } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { probeSuffix, sendStoredFile, storeUpload } from './files.service.ts';

export const filesRoutes = [
  route({
    method: 'POST', path: '/basic/oss/upload', access: 'user', name: '上传文件', area: 'Session and basics', kind: 'other', multipart: true,
    handler: ({ ctx, user, req }) => storeUpload(ctx, user, req),
  }),
  route({
    method: 'GET', path: '/basic/oss/download/suffix', access: 'user', name: '下载文件', area: 'Session and basics', kind: 'download', raw: true,
    query: downloadQuery,
    scope: { entity: 'storedFile', input: (id) => ({ suffix: probeSuffix(id) }) },
    handler: ({ ctx, user, query, reply }) => sendStoredFile(ctx, user, query.suffix, reply),
  }),
];
