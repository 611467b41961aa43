import { z } from 'zod';
import { i18nEndpoints as api, importFields, TRANSLATION_SHEET_COLUMNS } from '@ess/contract/i18n';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { route, type RouteScope } from '../../platform/http/route.ts';
import { importSheet } from '../../platform/xlsx/import.ts';
import { readUploadedSheet } from '../../platform/xlsx/upload.ts';
import { sendXlsx } from '../../platform/xlsx/xlsx.ts';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../platform/http/auth.ts';
import { dataTranslationsChanged } from './data-translation.ts';
import * as engine from './engine.service.ts';
import { exportLanguage } from './i18n.language.ts';
import * as lang from './language.service.ts';
import { catalogueOf } from './i18n.state.ts';
import * as xl from './translation.service.ts';

export { shippedPack, PACKS_DIR } from './packs.ts';

const area = 'Translation';
const shared: RouteScope = { global: 'languages, texts, engines and currencies are shared by the installation' };
const IMPORT_MAX_ROWS = 20_000;

const sheetRow = z.object({
  id: z.coerce.number({ error: '编号须为数字' }).int('编号须为数字').positive('编号须为数字'),
  context: z.string().optional(),
  source: z.string({ error: '原文不能为空' }),
  translation: z.string({ error: '译文不能为空' }),
  state: z.string().optional(),
});

/** A translator's sheet back: every row checked against its original, all or nothing (the one import path). */
async function importTranslations(ctx: AppContext, req: FastifyRequest, user: AuthUser, domain: xl.Domain) {
  const { sheet, fields } = await readUploadedSheet(ctx, req);
  const parsed = importFields.safeParse(fields);
  if (!parsed.success) throw new AppError('INVALID_PARAM', `languageId：${parsed.error.issues[0]?.message ?? ''}`);
  const { languageId } = parsed.data;
  await lang.languageByCode(ctx.db, languageId, true);
  const result = await importSheet(ctx.db, {
    sheet,
    columns: TRANSLATION_SHEET_COLUMNS,
    maxRows: IMPORT_MAX_ROWS,
    rowSchema: sheetRow,
    check: (tx, rows, refuse) => xl.checkImport(tx, domain, languageId, rows, refuse),
    write: (tx, checked) => xl.writeImport(tx, languageId, user.id, checked),
  });
  if (domain === 'data') await dataTranslationsChanged(ctx);
  return result;
}

/** A write that concerns the business data's translations: every instance drops its cache after it. */
const thenDrop = async <T>(ctx: AppContext, write: Promise<T>): Promise<T> => {
  const result = await write;
  await dataTranslationsChanged(ctx);
  return result;
};

async function exportTranslations(ctx: AppContext, req: FastifyRequest, reply: Parameters<typeof sendXlsx>[0], domain: xl.Domain, body: Parameters<typeof xl.exportRows>[2]) {
  const { lang: l, rows } = await xl.exportRows(ctx.db, domain, body);
  return sendXlsx(reply, xl.sheetOf(domain, l.code), rows, await exportLanguage(req));
}

