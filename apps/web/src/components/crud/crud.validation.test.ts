// @vitest-environment node
import { roleAdd, userAdd } from '@ess/contract/system';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filtersToBody } from './crud.filters.ts';
import { resourceKeys } from './crud.keys.ts';
import { fieldRule, validateWith } from './crud.validation.ts';

const t = (s: string, ...a: unknown[]) => s.replace(/\$(\d)/g, (_, n: string) => String(a[Number(n) - 1]));

describe('contract validation mapped to fields', () => {
  const labels = { username: '用户名', password: '密码', name: '姓名', phone: '手机号', companyId: '所属公司', roleIds: '角色' };

  it('names the field in "{field}不能为空" for empty required values, keeps the contract own messages', () => {
    const r = validateWith(userAdd, { username: 'ab', password: 'short', name: '  ', phone: 'x1', companyId: undefined, roleIds: [] }, labels, t);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.fields).toEqual({
      username: ['用户名至少3个字符'],
      password: ['密码长度为8-20位', '密码须至少包含大写字母、小写字母、数字中的两种'],
      name: ['姓名不能为空'],
      phone: ['手机号格式不正确'],
      companyId: ['所属公司不能为空'],
      roleIds: ['角色不能为空'],
    });
    expect(r.errors.form).toEqual([]);
  });

  it('reports length limits with the label and the limit', () => {
    const r = validateWith(z.object({ name: z.string().max(4), n: z.number().max(9) }), { name: 'abcdef', n: 12 }, { name: '名称', n: '排序' }, t);
    expect(!r.ok && r.errors.fields).toEqual({ name: ['名称最多4个字符'], n: ['排序不能大于9'] });
  });

  it('puts object-level rules on the field of their path (empty permission configuration)', () => {
    const r = validateWith(roleAdd, { name: '运维', menuIds: [], interfaceIds: [] }, { name: '名称', menuIds: '菜单权限' }, t);
    expect(!r.ok && r.errors.fields).toEqual({ menuIds: ['权限配置不能为空'] });
    const dup = validateWith(roleAdd, { name: '运维', menuIds: [1], interfaceIds: [3, 3] }, { name: '名称', menuIds: '菜单权限', interfaceIds: '接口权限' }, t);
    expect(!dup.ok && dup.errors.fields).toEqual({ interfaceIds: ['接口不能重复'] });
  });

  it('issues on fields the form does not show become form-level messages; a valid body passes as parsed', () => {
    const r = validateWith(z.object({ a: z.string().min(1), hidden: z.number() }), { a: 'x' }, { a: 'A' }, t);
    expect(!r.ok && r.errors).toEqual({ fields: {}, form: ['hidden不能为空'] });
    const ok = validateWith(roleAdd, { name: ' 运维 ', menuIds: [2] }, {}, t);
    expect(ok).toEqual({ ok: true, data: { name: '运维', code: null, remark: null, menuIds: [2], interfaceIds: [] } });
  });

  it('a field rule checks only non-empty values (emptiness is the required rule)', async () => {
    const rule = fieldRule(z.string().trim().min(1).max(3), '编码', t);
    await expect(rule.validator(null, '')).resolves.toBeUndefined();
    await expect(rule.validator(null, 'abcd')).rejects.toThrow('编码最多3个字符');
    await expect(rule.validator(null, 'abc')).resolves.toBeUndefined();
  });
});

describe('search values to request fields', () => {
  it('trims text, drops empties, maps enum values back to their type and time ranges to epoch ms', () => {
    const body = filtersToBody(
      [
        { key: 'name', title: '名称' },
        { key: 'code', title: '编码' },
        { key: 'success', title: '结果', type: 'enum', options: [{ value: true, label: '成功' }, { value: false, label: '失败' }] },
        { key: 'status', title: '状态码', type: 'number' },
        { key: 'createdAt', title: '时间', type: 'datetimeRange' },
        { key: 'companyId', title: '公司', type: 'treeSelect' },
      ],
      { name: '  储能 ', code: '   ', success: 'false', status: '404', createdAt: ['2024-03-01 00:00:00', '2024-03-01 23:59:59'], companyId: undefined },
    );
    expect(body).toEqual({
      name: '储能',
      success: false,
      status: 404,
      start: new Date(2024, 2, 1, 0, 0, 0).getTime(),
      end: new Date(2024, 2, 1, 23, 59, 59).getTime(),
    });
  });
});

describe('query keys', () => {
  it('nest every key of a resource under its root, so invalidating the root reaches all of them', () => {
    const k = resourceKeys(['system', 'role']);
    expect(k.all).toEqual(['system', 'role']);
    expect(k.page({ current: 2, pageSize: 10 })).toEqual(['system', 'role', 'page', { current: 2, pageSize: 10 }]);
    expect(k.one(7)).toEqual(['system', 'role', 'one', 7]);
    for (const key of [k.pages(), k.lists(), k.list({}), k.tree(), k.one(1)]) expect(key.slice(0, 2)).toEqual(k.all);
  });
});
