import type { SortOrder } from '@ess/contract/common';
import { Grid, Table, type TableColumnType, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useMemo } from 'react';

/** The sort of a list as its request carries it (the contract's sortRequest). */
export interface SortState {
  field: string;
  order: SortOrder;
}

export interface DataTableProps<R> extends Omit<TableProps<R>, 'onChange'> {
  /** Fields the list's endpoint sorts by (sortFieldsOf its request schema); their columns sort. */
  sortFields?: readonly string[];
  sort?: SortState | null;
  onSort?: (sort: SortState | null) => void;
}

const keyOf = <R,>(c: TableColumnType<R>): string | undefined => {
  if (c.key !== undefined) return String(c.key);
  const di = (c as { dataIndex?: unknown }).dataIndex;
  return typeof di === 'string' ? di : undefined;
};

/**
 * Columns as every table shows them: those the server sorts by are sortable (the order comes
 * from `sort`, server-side), the first column stays in place while the rest scroll sideways
 * inside the card, and the row actions (key `actions`) stay at the right edge — except on a
 * phone, where two fixed columns would leave no room for the others.
 */
export function tableColumns<R>(
  columns: readonly TableColumnType<R>[],
  o: { sortFields?: readonly string[]; sort?: SortState | null; phone: boolean },
): TableColumnType<R>[] {
  return columns.map((c, i) => {
    const key = keyOf(c);
    const out: TableColumnType<R> = { ...c };
    if (key && o.sortFields?.includes(key)) {
      out.sorter = true;
      out.sortOrder = o.sort?.field === key ? (o.sort.order === 'desc' ? 'descend' : 'ascend') : null;
    }
    if (key === 'actions') out.fixed = o.phone ? undefined : 'right';
    else if (i === 0 && columns.length > 1) out.fixed = 'left';
    return out;
  });
}

/** antd's Table with the console's column rules (tableColumns) and server-side sorting. */
export function DataTable<R extends object>({ columns, sortFields, sort, onSort, scroll, ...rest }: DataTableProps<R>) {
  const screens = Grid.useBreakpoint();
  const phone = screens.sm === false;
  const shown = useMemo(() => tableColumns(columns ?? [], { sortFields, sort, phone }), [columns, sortFields, sort, phone]);
  return (
    <Table<R>
      {...rest}
      columns={shown}
      scroll={{ x: 'max-content', ...scroll }}
      onChange={(_pagination, _filters, sorter, extra) => {
        if (extra.action !== 'sort' || !onSort) return;
        const s: SorterResult<R> | undefined = Array.isArray(sorter) ? sorter[0] : sorter;
        const field = s?.columnKey !== undefined ? String(s.columnKey) : typeof s?.field === 'string' ? s.field : undefined;
        onSort(field && s?.order ? { field, order: s.order === 'descend' ? 'desc' : 'asc' } : null);
      }}
    />
  );
}
