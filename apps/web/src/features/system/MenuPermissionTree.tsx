import { menuEndpoints, type MenuNode } from '@ess/contract/system';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { systemKeys } from './system.keys.ts';

export const menuTreeQuery = {
  queryKey: systemKeys.menu.tree(),
  queryFn: () => call(menuEndpoints.tree, {}, { loading: false }),
  staleTime: 60_000,
};

function allIds(nodes: readonly MenuNode[]): number[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

function leafIds(nodes: readonly MenuNode[]): Set<number> {
  return new Set(nodes.flatMap((n) => (n.children.length ? [...leafIds(n.children)] : [n.id])));
}

/**
 * The menus a role grants, as a checkable tree with select all / none. The value holds the ticked
 * entries and the directories above them (half-ticked ones too), so the granted menu stays whole;
 * a directory is shown ticked only through its entries.
 */
export function MenuPermissionTree({ id, value, onChange }: { id?: string; value?: unknown; onChange?: (ids: number[]) => void }) {
  const t = useT();
  const { data, isFetching } = useQuery(menuTreeQuery);
  const ids = useMemo(() => (Array.isArray(value) ? (value as number[]) : []), [value]);
  const tree = useMemo(() => data ?? [], [data]);
  const leaves = useMemo(() => leafIds(tree), [tree]);
  const checked = ids.filter((i) => leaves.has(i));
  const toNode = (n: MenuNode): DataNode => ({
    key: n.id,
    title: (
      <span>
        {t(n.name)}
        {n.hidden && (
          <Tag style={{ marginInlineStart: 6 }} bordered={false}>
            {t('隐藏')}
          </Tag>
        )}
      </span>
    ),
    children: n.children.length ? n.children.map(toNode) : undefined,
  });
  if (!data && isFetching) return <Spin size="small" />;
  return (
    <div id={id} role="group" aria-label={t('菜单权限')}>
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => onChange?.(allIds(tree))}>
          {t('全选')}
        </Button>
        <Button size="small" onClick={() => onChange?.([])}>
          {t('全不选')}
        </Button>
        <Typography.Text>{t('已选 $1 个菜单', checked.length)}</Typography.Text>
      </Space>
      <div style={{ maxHeight: 360, overflow: 'auto', border: '1px solid var(--ant-color-border, #d9d9d9)', borderRadius: 6, padding: 8 }}>
        <Tree
          checkable
          selectable={false}
          defaultExpandAll
          treeData={tree.map(toNode)}
          checkedKeys={checked}
          onCheck={(keys, info) => {
            const ticked = Array.isArray(keys) ? keys : keys.checked;
            onChange?.([...ticked, ...info.halfCheckedKeys ?? []].map(Number));
          }}
        />
      </div>
    </div>
  );
}
