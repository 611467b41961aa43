import { Select } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { useSiteTree } from './monitor.api.ts';

/** Picks one of the stations in scope (from the site → device tree). */
export function StationSelect({ value, onChange, allowClear = false, width = 220 }: {
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  allowClear?: boolean;
  width?: number;
}) {
  const t = useT();
  const tree = useSiteTree();
  const options = (tree.data ?? []).filter((n) => n.kind === 'site').map((n) => ({ value: n.id, label: n.name }));
  return (
    <Select
      aria-label={t('站点')}
      data-testid="station-select"
      value={value}
      onChange={(v: number | undefined) => onChange(v ?? undefined)}
      options={options}
      loading={tree.isFetching}
      allowClear={allowClear}
      showSearch
      optionFilterProp="label"
      placeholder={t('选择站点')}
      style={{ width }}
    />
  );
}
