import { useQuery } from '@tanstack/react-query';
import { Form, Select, theme, type FormInstance } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { siteQuery } from '../../components/options/sites.ts';

/**
 * The stations a user may see, chosen among the stations of the user's company, with the count.
 * When the station list cannot be loaded the picker says so and keeps the current grants.
 */
export function SitePicker<F>({ id, value, onChange, form }: { id?: string; value?: unknown; onChange?: (ids: number[]) => void; form: FormInstance<F> }) {
  const t = useT();
  const { token } = theme.useToken();
  const companyId = Form.useWatch('companyId' as never, form) as number | undefined;
  const sites = useQuery(siteQuery(companyId));
  const ids = Array.isArray(value) ? (value as number[]) : [];
  const known = new Set((sites.data ?? []).map((s) => s.id));
  const options = [
    ...(sites.data ?? []).map((s) => ({ value: s.id, label: s.code ? `${s.name} (${s.code})` : s.name })),
    // Granted stations outside the list (another company's, or not loaded) stay visible by id.
    ...ids.filter((i) => !known.has(i)).map((i) => ({ value: i, label: t('站点 #$1', i) })),
  ];
  return (
    <>
      <Select
        id={id}
        mode="multiple"
        value={ids}
        options={options}
        loading={sites.isFetching}
        allowClear
        showSearch
        optionFilterProp="label"
        maxTagCount="responsive"
        placeholder={<span style={{ color: token.colorTextSecondary }}>{sites.isError ? t('站点列表暂不可用') : t('选择可访问的站点')}</span>}
        notFoundContent={sites.isError ? t('站点列表暂不可用') : t('该公司暂无站点')}
        onChange={(v: number[]) => onChange?.([...new Set(v)])}
        style={{ width: '100%' }}
      />
      <span style={{ fontSize: 12 }}>{t('已选 $1 个站点', ids.length)}</span>
    </>
  );
}
