import { companyEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { addCompany, companyList, companyOne, companyPage as pageCompanies, companyTree, deleteCompany, editCompany } from './company.service.ts';

const area = 'System administration';
/** A filter naming a company outside the caller's scope answers nothing (it is not refused). */
const ownTree = { global: "lists the companies of the caller's data scope; names no object" };

export const companyRoutes = [
  route(api.tree, {
    access: 'menu', name: '公司树', area, kind: 'list', scope: ownTree,
    handler: ({ ctx, user, body }) => companyTree(ctx, user, body),
  }),
  route(api.list, {
    access: 'menu', name: '公司列表', area, kind: 'list', scope: ownTree,
    handler: ({ ctx, user, body }) => companyList(ctx, user, body),
  }),
  route(api.page, {
    access: 'menu', name: '公司分页', area, kind: 'page', scope: ownTree,
    handler: ({ ctx, user, body }) => pageCompanies(ctx, user, body),
  }),
  route(api.one, {
    access: 'menu', name: '公司详情', area, kind: 'one',
    scope: { entity: 'company' },
    handler: ({ ctx, user, body }) => companyOne(ctx, user, body.id),
  }),
  route(api.add, {
    access: 'menu', name: '新增公司', area, kind: 'add',
    scope: { entity: 'company', input: (id) => ({ parentId: id, name: '越权新增' }) },
    handler: ({ ctx, user, body }) => addCompany(ctx, user, body),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑公司', area, kind: 'edit',
    scope: { entity: 'company', input: (id) => ({ id, name: '越权修改' }) },
    handler: async ({ ctx, user, body }) => {
      await editCompany(ctx, user, body);
      return true;
    },
  }),
  route(api.delete, {
    access: 'menu', name: '删除公司', area, kind: 'delete',
    scope: { entity: 'company' },
    handler: async ({ ctx, user, query }) => {
      await deleteCompany(ctx, user, query.id);
      return true;
    },
  }),
];
