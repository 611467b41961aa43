import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Input, InputNumber, Space, Typography } from 'antd';
import type { CustomFieldProps } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';

export interface ValueMapEntry {
  platformValue: string;
  status: number | null;
  label: string;
  colour?: string;
}

/** The entries whose platform value, status, label or colour repeats an earlier one (spec §5: each unique). */
export function duplicates(list: readonly ValueMapEntry[]): Set<string> {
  const out = new Set<string>();
  const seen: Record<string, Set<unknown>> = { platformValue: new Set(), status: new Set(), label: new Set(), colour: new Set() };
  list.forEach((e, i) => {
    for (const k of ['platformValue', 'status', 'label', 'colour'] as const) {
      const v = e[k];
      if (v === undefined || v === null || v === '') continue;
      if (seen[k]!.has(v)) out.add(`${i}.${k}`);
      seen[k]!.add(v);
    }
  });
  return out;
}

/**
 * A value map: platform value → console status (a unique number), label and colour. Repeated
 * values are marked as they are typed; the contract checks them again before anything is sent,
 * and the server once more.
 */
export function ValueMapField({ id, value, onChange }: CustomFieldProps<unknown>) {
  const t = useT();
  const list = (Array.isArray(value) ? value : []) as ValueMapEntry[];
  const dup = duplicates(list);
  const set = (i: number, patch: Partial<ValueMapEntry>) => onChange(list.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const status = (k: string) => (dup.has(k) ? ('error' as const) : undefined);
  return (
    <div id={id} data-testid="value-map">
      {list.length === 0 && <Typography.Paragraph type="secondary">{t('未设置值映射')}</Typography.Paragraph>}
      {list.map((e, i) => (
        <Space key={i} wrap style={{ display: 'flex', marginBottom: 8 }} data-testid="value-map-row">
          <Input aria-label={t('平台值')} placeholder={t('平台值')} value={e.platformValue} status={status(`${i}.platformValue`)} onChange={(ev) => set(i, { platformValue: ev.target.value })} style={{ width: 120 }} />
          <InputNumber aria-label={t('状态值')} placeholder={t('状态值')} value={e.status} status={status(`${i}.status`)} precision={0} onChange={(v) => set(i, { status: v })} style={{ width: 100 }} />
          <Input aria-label={t('名称')} placeholder={t('名称')} value={e.label} status={status(`${i}.label`)} onChange={(ev) => set(i, { label: ev.target.value })} style={{ width: 140 }} maxLength={32} />
          <ColorPicker
            aria-label={t('颜色')}
            value={e.colour ?? null}
            allowClear
            format="hex"
            disabledAlpha
            onChange={(c) => set(i, { colour: c.cleared ? undefined : c.toHexString() })}
            showText
          />
          {dup.size > 0 && [...dup].some((k) => k.startsWith(`${i}.`)) && <Typography.Text type="danger">{t('重复')}</Typography.Text>}
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('删除')} onClick={() => onChange(list.filter((_e, j) => j !== i))} />
        </Space>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => onChange([...list, { platformValue: '', status: null, label: '' }])} data-testid="value-map-add">
        {t('添加映射')}
      </Button>
    </div>
  );
}
