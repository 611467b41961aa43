import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { siteListQuery, type SiteRef } from './site.options.ts';

/** One station of the caller's; picks the first when none is chosen yet. */
export function StationSelect({ value, onChange, id }: { value: number | null; onChange: (id: number, site: SiteRef) => void; id?: string }) {
  const t = useT();
  const sites = useQuery(siteListQuery);
  const list = useMemo(() => sites.data ?? [], [sites.data]);
  useEffect(() => {
    if (value === null && list[0]) onChange(list[0].id, list[0]);
  }, [value, list, onChange]);
  return (
    <Select
      id={id}
      style={{ minWidth: 280 }}
      value={value ?? undefined}
      loading={sites.isFetching}
      showSearch
      optionFilterProp="label"
      placeholder={t('请选择站点')}
      notFoundContent={t('暂无可访问的站点')}
      options={list.map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
      onChange={(v: number) => {
        const s = list.find((x) => x.id === v);
        if (s) onChange(v, s);
      }}
    />
  );
}
