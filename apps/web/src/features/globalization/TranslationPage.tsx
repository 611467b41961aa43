import { DownloadOutlined, EditOutlined, RobotOutlined, SyncOutlined, UploadOutlined } from '@ant-design/icons';
import { i18nEndpoints, type OriginalRecord, type TranslationState } from '@ess/contract/i18n';
import type { ImportRowError } from '@ess/contract/common';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Grid, Input, Popconfirm, Select, Space, Tabs, Typography, Upload, type CheckboxProps } from 'antd';
import { DataTable } from '../../components/crud/DataTable.tsx';
import { useState } from 'react';
import { ImportReport } from '../../components/ImportReport.tsx';
import { formatDateTime, formatNumber } from '../../components/number-format.ts';
import { isXlsx, uploadSheet } from '../../components/upload-sheet.ts';
import { forgetPacks, loadLanguagePack } from '../../platform/i18n/language.ts';
import { translateBuiltIn } from '../../platform/i18n/translate.ts';
import { useLocale, useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call, callFile } from '../../platform/request.ts';
import { CompletionModal } from './CompletionModal.tsx';
import { globalizationKeys } from './globalization.keys.ts';
import { STATE_OPTIONS } from './globalization.options.ts';
import { LinkButton } from './LinkButton.tsx';
import { StateTag } from './parts.tsx';
import { DOMAIN_CALLS, type Domain } from './translation.api.ts';
import { TranslationEditor } from './TranslationEditor.tsx';

