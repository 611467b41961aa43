import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { siteListQuery } from '../site/site.options.ts';

/** One of the stations in scope, or all of them (cleared). */
export function AlarmSiteSelect({ value, onChange, width = 240 }: { value: number | undefined; onChange: (id: number | undefined) => void; width?: number }) {
  const t = useT();
  const sites = useQuery(siteListQuery);
  return (
    <Select
      aria-label={t('站点')}
      data-testid="alarm-site-select"
      value={value}
      onChange={(v: number | undefined) => onChange(v ?? undefined)}
      options={(sites.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }))}
      loading={sites.isFetching}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('全部站点')}
      style={{ width }}
    />
  );
}
