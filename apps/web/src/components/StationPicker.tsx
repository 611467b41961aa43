import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useT } from '../platform/i18n/useT.ts';
import { siteLabel, siteListQuery, type SiteRef } from './options/sites.ts';

/**
 * The one station picker: one of the stations the caller may see, named "name (code)", searchable.
 * With `onClear` the choice can be cleared (every station); with `autoSelectFirst` the first
 * station is chosen when none is yet (screens that always show one station).
 */
export function StationPicker({ value, onChange, onClear, autoSelectFirst = false, id, width = 240, placeholder }: {
  value: number | null | undefined;
  onChange: (id: number, site: SiteRef) => void;
  onClear?: () => void;
  autoSelectFirst?: boolean;
  id?: string;
  width?: number;
  placeholder?: string;
}) {
  const t = useT();
  const sites = useQuery(siteListQuery);
  const list = useMemo(() => sites.data ?? [], [sites.data]);
  const first = list[0];
  useEffect(() => {
    if (autoSelectFirst && (value === null || value === undefined) && first) onChange(first.id, first);
  }, [autoSelectFirst, value, first, onChange]);
  return (
    <Select
      id={id}
      aria-label={t('站点')}
      data-testid="station-select"
      style={{ minWidth: width }}
      value={value ?? undefined}
      loading={sites.isFetching}
      allowClear={!!onClear}
      showSearch
      optionFilterProp="label"
      placeholder={placeholder ?? (onClear ? t('全部站点') : t('请选择站点'))}
      notFoundContent={t('暂无可访问的站点')}
      options={list.map((s) => ({ value: s.id, label: siteLabel(s) }))}
      onChange={(v: number | undefined) => {
        const s = v === undefined ? undefined : list.find((x) => x.id === v);
        if (s) onChange(s.id, s);
        else onClear?.();
      }}
    />
  );
}
