import { ApiOutlined, TranslationOutlined } from '@ant-design/icons';
import { i18nEndpoints, type EngineRecord } from '@ess/contract/i18n';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Modal, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ResourceTable } from '../../components/crud/index.ts';
import { formatNumber } from '../../components/number-format.ts';
import { LOCALE_NAMES } from '../../platform/i18n/locales.ts';
import { isLocale } from '../../platform/i18n/translate.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { engineResource } from './engine.resource.tsx';
import { globalizationKeys } from './globalization.keys.ts';
import { LinkButton } from './LinkButton.tsx';
import { useRowCall } from './useRowCall.ts';

/** The language pairs an engine supports, as its service lists them (the console's languages it can translate from and to). */
function SupportsModal({ engine, onClose }: { engine: EngineRecord; onClose: () => void }) {
  const t = useT();
  const { data, isLoading, error } = useQuery({
    queryKey: globalizationKeys.supports(engine.id),
    queryFn: () => call(i18nEndpoints.engineSupports, { id: engine.id }, { noMessage: true, loading: false }),
  });
  const yes = (v: boolean) => (v ? t('支持') : t('不支持'));
  return (
    <Modal open title={t('$1 支持的语言', engine.name)} onCancel={onClose} footer={null} width={640}>
      {error && <Alert type="error" showIcon message={error.message} data-testid="supports-error" />}
      <Table
        size="small"
        rowKey="languageId"
        loading={isLoading}
        pagination={false}
        data-testid="supports-table"
        dataSource={data ?? []}
        columns={[
          { title: t('语言'), dataIndex: 'languageId', render: (v: string) => (isLocale(v) ? `${LOCALE_NAMES[v]} (${v})` : v) },
          { title: t('引擎语言代码'), dataIndex: 'engineCode', render: (v: string) => <code>{v}</code> },
          { title: t('可作原文'), dataIndex: 'source', render: yes },
          { title: t('可作译文'), dataIndex: 'target', render: yes },
        ]}
      />
    </Modal>
  );
}

/** /globalization/engine: engines with their kind's fields; credentials shown as set or not, never echoed; connect test and language pairs. */
export function EnginePage() {
  const t = useT();
  const { modal } = App.useApp();
  const canConnect = useCan(i18nEndpoints.engineConnect);
  const { busy, run } = useRowCall(globalizationKeys.engines);
  const [pairs, setPairs] = useState<EngineRecord | null>(null);
  const { data: optionals } = useQuery({ queryKey: globalizationKeys.optionals, queryFn: () => call(i18nEndpoints.engineOptionals, undefined, { loading: false }), staleTime: Infinity });
  const def = useMemo(() => engineResource(optionals ?? []), [optionals]);
  const connect = async (r: EngineRecord) => {
    const ok = await run(`connect-${r.id}`, () => call(i18nEndpoints.engineConnect, { id: r.id }));
    if (ok) {
      modal.success({
        title: t('连接成功'),
        content: (
          <div data-testid="connect-ok">
            <Typography.Paragraph>{t('测试译文：$1', ok.sample)}</Typography.Paragraph>
            <Typography.Text type="secondary">{t('耗时 $1 毫秒', formatNumber(ok.latencyMs))}</Typography.Text>
          </div>
        ),
        okText: t('确定'),
      });
    }
  };
  return (
    <>
      <ResourceTable
        def={def}
        rowActions={(r) =>
          canConnect
            ? [
                <LinkButton key="connect" icon={<ApiOutlined />} text={t('连接测试')} testId="engine-connect" loading={busy === `connect-${r.id}`} onClick={() => void connect(r)} />,
                <LinkButton key="supports" icon={<TranslationOutlined />} text={t('支持的语言')} testId="engine-supports" onClick={() => setPairs(r)} />,
              ]
            : []
        }
      />
      {pairs && <SupportsModal engine={pairs} onClose={() => setPairs(null)} />}
    </>
  );
}
