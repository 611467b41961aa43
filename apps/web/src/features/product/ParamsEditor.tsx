import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space, Switch } from 'antd';
import type { CommandParam } from '@ess/contract/product';
import { useT } from '../../platform/i18n/index.ts';
import { PARAM_TYPE_OPTIONS } from './product.options.ts';

interface Props {
  value?: unknown;
  onChange: (v: unknown) => void;
  id?: string;
}

/** A command's request or response parameters: identifier (lower camel case), name, type, required. */
export function ParamsEditor({ value, onChange, id }: Props) {
  const t = useT();
  const rows = Array.isArray(value) ? (value as CommandParam[]) : [];
  const set = (i: number, patch: Partial<CommandParam>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div id={id}>
      {rows.map((r, i) => (
        <Space key={i} style={{ display: 'flex', marginBottom: 6 }}>
          <Input aria-label={t('标识符')} placeholder={t('标识符')} value={r.identifier} onChange={(e) => set(i, { identifier: e.target.value })} style={{ width: 140 }} />
          <Input aria-label={t('名称')} placeholder={t('名称')} value={r.name} onChange={(e) => set(i, { name: e.target.value })} style={{ width: 130 }} />
          <Select
            aria-label={t('数据类型')}
            value={r.dataType}
            options={PARAM_TYPE_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))}
            onChange={(v) => set(i, { dataType: v })}
            style={{ width: 110 }}
          />
          <Switch checkedChildren={t('必填')} unCheckedChildren={t('选填')} checked={r.required !== false} onChange={(v) => set(i, { required: v })} />
          <Button aria-label={t('删除')} type="text" icon={<DeleteOutlined />} onClick={() => onChange(rows.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Button type="dashed" icon={<PlusOutlined />} onClick={() => onChange([...rows, { identifier: '', name: '', dataType: 'int', required: true }])}>
        {t('添加参数')}
      </Button>
    </div>
  );
}
