import type { RegionNode } from '@ess/contract/dictionary';
import { useQuery } from '@tanstack/react-query';
import { Cascader } from 'antd';
import { useT } from '../platform/i18n/useT.ts';
import { regionPath, regionQuery } from './options/regions.ts';

/** A region code chosen down the province → city → district tree (GET /dictionary/region/query/tree). */
export function RegionPicker({ id, value, onChange }: { id?: string; value?: unknown; onChange?: (code: string | null) => void }) {
  const t = useT();
  const { data, isFetching } = useQuery(regionQuery);
  const code = typeof value === 'string' ? value : null;
  const path = data ? regionPath(data, code).map((n) => n.code) : [];
  return (
    <Cascader<RegionNode>
      id={id}
      options={data ?? []}
      fieldNames={{ label: 'name', value: 'code', children: 'children' }}
      value={path}
      loading={isFetching}
      changeOnSelect
      showSearch={{ filter: (input, nodes) => nodes.some((n) => n.name.includes(input)) }}
      placeholder={t('请选择省/市/区')}
      onChange={(codes) => {
        const last: unknown = Array.isArray(codes) ? codes[codes.length - 1] : undefined;
        onChange?.(typeof last === 'string' ? last : null);
      }}
      style={{ width: '100%' }}
    />
  );
}

/** The names of a region code's chain ("江苏省 / 苏州市 / 苏州工业园区"); the code itself while loading. */
export function RegionName({ code }: { code: string | null | undefined }) {
  const { data } = useQuery(regionQuery);
  if (!code) return <>-</>;
  const names = data ? regionPath(data, code).map((n) => n.name) : [];
  return <>{names.length ? names.join(' / ') : code}</>;
}
