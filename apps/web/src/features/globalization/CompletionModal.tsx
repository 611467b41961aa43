import { i18nEndpoints, type CompletionRecord } from '@ess/contract/i18n';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Progress, Select, Typography } from 'antd';
import { useState } from 'react';
import { formatNumber } from '../../components/number-format.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { DOMAIN_CALLS, type Domain } from './translation.api.ts';

const FINISHED = new Set<CompletionRecord['state']>(['done', 'failed']);

/**
 * Machine completion: the chosen engine translates the language's untranslated and outdated texts
 * (or the ticked ones) as a background job; its progress is read every second until it ends.
 */
export function CompletionModal({ domain, languageId, ids, onClose }: { domain: Domain; languageId: string; ids: number[]; onClose: () => void }) {
  const t = useT();
  const [engineId, setEngineId] = useState<number | undefined>();
  const [jobId, setJobId] = useState<number | null>(null);
  const [starting, setStarting] = useState(false);
  const engines = useQuery({ queryKey: globalizationKeys.enabledEngines, queryFn: () => call(i18nEndpoints.engineList, { enabled: true }, { loading: false }) });
  const job = useQuery({
    queryKey: globalizationKeys.completion(domain, jobId ?? 0),
    queryFn: () => call(DOMAIN_CALLS[domain].completionOne, { id: jobId! }, { loading: false }),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && FINISHED.has(q.state.data.state) ? false : 1000),
  });
  const start = async () => {
    if (!engineId) return;
    setStarting(true);
    try {
      const r = await call(DOMAIN_CALLS[domain].completion, { languageId, engineId, ids });
      setJobId(r.id);
    } catch {
      // The request layer showed the refusal (busy, nothing to translate, engine off).
    } finally {
      setStarting(false);
    }
  };
  const j = job.data;
  const percent = j && j.total ? Math.floor(((j.done + j.failed) / j.total) * 100) : 0;
  return (
    <Modal
      open
      title={t('机器翻译')}
      onCancel={onClose}
      okText={jobId ? t('关闭') : t('开始翻译')}
      onOk={() => (jobId ? onClose() : void start())}
      okButtonProps={{ disabled: !jobId && !engineId, loading: starting, ...{ 'data-testid': 'completion-start' } }}
      cancelButtonProps={{ style: jobId ? { display: 'none' } : undefined }}
    >
      <Typography.Paragraph>
        {ids.length ? t('将选中的 $1 条发送给翻译引擎', ids.length) : t('将该语言未翻译和待更新的文本发送给翻译引擎')}
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('翻译引擎')} htmlFor="completion-engine">
          <Select
            id="completion-engine"
            data-testid="completion-engine"
            value={engineId}
            disabled={jobId !== null}
            onChange={setEngineId}
            loading={engines.isLoading}
            options={(engines.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
            notFoundContent={t('没有启用的翻译引擎')}
          />
        </Form.Item>
      </Form>
      {j && (
        <div data-testid="completion-progress" data-state={j.state}>
          <Progress percent={percent} status={j.state === 'failed' ? 'exception' : j.state === 'done' ? 'success' : 'active'} aria-label={t('翻译进度')} />
          <Typography.Text>
            {t('已翻译 $1 / $2，失败 $3', formatNumber(j.done), formatNumber(j.total), formatNumber(j.failed))}
          </Typography.Text>
          {j.state === 'done' && <Alert style={{ marginTop: 8 }} type="success" showIcon message={t('机器翻译完成，结果标为“机器翻译”，请审校')} />}
          {j.error && <Alert style={{ marginTop: 8 }} type="error" showIcon message={t(j.error)} />}
        </div>
      )}
    </Modal>
  );
}
