import { RedoOutlined, SettingOutlined } from '@ant-design/icons';
import { hookEndpoints, type HookExecRecord, type HookReplayResult } from '@ess/contract/hooks';
import { Alert, Button, Card, Modal, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';
import { LinkButton, useRowCall } from '../../components/RowActions.tsx';
import { JsonBlock, RecordStateTag } from './parts.tsx';
import { recordResource } from './record.resource.tsx';
import { SettingsModal } from './SettingsModal.tsx';

/** The positive integer of a query parameter, or null. */
export function idOf(search: URLSearchParams, name: string): number | null {
  const raw = search.get(name);
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** The original output beside the current script's, and the send's outcome. */
export function ReplayView({ r }: { r: HookReplayResult }) {
  const t = useT();
  return (
    <div data-testid="replay-result">
      {r.sameScript ? (
        <Alert type="info" showIcon message={t('脚本未修改，与原记录运行的脚本相同')} style={{ marginBottom: 12 }} />
      ) : (
        <Alert type="warning" showIcon message={t('脚本已修改：右侧为当前脚本的输出')} style={{ marginBottom: 12 }} />
      )}
      <div className="ess-hook-side">
        <Card size="small" title={t('原输出')} data-testid="replay-original">
          <Space direction="vertical" style={{ width: '100%' }}>
            <RecordStateTag state={r.original.state} />
            {r.original.error ? <Typography.Text type="danger">{r.original.error}</Typography.Text> : null}
            <JsonBlock value={r.original.output} label={t('原输出')} />
          </Space>
        </Card>
        <Card size="small" title={t('当前脚本输出')} data-testid="replay-current">
          <Space direction="vertical" style={{ width: '100%' }}>
            {r.current.skipped ? <Typography.Text type="secondary">{t('脚本返回空，将跳过投递')}</Typography.Text> : null}
            {r.current.error ? <Typography.Text type="danger">{r.current.error}</Typography.Text> : null}
            <JsonBlock value={r.current.output} label={t('当前脚本输出')} />
          </Space>
        </Card>
      </div>
      {r.recordId !== null && (
        <p style={{ marginTop: 12 }} data-testid="replay-sent">
          {t('已重新发送，新记录 $1', r.recordId)} {r.state ? <RecordStateTag state={r.state} /> : null}
        </p>
      )}
    </div>
  );
}

/** Replays a record: first with the current script only (nothing sent), then, when asked, sends it again (a new record). */
function ReplayModal({ record, onClose }: { record: HookExecRecord; onClose: () => void }) {
  const t = useT();
  const canReplay = useCan(hookEndpoints.execRecordReplay);
  const { busy, run } = useRowCall(hookKeys.records);
  const [result, setResult] = useState<HookReplayResult | null>(null);
  const replay = async (send: boolean) => {
    const r = await run(send ? 'send' : 'dry', () => call(hookEndpoints.execRecordReplay, { id: record.id, send }));
    if (r) setResult(r);
  };
  return (
    <Modal
      open
      title={t('重放记录 $1 · $2', record.id, record.hookName)}
      width={900}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('关闭')}</Button>
          <Button onClick={() => void replay(false)} loading={busy === 'dry'} disabled={!canReplay} data-testid="replay-run">
            {t('用当前脚本运行')}
          </Button>
          <Button type="primary" onClick={() => void replay(true)} loading={busy === 'send'} disabled={!canReplay} data-testid="replay-send">
            {t('重新发送')}
          </Button>
        </Space>
      }
    >
      {result ? <ReplayView r={result} /> : <Typography.Paragraph>{t('用钩子当前的脚本处理这条记录的事件，与原输出对比；重新发送会产生一条新记录。')}</Typography.Paragraph>}
    </Modal>
  );
}

/** /hook/dispatch (?hookId=): the execution records, filtered by hook, state, time; a record's detail, and its replay side by side. */
export function DispatchPage() {
  const t = useT();
  const [search] = useSearchParams();
  const hookId = idOf(search, 'hookId');
  const def = useMemo(() => (hookId ? { ...recordResource, fixedFilters: { hookId } } : recordResource), [hookId]);
  const canReplay = useCan(hookEndpoints.execRecordReplay);
  const [replaying, setReplaying] = useState<HookExecRecord | null>(null);
  const [settings, setSettings] = useState(false);
  const canSettings = useCan(hookEndpoints.settingOne);
  return (
    <>
      <ResourceTable
        key={hookId ?? 0}
        def={def}
        toolbar={() =>
          canSettings
            ? [
                <Button key="settings" icon={<SettingOutlined />} onClick={() => setSettings(true)} data-testid="hook-settings-open">
                  {t('钩子设置')}
                </Button>,
              ]
            : []
        }
        rowActions={(row) =>
          canReplay && row.state !== 'running'
            ? [<LinkButton key="replay" icon={<RedoOutlined />} text={t('重放')} testId="record-replay" onClick={() => setReplaying(row)} />]
            : []
        }
      />
      {replaying && <ReplayModal record={replaying} onClose={() => setReplaying(null)} />}
      {settings && <SettingsModal onClose={() => setSettings(false)} />}
    </>
  );
}
