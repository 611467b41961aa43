import { Descriptions, Drawer, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { renderCell } from './crud.cells.tsx';
import { useResourceOne } from './crud.hooks.ts';
import type { ColumnDef, ResourceDef } from './crud.types.ts';

export interface ResourceDetailProps<R extends { id: number }, F, O> {
  def: ResourceDef<R, F, O>;
  /** The row of the list; its record is loaded with the `one` endpoint when there is one. */
  row: R;
  onClose: () => void;
  /** Shown under the fields (e.g. a list of recipients). */
  extra?: (record: O) => ReactNode;
}

/** The detail of a record in a drawer: every detail column as a line of antd's Descriptions. */
export function ResourceDetail<R extends { id: number }, F, O>({ def, row, onClose, extra }: ResourceDetailProps<R, F, O>) {
  const t = useT();
  const one = useResourceOne(def, def.endpoints.one ? row.id : null);
  const record = (def.endpoints.one ? one.data : row) as O | undefined;
  const columns = (def.detailColumns ?? (def.columns as unknown as ColumnDef<O>[])).filter((c) => c.inDetail !== false);
  const items = (found: O) =>
    columns.map((c) => ({ key: c.key, label: t(c.title), span: c.detailSpan, children: renderCell(c, found, t) }));
  return (
    <Drawer open title={t('$1详情', t(def.name))} width={720} onClose={onClose} destroyOnHidden>
      {record === undefined ? (
        <div style={{ textAlign: 'center', padding: 32 }}>
          <Spin />
        </div>
      ) : (
        <>
          <Descriptions column={2} bordered size="small" styles={{ label: { whiteSpace: 'nowrap' } }} items={items(record)} />
          {extra?.(record)}
        </>
      )}
    </Drawer>
  );
}
