import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { sortFieldsOf } from '@ess/contract/common';
import { App, Button, Card, Pagination, Popconfirm, Space, Upload, type CheckboxProps, type TableColumnsType } from 'antd';
import { lazy, Suspense, useDeferredValue, useMemo, useState, type Key, type ReactNode } from 'react';
import { DataTable, type SortState } from './DataTable.tsx';
import { useTablePrefs } from './table-prefs.ts';
import { Deferred } from '../Deferred.tsx';
import { PageFallback } from '../PageFallback.tsx';
import { isXlsx, type UploadOutcome } from '../upload-sheet.ts';
import { toast } from '../../platform/feedback/toast.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { canCall } from '../../platform/permissions.ts';
import { useUserStore } from '../../platform/user-store.ts';
import type { AnyEndpoint } from '@ess/contract/endpoint';
import type { ResourceDetailProps } from './ResourceDetail.tsx';
import type { ResourceFormProps } from './ResourceForm.tsx';
import { renderCell } from './crud.cells.tsx';
import {
  useDeleteResource, useExportResource, useImportResource, useResourceList, useResourcePage, useResourceTree,
} from './crud.hooks.ts';
import type { ResourceDef } from './crud.types.ts';
import { ResourceSearch } from './ResourceSearch.tsx';
import { TableOptions } from './TableOptions.tsx';

/** What toolbar buttons and row actions of a screen can do with the shared table. */
export interface TableContext<R, F> {
  openAdd: (initial?: Partial<F>) => void;
  openEdit: (row: R) => void;
  openDetail: (row: R) => void;
  refresh: () => Promise<unknown>;
  /** Rows ticked (with `selectable`). */
  selected: R[];
  clearSelection: () => void;
  /** The request fields of the current search. */
  filters: Record<string, unknown>;
}

export interface ResourceTableProps<R extends { id: number }, F, O> {
  def: ResourceDef<R, F, O>;
  toolbar?: (ctx: TableContext<R, F>) => ReactNode[];
  rowActions?: (row: R, ctx: TableContext<R, F>) => ReactNode[];
  /** Tick boxes on rows (bulk actions in the toolbar). */
  selectable?: boolean;
  detailExtra?: (record: O) => ReactNode;
  /** Runs when a row's detail opens (e.g. mark a notification read). */
  onDetail?: (row: R) => void;
  /** Shown (already translated) when the list is empty without a search: why nothing shows, what to do. */
  emptyText?: string;
}

// The form and the detail (with their date pickers, cascaders, descriptions...) load when first
// opened: a list page needs neither to show its rows.
const ResourceForm = lazy(() => import('./ResourceForm.tsx').then((m) => ({ default: m.ResourceForm }))) as <R extends { id: number }, F, O>(
  props: ResourceFormProps<R, F, O>,
) => ReactNode;
const ImportReport = lazy(() => import('../ImportReport.tsx').then((m) => ({ default: m.ImportReport })));
const ResourceDetail = lazy(() => import('./ResourceDetail.tsx').then((m) => ({ default: m.ResourceDetail }))) as <R extends { id: number }, F, O>(
  props: ResourceDetailProps<R, F, O>,
) => ReactNode;

type FormState<R, F> = { mode: 'add'; initial?: Partial<F> } | { mode: 'edit'; id: number; row: R } | null;

const withoutEmptyChildren = <R,>(rows: R[]): R[] =>
  rows.map((r) => {
    const children = (r as { children?: R[] }).children;
    if (!Array.isArray(children)) return r;
    if (children.length === 0) {
      const { children: _drop, ...rest } = r as R & { children?: R[] };
      return rest as R;
    }
    return { ...r, children: withoutEmptyChildren(children) };
  });

const parentIds = <R extends { id: number }>(rows: R[]): number[] =>
  rows.flatMap((r) => {
    const children = (r as { children?: R[] }).children;
    return Array.isArray(children) && children.length ? [r.id, ...parentIds(children)] : [];
  });

/**
 * The list screen of a resource: the definition's search form, then antd's Table over the server's page
 * ({ records, total, current, pageSize }) or tree, refresh, add/edit form, detail drawer, delete
 * with confirmation, xlsx export of the current search and xlsx import (a refused file opens its
 * per-row report, ImportReport).
 */