/** "Refresh" of the UI texts, with what it would do (refresh/tip) shown before it runs. */
function RefreshButton({ onDone }: { onDone: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const tip = useQuery({ queryKey: globalizationKeys.tip, queryFn: () => call(i18nEndpoints.textTip, undefined, { loading: false }), enabled: open });
  const refresh = async () => {
    const r = await call(i18nEndpoints.textRefresh, {}).catch(() => null);
    if (!r) return;
    message.success(t('刷新完成：新增 $1，变更 $2，移除 $3，恢复 $4', r.added, r.changed, r.obsoleted, r.restored));
    onDone();
  };
  const d = tip.data;
  return (
    <Popconfirm
      open={open}
      onOpenChange={setOpen}
      title={t('刷新界面文本')}
      description={
        <div data-testid="refresh-tip" style={{ maxWidth: 320 }}>
          {d ? (
            <>
              <div>{t('自上次刷新：新增 $1，变更 $2，移除 $3', d.added, d.changed, d.removed)}</div>
              <Typography.Text type="secondary">{t('上次刷新：$1', d.lastRefreshAt ? formatDateTime(d.lastRefreshAt) : t('从未'))}</Typography.Text>
            </>
          ) : (
            t('加载中…')
          )}
        </div>
      }
      okText={t('刷新')}
      cancelText={t('取消')}
      onConfirm={() => void refresh()}
    >
      <Button icon={<SyncOutlined />} data-testid="text-refresh">{t('刷新')}</Button>
    </Popconfirm>
  );
}

interface Filters {
  languageId: string;
  state?: TranslationState;
  keyword?: string;
  /** Business data: one data field's originals (its text node). */
  nodeId?: number;
}

/** The business data's fields (text nodes) to filter by, named as the built-in names are shown. */
function NodeFilter({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const t = useT();
  const nodes = useQuery({ queryKey: globalizationKeys.nodes, queryFn: () => call(i18nEndpoints.nodeList, {}, { loading: false }) });
  return (
    <Select
      aria-label={t('数据字段')}
      data-testid="data-node"
      style={{ width: 200 }}
      allowClear
      placeholder={t('全部数据字段')}
      value={value}
      loading={nodes.isLoading}
      options={(nodes.data ?? []).map((n) => ({ value: n.id, label: translateBuiltIn(n.name) }))}
      onChange={(v: number | undefined) => onChange(v)}
    />
  );
}

/** One domain's list: filters, the originals with their translation in the chosen language, edit in place, review, xlsx, machine completion. */
function DomainPanel({ domain, languages }: { domain: Domain; languages: { value: string; label: string }[] }) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const calls = DOMAIN_CALLS[domain];
  const { message } = App.useApp();
  const canEdit = useCan(calls.edit);
  const firstLanguage = languages.find((l) => l.value === locale)?.value ?? languages[0]?.value ?? 'en-US';
  const [filters, setFilters] = useState<Filters>({ languageId: firstLanguage });
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [editing, setEditing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [completing, setCompleting] = useState(false);
  const [refusal, setRefusal] = useState<{ tip: string; errors: ImportRowError[] } | null>(null);
  const root = domain === 'text' ? globalizationKeys.texts : globalizationKeys.data;
  // On a phone the source (fixed at the left) leaves room for the translation beside it; the rest scrolls inside the card.
  const phone = Grid.useBreakpoint().sm === false;
  const list = useQuery({
    queryKey: globalizationKeys.originals(domain, filters, page),
    queryFn: () => call(calls.page, { ...filters, ...page, withObsolete: false }, { loading: false }),
    placeholderData: keepPreviousData,
  });
  const reload = () => {
    void client.invalidateQueries({ queryKey: root });
    void client.invalidateQueries({ queryKey: globalizationKeys.languages });
    // The console's own pack: an edit of its language shows without a rebuild.
    if (filters.languageId === locale) {
      forgetPacks();
      void loadLanguagePack();
    }
  };
  const importFile = async (file: File) => {
    if (!isXlsx(file, (s) => void message.error(s), t)) return;
    const r = await uploadSheet(calls.import, file, { languageId: filters.languageId });
    if (r.ok) {
      message.success(t('导入完成：更新 $1 条，未变 $2 条', r.result.updated, r.result.unchanged));
      reload();
    } else setRefusal({ tip: r.tip, errors: r.errors });
  };
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, current: 1 }));
    setSelected([]);
  };
  const review = async (row: OriginalRecord) => {
    const ok = await call(calls.edit, { id: row.id, languageId: row.languageId, translation: row.translation ?? '', reviewed: true }).then(() => true, () => false);
    if (ok) reload();
  };
  return (
    <Card size="small">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('语言')}
          data-testid={`${domain}-language`}
          style={{ width: 200 }}
          value={filters.languageId}
          options={languages}
          onChange={(v) => set({ languageId: v })}
        />
        <Select
          aria-label={t('状态')}
          data-testid={`${domain}-state`}
          style={{ width: 140 }}
          allowClear
          placeholder={t('全部状态')}
          value={filters.state}
          options={STATE_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))}
          onChange={(v: TranslationState | undefined) => set({ state: v })}
        />
        {domain === 'data' && <NodeFilter value={filters.nodeId} onChange={(nodeId) => set({ nodeId })} />}
        <Input.Search
          aria-label={t('搜索原文或译文')}
          placeholder={t('搜索原文或译文')}
          data-testid={`${domain}-keyword`}
          style={{ width: 240 }}
          allowClear
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => set({ keyword: v.trim() || undefined })}
        />
        {domain === 'text' && canEdit && <RefreshButton onDone={reload} />}
        {domain === 'data' && canEdit && (
          <Button icon={<SyncOutlined />} data-testid="data-refresh" onClick={() => void call(i18nEndpoints.dataRefresh).then((r) => { message.success(t('刷新完成：新增 $1，变更 $2，移除 $3，恢复 $4', r.added, r.changed, r.obsoleted, r.restored)); reload(); }, () => undefined)}>
            {t('刷新')}
          </Button>
        )}
        <Button icon={<DownloadOutlined />} data-testid={`${domain}-export`} onClick={() => void callFile(calls.export, filters).catch(() => undefined)}>
          {t('导出')}
        </Button>
        {canEdit && (
          <Upload accept=".xlsx" showUploadList={false} beforeUpload={(f) => (void importFile(f), false)}>
            <Button icon={<UploadOutlined />} data-testid={`${domain}-import`}>{t('导入')}</Button>
          </Upload>
        )}
        {canEdit && (
          <Button type="primary" icon={<RobotOutlined />} data-testid={`${domain}-complete`} onClick={() => setCompleting(true)}>
            {selected.length ? t('机器翻译选中的 $1 条', selected.length) : t('机器翻译')}
          </Button>
        )}
      </Space>
      <DataTable<OriginalRecord>
        size="small"
        rowKey="id"
        data-testid={`${domain}-table`}
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        // No select-all box: antd copies column titles into the hidden measure row, where a box is focusable (axe).
        rowSelection={canEdit ? { hideSelectAll: true, columnTitle: <span className="ess-visually-hidden">{t('选择')}</span>, selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), getCheckboxProps: () => ({ 'aria-label': t('选择此行') }) as Partial<CheckboxProps> } : undefined}
        pagination={{
          current: page.current, pageSize: page.pageSize, total: list.data?.total ?? 0, showSizeChanger: true,
          showTotal: (n) => t('共 $1 条', formatNumber(n)), onChange: (current, pageSize) => setPage({ current, pageSize }),
        }}
        columns={[
          {
            title: t('原文'), dataIndex: 'source', width: phone ? 140 : 280,
            render: (v: string, r) => (
              <div>
                <Typography.Text lang="zh-CN" style={{ whiteSpace: 'pre-wrap' }} data-testid="row-source">{v}</Typography.Text>
                {(r.context ?? r.nodeName) && <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.nodeName ? translateBuiltIn(r.nodeName) : r.context}</Typography.Text></div>}
              </div>
            ),
          },
          {
            title: t('译文'), dataIndex: 'translation', width: phone ? 260 : 400,
            render: (v: string | null, r) =>
              editing === r.id ? (
                <TranslationEditor domain={domain} row={r} autoFocus onCancel={() => setEditing(null)} onSaved={() => { setEditing(null); reload(); }} />
              ) : (
                <Typography.Text lang={r.languageId} style={{ whiteSpace: 'pre-wrap' }} type={v ? undefined : 'secondary'} data-testid="row-translation">
                  {v ?? t('（未翻译）')}
                </Typography.Text>
              ),
          },
          {
            title: t('状态'), dataIndex: 'state', width: 150,
            render: (s: TranslationState, r) => (
              <div>
                <StateTag state={s} />
                {r.engineName && <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.engineName}</Typography.Text></div>}
              </div>
            ),
          },
          ...(canEdit
            ? [{
                title: t('操作'), key: 'actions', width: 170,
                render: (_: unknown, r: OriginalRecord) => (
                  <Space size={0}>
                    <LinkButton icon={<EditOutlined />} text={t('编辑')} testId="row-edit" onClick={() => setEditing(r.id)} />
                    {r.translation && r.state !== 'reviewed' && <LinkButton text={t('审校通过')} testId="row-review" onClick={() => void review(r)} />}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      {completing && (
        <CompletionModal domain={domain} languageId={filters.languageId} ids={selected} onClose={() => { setCompleting(false); setSelected([]); reload(); }} />
      )}
      {refusal && <ImportReport tip={refusal.tip} errors={refusal.errors} onClose={() => setRefusal(null)} />}
    </Card>
  );
}

/** /globalization/translation: UI texts and business data in every language, with their states; edit, review, refresh, xlsx, machine completion. */
export function TranslationPage() {
  const t = useT();
  const languages = useQuery({ queryKey: globalizationKeys.enabled, queryFn: () => call(i18nEndpoints.languageList, {}, { loading: false }) });
  const options = (languages.data ?? []).filter((l) => !l.isSource).map((l) => ({ value: l.code, label: `${l.nativeName} (${l.code})` }));
  if (!languages.data) return <Card loading />;
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'text', label: t('界面文本'), children: <DomainPanel domain="text" languages={options} /> },
        { key: 'data', label: t('业务数据'), children: <DomainPanel domain="data" languages={options} /> },
      ]}
    />
  );
}
