import { z } from 'zod';
import { companyAdd, companyEdit, companyFilter, companyPage, idBody, idQuery } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { addCompany, companyList, companyOne, companyPage as pageCompanies, companyTree, deleteCompany, editCompany } from './company.service.ts';

const area = 'System administration';
/** The tree takes no filters; pickers may send any object. */
const treeBody = z.object({}).optional();

export const companyRoutes = [
  route({
    method: 'POST', path: '/system/company/query/tree', access: 'menu', name: '公司树', area, kind: 'list', body: treeBody,
    handler: ({ ctx, user }) => companyTree(ctx, user),
  }),
  route({
    method: 'POST', path: '/system/company/query/list', access: 'menu', name: '公司列表', area, kind: 'list', body: companyFilter,
    handler: ({ ctx, user, body }) => companyList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/company/query/page', access: 'menu', name: '公司分页', area, kind: 'page', body: companyPage,
    handler: ({ ctx, user, body }) => pageCompanies(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/company/query/one', access: 'menu', name: '公司详情', area, kind: 'one', body: idBody,
    scope: { entity: 'company' },
    handler: ({ ctx, user, body }) => companyOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/company/add', access: 'menu', name: '新增公司', area, kind: 'add', body: companyAdd,
    handler: ({ ctx, user, body }) => addCompany(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/company/edit', access: 'menu', name: '编辑公司', area, kind: 'edit', body: companyEdit,
    scope: { entity: 'company', input: (id) => ({ id, name: '越权修改' }) },
    handler: async ({ ctx, user, body }) => {
      await editCompany(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/system/company/delete', access: 'menu', name: '删除公司', area, kind: 'delete', query: idQuery,
    scope: { entity: 'company' },
    handler: async ({ ctx, user, query }) => {
      await deleteCompany(ctx, user, query.id);
      return true;
    },
  }),
];
