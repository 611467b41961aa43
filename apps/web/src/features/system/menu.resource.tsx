import { menuEdit, menuEndpoints, type MenuOne, type MenuRow } from '@ess/contract/system';
import { Input, Space, Tag } from 'antd';
import { menuIcon } from '../../app/layout/menu-icons.tsx';
import { defineResource } from '../../components/crud/index.ts';
import { InterfacePicker } from './InterfacePicker.tsx';

export interface MenuForm {
  name: string;
  icon?: string | null;
  sort?: number;
  hidden?: boolean;
  interfaceIds?: number[];
}

const HIDDEN = [
  { value: true, label: '隐藏', color: 'default' },
  { value: false, label: '显示', color: 'success' },
] as const;
const EDITED = [
  { value: true, label: '已修改', color: 'warning' },
  { value: false, label: '未修改', color: 'default' },
] as const;

/** An icon name with the icon it stands for. */
function IconInput({ id, value, onChange }: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  const name = typeof value === 'string' ? value : '';
  return <Input id={id} value={name} maxLength={64} addonAfter={menuIcon(name) ?? <span aria-hidden>–</span>} onChange={(e) => onChange(e.target.value)} />;
}

/** Menu entries: the contract's route table as stored; names, icons, order, visibility and interfaces are editable. */
export const menuResource = defineResource<MenuRow, MenuForm, MenuOne>({
  key: ['system', 'menu'],
  name: '菜单',
  endpoints: { tree: menuEndpoints.tree, one: menuEndpoints.one, edit: menuEndpoints.edit },
  columns: [
    {
      key: 'name',
      title: '菜单名称',
      render: (row, t) => (
        <Space size={6}>
          {menuIcon(row.icon)}
          {t(row.name)}
        </Space>
      ),
    },
    { key: 'path', title: '路由', type: 'code' },
    { key: 'icon', title: '图标', inTable: false },
    { key: 'sort', title: '排序', type: 'number', width: 80 },
    { key: 'hidden', title: '是否隐藏', type: 'boolean', options: HIDDEN, width: 100 },
    { key: 'interfaceIds', title: '接口数', width: 90, render: (row) => row.interfaceIds.length, inDetail: false },
    { key: 'edited', title: '修改状态', type: 'boolean', options: EDITED, width: 100 },
    { key: 'updatedAt', title: '更新时间', type: 'datetime' },
  ],
  detailColumns: [
    { key: 'name', title: '菜单名称', render: (row, t) => t(row.name) },
    { key: 'path', title: '路由', type: 'code' },
    { key: 'icon', title: '图标', render: (row) => (row.icon ? <Space>{menuIcon(row.icon)}{row.icon}</Space> : '-') },
    { key: 'sort', title: '排序', type: 'number' },
    { key: 'hidden', title: '是否隐藏', type: 'boolean', options: HIDDEN },
    { key: 'edited', title: '修改状态', type: 'boolean', options: EDITED },
    {
      key: 'interfaces',
      title: '接口',
      detailSpan: 2,
      render: (row) =>
        row.interfaces.length ? (
          <Space size={[4, 4]} wrap>
            {row.interfaces.map((i) => (
              <Tag key={i.id}>{`${i.name} · ${i.method} ${i.path}`}</Tag>
            ))}
          </Space>
        ) : (
          '-'
        ),
    },
  ],
  form: {
    container: 'drawer',
    width: 640,
    fields: [
      { name: 'name', label: '菜单名称', required: true, maxLength: 64 },
      { name: 'icon', label: '图标', type: 'custom', render: (p) => <IconInput id={p.id} value={p.value} onChange={p.onChange} /> },
      { name: 'sort', label: '排序', type: 'number' },
      { name: 'hidden', label: '是否隐藏', type: 'switch' },
      { name: 'interfaceIds', label: '接口', type: 'custom', render: (p) => <InterfacePicker id={p.id} value={p.value} onChange={p.onChange} /> },
    ],
    schemas: { edit: menuEdit },
    toValues: (m) => ({ name: m.name, icon: m.icon, sort: m.sort, hidden: m.hidden, interfaceIds: m.interfaceIds }),
    toBody: (v, _mode, id) => ({
      id, name: v.name, icon: v.icon || null, sort: v.sort ?? undefined, hidden: v.hidden ?? false, interfaceIds: v.interfaceIds ?? [],
    }),
  },
});