export function ResourceTable<R extends { id: number }, F, O>({ def, toolbar, rowActions, selectable, detailExtra, onDetail, emptyText }: ResourceTableProps<R, F, O>) {
  const t = useT();
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [paging, setPaging] = useState({ current: 1, pageSize: def.pageSize ?? 10 });
  const [form, setForm] = useState<FormState<R, F>>(null);
  const [detail, setDetail] = useState<R | null>(null);
  const [selectedKeys, setSelectedKeys] = useState<Key[]>([]);
  const [expanded, setExpanded] = useState<readonly Key[] | null>(null);
  // Density and column choice are the user's, per table (local storage); the sort is the server's.
  const prefs = useTablePrefs(def.key.join('.'));
  const density = prefs.density;
  const hiddenColumns = prefs.hidden;
  const [sort, setSort] = useState<SortState | null>(null);
  const [report, setReport] = useState<Extract<UploadOutcome<unknown>, { ok: false }> | null>(null);

  const { endpoints } = def;
  const mode = endpoints.page ? 'page' : endpoints.tree ? 'tree' : 'list';
  const sortBody = sort ? { sortField: sort.field, sortOrder: sort.order } : {};
  const exportSorts = useMemo(() => sortFieldsOf(endpoints.export?.body).length > 0, [endpoints.export]);
  const filtered = Object.keys(filters).length > 0;
  const useFlatList = mode === 'list' || (mode === 'tree' && filtered && !!endpoints.list);
  // The columns that sort are those the endpoint shown declares: the page, the flat list (a search
  // of a tree), or the tree, whose siblings sort within each level.
  const shownEndpoint = mode === 'page' ? endpoints.page : useFlatList ? endpoints.list : endpoints.tree;
  const sortFields = useMemo(() => sortFieldsOf(shownEndpoint?.body), [shownEndpoint]);
  const sortOf = (on: boolean) => (on && sort && sortFields.includes(sort.field) ? sortBody : {});
  const page = useResourcePage(def, { ...def.fixedFilters, ...filters, ...sortOf(mode === 'page'), ...paging }, mode === 'page');
  const list = useResourceList(def, { ...def.fixedFilters, ...filters, ...sortOf(useFlatList) }, useFlatList);
  const tree = useResourceTree(def, mode === 'tree' && !useFlatList, sortOf(mode === 'tree' && !useFlatList));
  const active = mode === 'page' ? page : useFlatList ? list : tree;
  // The table is first drawn once the first answer is in (or has failed), in a render React may
  // interrupt: not drawn empty and then again with its rows, each in one long task that blocks
  // the page (bench/web/profile.ts). It stays drawn from then on, whatever is being fetched.
  const [answered, setAnswered] = useState(false);
  if (!answered && !active.isPending) setAnswered(true);
  const drawn = useDeferredValue(answered);
  const rows = useMemo<R[]>(() => {
    if (mode === 'page') return page.data?.records ?? [];
    return withoutEmptyChildren((useFlatList ? list.data : tree.data) ?? []);
  }, [mode, useFlatList, page.data, list.data, tree.data]);
  const remove = useDeleteResource(def);
  const permissions = useUserStore((s) => s.permissions);
  const exporter = useExportResource(def, def.exportName ? t(def.exportName) : undefined);
  const importer = useImportResource(def);

  const selected = rows.filter((r) => selectedKeys.includes(r.id));
  const ctx: TableContext<R, F> = {
    openAdd: (initial) => setForm({ mode: 'add', initial }),
    openEdit: (row) => setForm({ mode: 'edit', id: row.id, row }),
    openDetail: (row) => {
      setDetail(row);
      onDetail?.(row);
    },
    refresh: () => active.refetch(),
    selected,
    clearSelection: () => setSelectedKeys([]),
    filters,
  };

  // An action shows only when the user may make the call behind it (the profile's permissions).
  const allowed = (ep: AnyEndpoint | undefined): ep is AnyEndpoint => !!ep && canCall(permissions, ep);
  const canAdd = !!def.form && allowed(endpoints.add);
  const canEdit = (row: R) => !!def.form && allowed(endpoints.edit) && (def.canEdit?.(row) ?? true);
  const canDelete = (row: R) => allowed(endpoints.delete) && (def.canDelete?.(row) ?? true);
  const hasDetail = def.detail ?? !!endpoints.one;

  /** A new search (or a reset, with no fields) starts again on page 1 with nothing ticked. */
  const search = (body: Record<string, unknown>) => {
    setFilters(body);
    setPaging((p) => ({ ...p, current: 1 }));
    setSelectedKeys([]);
  };

  const deleteRow = async (row: R) => {
    try {
      await remove.mutateAsync(row.id);
      void message.success(t('删除成功'));
    } catch {
      // The request layer has shown the reason.
    }
  };

  const dataColumns = def.columns.filter((c) => c.inTable !== false);
  const columns: TableColumnsType<R> = dataColumns
    .filter((c) => !hiddenColumns.includes(c.key))
    .map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: t(c.title),
      width: c.width,
      ellipsis: c.ellipsis,
      render: (_value: unknown, row: R) => renderCell(c, row, t),
    }));

  const actionsFor = (row: R): ReactNode[] => [
    ...(hasDetail
      ? [
          <Button key="detail" type="link" size="small" icon={<EyeOutlined />} onClick={() => ctx.openDetail(row)}>
            {t('详情')}
          </Button>,
        ]
      : []),
    ...(canEdit(row)
      ? [
          <Button key="edit" type="link" size="small" icon={<EditOutlined />} onClick={() => ctx.openEdit(row)}>
            {t('编辑')}
          </Button>,
        ]
      : []),
    ...(rowActions?.(row, ctx) ?? []),
    ...(canDelete(row)
      ? [
          <Popconfirm
            key="delete"
            title={t('确定删除该$1吗？', t(def.name))}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={() => void deleteRow(row)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('删除')}
            </Button>
          </Popconfirm>,
        ]
      : []),
  ];
  const anyActions = hasDetail || allowed(endpoints.edit) || allowed(endpoints.delete) || !!rowActions;
  if (anyActions) {
    columns.push({
      key: 'actions',
      title: t('操作'),
      width: def.actionsWidth ?? 200,
      render: (_value: unknown, row: R) => <Space size={0}>{actionsFor(row)}</Space>,
    });
  }

  const toolbarButtons: ReactNode[] = [
    ...(toolbar?.(ctx) ?? []),
    ...(allowed(endpoints.import) && def.showImport !== false
      ? [
          <Upload
            key="import"
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(file) => {
              if (!isXlsx(file, (text) => void message.error(text), t)) return Upload.LIST_IGNORE;
              importer.mutate(file, {
                onSuccess: (r) => {
                  // A refusal with a per-row report opens it; any other failure keeps its toast.
                  if (r.ok) void message.success(t('导入成功'));
                  else if (r.errors.length) setReport(r);
                  else toast('error', t(r.tip), { align: 'left', pauseOnHover: true });
                },
              });
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={importer.isPending}>
              {t('导入')}
            </Button>
          </Upload>,
        ]
      : []),
    ...(allowed(endpoints.export) && def.showExport !== false
      ? [
          <Button key="export" icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => exporter.mutate({ ...def.fixedFilters, ...filters, ...(exportSorts ? sortBody : {}) })}>
            {t('导出')}
          </Button>,
        ]
      : []),
    ...(canAdd
      ? [
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => ctx.openAdd()}>
            {t('新增')}
          </Button>,
        ]
      : []),
  ];

  const expandedKeys = expanded ?? parentIds(rows);
  const total = page.data?.total ?? 0;
  // A row's tick box is named (axe: label); antd hands these props to the <input>, its type omits aria-*.
  const rowCheckboxLabel = { 'aria-label': t('选择此行') } as unknown as Partial<CheckboxProps>;

  if (!drawn) return <PageFallback />;
  return (
    <>
      {def.filters?.length ? (
        <Card size="small" className="ess-resource-card">
          <ResourceSearch filters={def.filters} onSearch={search} onReset={() => search({})} />
        </Card>
      ) : null}
      {/* The toolbar's card in a turn after the search form, the table in one after that
          (components/Deferred.tsx); each is drawn below what is there, so nothing moves. */}
      <Deferred>
        <Card size="small" className="ess-resource-card">
          <div className="ess-resource-toolbar">
            <h2 className="ess-resource-title">{t('$1列表', t(def.name))}</h2>
            <div className="ess-resource-actions">{toolbarButtons}</div>
            <TableOptions
              onReload={() => void active.refetch()}
              density={density}
              onDensity={prefs.setDensity}
              columns={dataColumns.map((c) => ({ key: c.key, title: t(c.title) }))}
              hidden={hiddenColumns}
              onHidden={prefs.setHidden}
            />
          </div>
          <Deferred>
            <DataTable<R>
              rowKey="id"
              size={density}
              columns={columns}
              dataSource={rows}
              loading={active.isFetching}
              rowSelection={
                selectable
                  ? { selectedRowKeys: selectedKeys, onChange: (keys) => setSelectedKeys(keys), getCheckboxProps: () => rowCheckboxLabel }
                  : undefined
              }
              expandable={mode === 'tree' ? { expandedRowKeys: expandedKeys, onExpandedRowsChange: (keys) => setExpanded(keys) } : undefined}
              pagination={false}
              sortFields={sortFields}
              sort={sort}
              onSort={(s) => {
                setSort(s);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              locale={emptyText && !filtered ? { emptyText } : undefined}
            />
          </Deferred>
          {/* The pager under the table, in a turn of its own (it holds a select). */}
          {mode === 'page' && total > 0 && (
            <Deferred>
              <Pagination
                className="ess-table-pagination"
                size={density === 'large' ? 'default' : 'small'}
                current={paging.current}
                pageSize={paging.pageSize}
                total={total}
                showSizeChanger
                showTotal={(n) => t('共 $1 条', n)}
                onChange={(current, pageSize) => setPaging({ current: pageSize !== paging.pageSize ? 1 : current, pageSize })}
              />
            </Deferred>
          )}
        </Card>
      </Deferred>
      <Suspense fallback={null}>
        {form && (
          <ResourceForm
            def={def}
            mode={form.mode}
            id={form.mode === 'edit' ? form.id : undefined}
            row={form.mode === 'edit' ? form.row : undefined}
            initialValues={form.mode === 'add' ? form.initial : undefined}
            onClose={() => setForm(null)}
            onSaved={() => setForm(null)}
          />
        )}
        {detail && <ResourceDetail def={def} row={detail} onClose={() => setDetail(null)} extra={detailExtra} />}
        {report && <ImportReport tip={report.tip} errors={report.errors} onClose={() => setReport(null)} />}
      </Suspense>
    </>
  );
}
