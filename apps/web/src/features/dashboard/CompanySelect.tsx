import { companyEndpoints, type CompanyNode } from '@ess/contract/system';
import { useQuery } from '@tanstack/react-query';
import { theme, TreeSelect } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { dashboardKeys } from './dashboard.keys.ts';
interface TreeOption {
  value: number;
  title: string;
  children?: TreeOption[];
}
const treeOption = (n: CompanyNode): TreeOption => ({ value: n.id, title: n.name, ...(n.children?.length ? { children: n.children.map(treeOption) } : {}) });

/** The caller's company and those under it (the company tree): whose stations a page adds up. */
export function CompanySelect({ value, onChange, allowClear = false }: { value: number | undefined; onChange: (id: number | undefined) => void; allowClear?: boolean }) {
  const t = useT();
  const { token } = theme.useToken();
  const tree = useQuery({
    queryKey: dashboardKeys.companyTree(),
    queryFn: async () => (await call(companyEndpoints.tree, {}, { loading: false })).map(treeOption),
    staleTime: 60_000,
  });
  return (
    <TreeSelect
      aria-label={t('公司')}
      data-testid="company-select"
      value={value}
      onChange={(v: number | undefined) => onChange(v ?? undefined)}
      allowClear={allowClear}
      treeData={tree.data ?? []}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      loading={tree.isFetching}
      // antd's faint placeholder fails 4.5:1 contrast: the secondary text colour instead.
      placeholder={<span style={{ color: token.colorTextSecondary }}>{t(allowClear ? '全部公司' : '选择公司')}</span>}
      style={{ width: 280 }}
    />
  );
}
