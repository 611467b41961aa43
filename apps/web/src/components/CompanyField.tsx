import { Input, TreeSelect, theme } from 'antd';
import { useT } from '../platform/i18n/useT.ts';
import { useOptionSource, type CustomFieldProps, type DataOption, type FieldDef } from './crud/index.ts';
import { companyTreeSource } from './options/companies.ts';

/** A company's name in the tree of companies the caller may see. */
export function companyName(tree: readonly DataOption[], id: unknown): string | undefined {
  for (const n of tree) {
    if (n.value === id) return n.label;
    const below = n.children ? companyName(n.children, id) : undefined;
    if (below !== undefined) return below;
  }
  return undefined;
}

/**
 * The record's company: picked from the caller's companies on add; on edit shown as read-only
 * text (a record stays in its company). Not a disabled picker: antd's disabled select draws its
 * text below 4.5:1 contrast (axe: color-contrast); a read-only input in the normal text colour
 * keeps its label and can be read and copied.
 */
export function CompanyField({ id, value, onChange, mode }: Pick<CustomFieldProps<unknown>, 'id' | 'value' | 'onChange' | 'mode'>) {
  const t = useT();
  const { token } = theme.useToken();
  const companies = useOptionSource(companyTreeSource);
  if (mode === 'edit') {
    const name = companyName(companies.data ?? [], value) ?? (companies.isFetching || typeof value !== 'number' ? '' : `#${value}`);
    return <Input id={id} value={name} readOnly variant="filled" data-testid="company-readonly" style={{ color: token.colorText }} />;
  }
  return (
    <TreeSelect
      id={id}
      value={value as number | undefined}
      onChange={(v: number | undefined) => onChange(v)}
      treeData={companies.data ?? []}
      loading={companies.isFetching}
      allowClear
      showSearch
      treeNodeFilterProp="label"
      treeDefaultExpandAll
      placeholder={<span style={{ color: token.colorTextSecondary }}>{t('请选择')}</span>}
      style={{ width: '100%' }}
    />
  );
}

/** The first fields of a company-scoped record's form: its company (the server checks it is in the caller's scope; fixed on edit) and its name. */
export const companyAndName = <F,>(nameLabel: string): FieldDef<F>[] => [
  {
    name: 'companyId' as Extract<keyof F, string>, label: '所属公司', type: 'custom', required: true,
    render: ({ id, value, onChange, mode }) => <CompanyField id={id} value={value} onChange={onChange} mode={mode} />,
  },
  { name: 'name' as Extract<keyof F, string>, label: nameLabel, required: true, maxLength: 64 },
];