export const i18nRoutes = [
  route(api.pack, {
    // Public: the login page loads its language before anyone signs in.
    access: 'public', name: '获取语言包', area, kind: 'query', scope: { global: 'the language packs are shared by every company' },
    handler: async ({ ctx, query, req, reply }) => {
      const pack = await xl.packOf(ctx.db, query.languageId);
      void reply.header('etag', pack.etag).header('cache-control', 'no-cache');
      if (req.headers['if-none-match'] === pack.etag) void reply.code(304);
      return pack.rows;
    },
  }),
  route(api.textImport, { access: 'menu', name: '导入界面文本译文', area, kind: 'import', scope: shared, handler: ({ ctx, req, user }) => importTranslations(ctx, req, user, 'text') }),
  route(api.textEdit, { access: 'menu', name: '编辑界面文本译文', area, kind: 'edit', scope: shared, handler: async ({ ctx, user, body }) => (await xl.editTranslation(ctx.db, 'text', user.id, body), true) }),
  route(api.textRefresh, { access: 'menu', name: '刷新界面文本', area, kind: 'action', scope: shared, handler: async ({ ctx, user }) => xl.refreshTexts(ctx.db, catalogueOf(ctx), user.id) }),
  route(api.textTip, { access: 'menu', name: '界面文本刷新提示', area, kind: 'query', scope: shared, handler: ({ ctx }) => xl.refreshTip(ctx.db, catalogueOf(ctx)) }),
  route(api.textExport, { access: 'menu', name: '导出界面文本', area, kind: 'export', scope: shared, handler: ({ ctx, req, reply, body }) => exportTranslations(ctx, req, reply, 'text', body) }),
  route(api.textCompletion, { access: 'menu', name: '界面文本机器翻译', area, kind: 'action', scope: shared, handler: ({ ctx, user, body }) => engine.startCompletion(ctx, 'text', user.id, body) }),
  route(api.textCompletionOne, { access: 'menu', name: '界面文本翻译任务', area, kind: 'one', scope: shared, handler: ({ ctx, body }) => engine.completionOne(ctx.db, 'text', body.id) }),
  route(api.textPage, { access: 'menu', name: '界面文本分页', area, kind: 'page', scope: shared, handler: ({ ctx, body }) => xl.originalPageOf(ctx.db, 'text', body) }),

  route(api.dataRefresh, { access: 'menu', name: '刷新业务数据原文', area, kind: 'action', scope: shared, handler: ({ ctx, user }) => thenDrop(ctx, xl.refreshData(ctx.db, user.id)) }),
  route(api.dataExport, { access: 'menu', name: '导出业务数据', area, kind: 'export', scope: shared, handler: ({ ctx, req, reply, body }) => exportTranslations(ctx, req, reply, 'data', body) }),
  route(api.dataCompletion, { access: 'menu', name: '业务数据机器翻译', area, kind: 'action', scope: shared, handler: ({ ctx, user, body }) => engine.startCompletion(ctx, 'data', user.id, body) }),
  route(api.dataCompletionOne, { access: 'menu', name: '业务数据翻译任务', area, kind: 'one', scope: shared, handler: ({ ctx, body }) => engine.completionOne(ctx.db, 'data', body.id) }),
  route(api.dataPage, { access: 'menu', name: '业务数据分页', area, kind: 'page', scope: shared, handler: ({ ctx, body }) => xl.originalPageOf(ctx.db, 'data', body) }),
  route(api.dataImport, { access: 'menu', name: '导入业务数据译文', area, kind: 'import', scope: shared, handler: ({ ctx, req, user }) => importTranslations(ctx, req, user, 'data') }),
  route(api.dataEdit, { access: 'menu', name: '编辑业务数据译文', area, kind: 'edit', scope: shared, handler: async ({ ctx, user, body }) => (await thenDrop(ctx, xl.editTranslation(ctx.db, 'data', user.id, body)), true) }),

  // Public: the language switch of the login page.
  route(api.languageEnable, { access: 'public', name: '启用的语言', area, kind: 'list', scope: { global: 'the languages are shared by every company' }, handler: ({ ctx }) => lang.enabledLanguages(ctx.db) }),
  route(api.languageList, { access: 'menu', name: '语言列表', area, kind: 'list', scope: shared, handler: ({ ctx, body }) => lang.languageList(ctx.db, body) }),
  route(api.languagePage, { access: 'menu', name: '语言分页', area, kind: 'page', scope: shared, handler: ({ ctx, body }) => lang.languagePage(ctx.db, body) }),
  route(api.languageAdd, { access: 'menu', name: '新增语言', area, kind: 'add', scope: shared, handler: ({ ctx, body }) => lang.addLanguage(ctx.db, body) }),
  route(api.languageEdit, { access: 'menu', name: '编辑语言', area, kind: 'edit', scope: shared, handler: async ({ ctx, body }) => (await lang.editLanguage(ctx.db, body), true) }),

  route(api.engineOptionals, {
    access: 'menu', name: '可选翻译引擎', area, kind: 'list', scope: shared,
    handler: () => engine.engineKinds(),
  }),
  route(api.engineSupports, { access: 'menu', name: '翻译引擎支持的语言', area, kind: 'list', scope: shared, handler: ({ ctx, query }) => engine.engineSupports(ctx, query.id) }),
  route(api.engineConnect, { access: 'menu', name: '测试翻译引擎', area, kind: 'action', scope: shared, handler: ({ ctx, query }) => engine.connectEngine(ctx, query.id) }),
  route(api.engineDelete, { access: 'menu', name: '删除翻译引擎', area, kind: 'delete', scope: shared, handler: async ({ ctx, query }) => (await engine.deleteEngine(ctx.db, query.id), true) }),
  route(api.engineList, { access: 'menu', name: '翻译引擎列表', area, kind: 'list', scope: shared, handler: ({ ctx, body }) => engine.engineList(ctx.db, body) }),
  route(api.enginePage, { access: 'menu', name: '翻译引擎分页', area, kind: 'page', scope: shared, handler: ({ ctx, body }) => engine.enginePage(ctx.db, body) }),
  route(api.engineOne, { access: 'menu', name: '翻译引擎详情', area, kind: 'one', scope: shared, handler: ({ ctx, body }) => engine.engineOne(ctx.db, body.id) }),
  route(api.engineAdd, { access: 'menu', name: '新增翻译引擎', area, kind: 'add', scope: shared, handler: ({ ctx, user, body }) => engine.addEngine(ctx, user.id, body) }),
  route(api.engineEdit, { access: 'menu', name: '编辑翻译引擎', area, kind: 'edit', scope: shared, handler: async ({ ctx, body }) => (await engine.editEngine(ctx, body), true) }),

  route(api.currencyPage, { access: 'menu', name: '币种分页', area, kind: 'page', scope: shared, handler: ({ ctx, body }) => lang.currencyPage(ctx.db, body) }),
  route(api.currencyList, { access: 'menu', name: '币种列表', area, kind: 'list', scope: shared, handler: ({ ctx, body }) => lang.currencyList(ctx.db, body) }),
  route(api.currencyAdd, { access: 'menu', name: '新增币种', area, kind: 'add', scope: shared, handler: ({ ctx, body }) => lang.addCurrency(ctx.db, body) }),
  route(api.currencyEdit, { access: 'menu', name: '编辑币种', area, kind: 'edit', scope: shared, handler: async ({ ctx, body }) => (await lang.editCurrency(ctx.db, body), true) }),

  route(api.nodeList, { access: 'menu', name: '文本节点列表', area, kind: 'list', scope: shared, handler: ({ ctx, body }) => xl.nodeList(ctx.db, body) }),
  route(api.nodeAdd, { access: 'menu', name: '新增文本节点', area, kind: 'add', scope: shared, handler: ({ ctx, body }) => thenDrop(ctx, xl.addNode(ctx.db, body)) }),
  route(api.nodeEdit, { access: 'menu', name: '编辑文本节点', area, kind: 'edit', scope: shared, handler: async ({ ctx, body }) => (await thenDrop(ctx, xl.editNode(ctx.db, body)), true) }),
  route(api.nodeDelete, { access: 'menu', name: '删除文本节点', area, kind: 'delete', scope: shared, handler: async ({ ctx, query }) => (await thenDrop(ctx, xl.deleteNode(ctx.db, query.id)), true) }),
];
