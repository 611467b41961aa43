import { useQuery } from '@tanstack/react-query';
import { Select, theme } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { interfaceQuery } from './system.options.ts';

/**
 * Interfaces (catalogue calls) to grant, from POST /system/interface/query/list: only those a role
 * can be granted are offered, each once; the value is their ids without duplicates.
 */
export function InterfacePicker({ id, value, onChange }: { id?: string; value?: unknown; onChange?: (ids: number[]) => void }) {
  const t = useT();
  const { token } = theme.useToken();
  const { data, isFetching } = useQuery(interfaceQuery);
  const ids = Array.isArray(value) ? (value as number[]) : [];
  const byArea = new Map<string, { value: number; label: string }[]>();
  for (const i of data ?? []) {
    if (!i.selectable) continue;
    const area = i.area ?? t('其他');
    byArea.set(area, [...(byArea.get(area) ?? []), { value: i.id, label: `${i.name} · ${i.method} ${i.path}` }]);
  }
  const options = [...byArea].map(([label, opts]) => ({ label, title: label, options: opts }));
  return (
    <>
      <Select
        id={id}
        mode="multiple"
        value={ids}
        options={options}
        loading={isFetching}
        allowClear
        showSearch
        optionFilterProp="label"
        maxTagCount="responsive"
        placeholder={<span style={{ color: token.colorTextSecondary }}>{t('搜索接口名称或路径')}</span>}
        onChange={(v: number[]) => onChange?.([...new Set(v)])}
        style={{ width: '100%' }}
      />
      <span style={{ fontSize: 12 }}>{t('已选 $1 个接口', ids.length)}</span>
    </>
  );
}
