import { Button, Col, Form, Input, Row, Select, TreeSelect } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { Deferred } from '../Deferred.tsx';
import { optionLabel } from './crud.cells.tsx';
import { filtersToBody } from './crud.filters.ts';
import { useOptionSource } from './crud.hooks.ts';
import type { FilterDef, Translate } from './crud.types.ts';

// Lists without such a filter do not load the date picker or the number input.
const DateTimeRangeFilter = lazy(() => import('./FilterInputs.tsx').then((m) => ({ default: m.DateTimeRangeFilter })));
const DateRangeFilter = lazy(() => import('./FilterInputs.tsx').then((m) => ({ default: m.DateRangeFilter })));
const NumberFilter = lazy(() => import('./FilterInputs.tsx').then((m) => ({ default: m.NumberFilter })));

/** A search-form select over enum values or server options. */
function FilterSelect({ filter, t, ...rest }: { filter: FilterDef; t: Translate; id?: string; value?: unknown; onChange?: (v: unknown) => void }) {
  const loaded = useOptionSource(filter.source ?? null);
  const placeholder = t('请选择');
  if (filter.type === 'treeSelect') {
    return (
      <TreeSelect
        {...rest}
        treeData={loaded.data ?? []}
        allowClear
        showSearch
        treeNodeFilterProp="label"
        treeDefaultExpandAll
        placeholder={placeholder}
        aria-label={t(filter.title)}
      />
    );
  }
  const options = filter.options
    ? filter.options.map((o) => ({ value: String(o.value), label: optionLabel(o, t) }))
    : (loaded.data ?? []);
  return <Select {...rest} options={options} allowClear showSearch optionFilterProp="label" placeholder={placeholder} aria-label={t(filter.title)} />;
}

/** The control of one filter; Form.Item hands it `id`, `value` and `onChange`. */
function FilterControl({ filter, t, ...item }: { filter: FilterDef; t: Translate; id?: string; value?: never; onChange?: (v: unknown) => void }) {
  /** A control loaded on first use: a disabled box of its size and name holds its place until then. */
  const lazily = (control: ReactNode) => <Suspense fallback={<Input id={item.id} disabled aria-label={t(filter.title)} />}>{control}</Suspense>;
  switch (filter.type ?? 'text') {
    case 'text':
      return <Input {...item} allowClear maxLength={128} placeholder={t('请输入')} />;
    case 'number':
      return lazily(<NumberFilter {...item} t={t} />);
    case 'datetimeRange':
      return lazily(<DateTimeRangeFilter {...item} t={t} />);
    case 'dateRange':
      return lazily(<DateRangeFilter {...item} t={t} />);
    case 'enum':
    case 'select':
    case 'treeSelect':
      // Each select in a turn of its own (components/Deferred.tsx), after the rest of the page:
      // antd's Select and TreeSelect are heavy to draw first. Until then a read-only box of the
      // same size holds its place.
      return (
        <Deferred late fallback={<Input id={item.id} readOnly placeholder={t('请选择')} aria-label={t(filter.title)} />}>
          <FilterSelect {...item} filter={filter} t={t} />
        </Deferred>
      );
  }
}

export interface ResourceSearchProps {
  filters: readonly FilterDef[];
  /** The request fields of the submitted values (empty values left out). */
  onSearch: (body: Record<string, unknown>) => void;
  onReset: () => void;
}

/**
 * The search form above a resource list: one field per filter in a grid (four a row on a wide
 * screen, a time range two), search and reset at the end. Enter in a field searches.
 */
export function ResourceSearch({ filters, onSearch, onReset }: ResourceSearchProps) {
  const t = useT();
  const [form] = Form.useForm<Record<string, unknown>>();
  return (
    <Form
      form={form}
      name="search"
      className="ess-resource-search"
      onFinish={(values) => onSearch(filtersToBody(filters, values))}
    >
      <Row gutter={[24, 16]}>
        {filters.map((f) => {
          const wide = f.type === 'datetimeRange' || f.type === 'dateRange';
          return (
            <Col key={f.key} xs={24} md={wide ? 24 : 12} xl={wide ? 12 : 6}>
              <Form.Item name={f.key} label={t(f.title)} style={{ marginBottom: 0 }}>
                <FilterControl filter={f} t={t} />
              </Form.Item>
            </Col>
          );
        })}
        <Col flex="auto" className="ess-resource-search-actions">
          <Button
            onClick={() => {
              form.resetFields();
              onReset();
            }}
          >
            {t('重置')}
          </Button>
          <Button type="primary" htmlType="submit">
            {t('查询')}
          </Button>
        </Col>
      </Row>
    </Form>
  );
}
