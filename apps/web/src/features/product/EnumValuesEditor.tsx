import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Input, InputNumber, Space, Typography } from 'antd';
import type { EnumValue } from '@ess/contract/product';
import { useT } from '../../platform/i18n/index.ts';

/** Colours offered to a new value, in order, skipping ones already used (product-spec §5: colours unique). */
const PALETTE = ['#52c41a', '#1677ff', '#8c8c8c', '#f5222d', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb'];

interface Props {
  value?: unknown;
  onChange: (v: unknown) => void;
  id?: string;
}

const dupes = <T,>(list: T[]) => {
  const seen = new Set<T>();
  const out = new Set<T>();
  for (const x of list) (seen.has(x) ? out : seen).add(x);
  return out;
};

/**
 * Enumeration values: status value (integer), label and colour per row. Repeated values, labels
 * or colours are marked as they are typed; the contract refuses them on save.
 */
export function EnumValuesEditor({ value, onChange, id }: Props) {
  const t = useT();
  const rows = Array.isArray(value) ? (value as EnumValue[]) : [];
  const set = (i: number, patch: Partial<EnumValue>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const add = () => {
    const next = rows.length ? Math.max(...rows.map((r) => (Number.isFinite(r.value) ? r.value : 0))) + 1 : 0;
    const used = new Set(rows.map((r) => r.colour?.toLowerCase()));
    onChange([...rows, { value: next, label: '', colour: PALETTE.find((c) => !used.has(c)) ?? '' }]);
  };
  const dupValue = dupes(rows.map((r) => r.value));
  const dupLabel = dupes(rows.map((r) => r.label.trim()).filter(Boolean));
  const dupColour = dupes(rows.map((r) => r.colour?.toLowerCase()).filter(Boolean));
  return (
    <div id={id}>
      {rows.map((r, i) => (
        <Space key={i} style={{ display: 'flex', marginBottom: 6 }} align="start">
          <InputNumber
            aria-label={t('状态值')}
            placeholder={t('状态值')}
            precision={0}
            value={r.value}
            status={dupValue.has(r.value) ? 'error' : undefined}
            onChange={(v) => set(i, { value: v ?? 0 })}
            style={{ width: 90 }}
          />
          <Input
            aria-label={t('名称')}
            placeholder={t('名称')}
            value={r.label}
            maxLength={32}
            status={dupLabel.has(r.label.trim()) ? 'error' : undefined}
            onChange={(e) => set(i, { label: e.target.value })}
            style={{ width: 150 }}
          />
          <ColorPicker
            aria-label={t('颜色')}
            value={r.colour || undefined}
            allowClear
            disabledAlpha
            onChange={(c) => set(i, { colour: c.cleared ? '' : c.toHexString() })}
          />
          <Typography.Text type={dupColour.has(r.colour?.toLowerCase()) ? 'danger' : 'secondary'} style={{ width: 70, display: 'inline-block' }}>
            {r.colour || t('无颜色')}
          </Typography.Text>
          <Button aria-label={t('删除')} type="text" icon={<DeleteOutlined />} onClick={() => onChange(rows.filter((_, j) => j !== i))} />
        </Space>
      ))}
      {(dupValue.size > 0 || dupLabel.size > 0 || dupColour.size > 0) && (
        <Typography.Text type="danger" style={{ display: 'block', marginBottom: 6 }}>
          {t('状态值、名称和颜色都不能重复')}
        </Typography.Text>
      )}
      <Button type="dashed" icon={<PlusOutlined />} onClick={add}>
        {t('添加枚举值')}
      </Button>
    </div>
  );
}
