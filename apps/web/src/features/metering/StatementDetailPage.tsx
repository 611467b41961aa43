import {
  STATEMENT_ACTION_LABELS, STATEMENT_STATE_LABELS, statementWhatIf,
  type StatementDetail, type StatementLine, type StatementLogRecord, type StatementWhatIf, type WhatIfResult,
} from '@ess/contract/statement';
import { Alert, Button, Card, Col, Descriptions, Form, InputNumber, Result, Row, Select, Space, Spin, Statistic, Table, Timeline, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime, StatusBadge, useOptionSource, type Translate } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { priceTemplateEndpoints } from '@ess/contract/pricing';
import { QualityTags } from './quality.tsx';
import { templateSource, useStatement } from './statement.api.ts';
import { idParam, lineName, signed, STATEMENT_STATE_OPTIONS } from './statement.model.ts';
import { DownloadButtons } from './StatementPage.tsx';
import { StatementActionButtons } from './StatementActions.tsx';

const dates = (l: { fromDate: string; toDate: string }) => (l.fromDate === l.toDate ? l.fromDate : `${l.fromDate} ~ ${l.toDate}`);

function lineColumns(t: Translate, currency: string): TableColumnsType<StatementLine> {
  return [
    { key: 'name', title: t('项目'), width: 170, fixed: 'left', render: (_, l) => lineName(l.category, l.period, t) },
    { key: 'meter', title: t('电表'), width: 140, render: (_, l) => l.meterName ?? '-' },
    { key: 'dates', title: t('日期'), width: 200, render: (_, l) => dates(l) },
    { key: 'energy', title: t('电量 (kWh)'), width: 120, align: 'right', dataIndex: 'energy' },
    { key: 'price', title: t('电价 ($1/kWh)', currency), width: 130, align: 'right', dataIndex: 'price' },
    { key: 'amount', title: t('金额 ($1)', currency), width: 120, align: 'right', dataIndex: 'amount' },
    { key: 'source', title: t('电价来源'), width: 160, ellipsis: true, render: (_, l) => l.priceSource?.name ?? '-' },
    { key: 'quality', title: t('数据质量'), width: 180, render: (_, l) => <QualityTags flags={l.quality} t={t} /> },
  ];
}

/** The statement's journal: who did what, when, from which state to which, the note and a recompute's difference. */
export function StatementJournal({ journal, t }: { journal: readonly StatementLogRecord[]; t: Translate }) {
  if (!journal.length) return <Typography.Text type="secondary">{t('暂无记录')}</Typography.Text>;
  const state = (s: string) => (s in STATEMENT_STATE_LABELS ? t(STATEMENT_STATE_LABELS[s as keyof typeof STATEMENT_STATE_LABELS]) : s ? s : '-');
  return (
    <Timeline
      data-testid="statement-journal"
      items={journal.map((l) => ({
        key: l.id,
        color: l.toState === 'locked' ? 'green' : l.action === 'dispute' ? 'red' : 'blue',
        children: (
          <div data-log-action={l.action}>
            <Typography.Text strong>{t(STATEMENT_ACTION_LABELS[l.action])}</Typography.Text>{' '}
            <Typography.Text type="secondary">{!l.fromState || l.fromState === l.toState ? state(l.toState) : `${state(l.fromState)} → ${state(l.toState)}`}</Typography.Text>
            {l.difference !== null && <Typography.Text> · {t('总收益变化 $1', signed(l.difference))}</Typography.Text>}
            <div>
              <Typography.Text type="secondary">
                {l.username === '系统' ? t('系统') : l.username} · {formatDateTime(l.createdAt)}
              </Typography.Text>
            </div>
            {l.note && <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{l.note}</Typography.Paragraph>}
          </div>
        ),
      }))}
    />
  );
}

/** The what-if's difference per register, and the totals side by side. */
export function WhatIfView({ result, statement, t }: { result: WhatIfResult; statement: Pick<StatementDetail, 'totalRevenue' | 'investorAmount' | 'powerUserAmount' | 'currency'>; t: Translate }) {
  const c = statement.currency;
  const rows = [
    { key: 'total', name: t('总收益'), now: statement.totalRevenue, then: result.totalRevenue },
    { key: 'investor', name: t('投资方分成'), now: statement.investorAmount, then: result.investorAmount },
    { key: 'powerUser', name: t('电力用户分成'), now: statement.powerUserAmount, then: result.powerUserAmount },
  ];
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="whatif-result">
      <Typography.Text>
        {t('按电价模板「$1」重新计算（不保存）：总收益变化', result.templateName)}{' '}
        <Typography.Text strong type={result.difference.startsWith('-') ? 'danger' : 'success'} data-testid="whatif-difference">
          {signed(result.difference)} {c}
        </Typography.Text>
      </Typography.Text>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'name', title: t('项目'), dataIndex: 'name', width: 140 },
          { key: 'now', title: t('本结算单 ($1)', c), dataIndex: 'now', width: 140, align: 'right' },
          { key: 'then', title: t('假设电价 ($1)', c), dataIndex: 'then', width: 140, align: 'right' },
        ]}
      />
      <Table
        size="small"
        rowKey={(r) => `${r.category}-${r.period ?? 'all'}`}
        pagination={false}
        data-testid="whatif-registers"
        dataSource={result.byRegister}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'name', title: t('寄存器'), width: 180, render: (_, r) => lineName(r.category, r.period, t) },
          {
            key: 'difference', title: t('收益差额 ($1)', c), width: 140, align: 'right',
            render: (_, r) => <Typography.Text type={r.difference.startsWith('-') ? 'danger' : undefined}>{signed(r.difference)}</Typography.Text>,
          },
        ]}
      />
    </Space>
  );
}

/** The what-if form: another price template, optionally another service fee and feed-in price. */
function WhatIfPanel({ onRun, running, result, statement }: {
  onRun: (w: StatementWhatIf | null) => void;
  running: boolean;
  result: WhatIfResult | null;
  statement: StatementDetail;
}) {
  const t = useT();
  const templates = useOptionSource(templateSource);
  const [form] = Form.useForm<{ templateId?: number; serviceFee?: number | null; feedInPrice?: number | null }>();
  const [issue, setIssue] = useState<string | null>(null);
  const run = () => {
    const v = form.getFieldsValue();
    const w = { templateId: v.templateId, ...(v.serviceFee !== null && v.serviceFee !== undefined ? { serviceFee: v.serviceFee } : {}), ...(v.feedInPrice !== null && v.feedInPrice !== undefined ? { feedInPrice: v.feedInPrice } : {}) };
    const checked = statementWhatIf.safeParse(w);
    if (!checked.success) {
      setIssue(v.templateId ? checked.error.issues[0]!.message : '请选择电价模板');
      return;
    }
    setIssue(null);
    onRun(w as StatementWhatIf);
  };
  return (
    <Card title={t('电价假设分析')} size="small" data-testid="whatif-panel">
      <Typography.Paragraph type="secondary">{t('用另一个电价模板计算本结算单的同一电量，对比每个寄存器的收益差额；结果不保存。')}</Typography.Paragraph>
      <Form form={form} layout="inline" style={{ rowGap: 12 }}>
        <Form.Item name="templateId" label={t('电价模板')} validateStatus={issue ? 'error' : undefined} help={issue ? t(issue) : undefined}>
          <Select
            showSearch
            optionFilterProp="label"
            options={templates.data ?? []}
            loading={templates.isLoading}
            placeholder={t('请选择')}
            style={{ width: 240, maxWidth: '100%' }}
            data-testid="whatif-template"
          />
        </Form.Item>
        {statement.pileRevenue !== '0.00' && (
          <Form.Item name="serviceFee" label={t('服务费 ($1/kWh)', statement.currency)}>
            <InputNumber min={0} max={1000} step={0.01} />
          </Form.Item>
        )}
        {statement.pvRevenue !== '0.00' && (
          <Form.Item name="feedInPrice" label={t('上网电价 ($1/kWh)', statement.currency)}>
            <InputNumber min={0} max={1000} step={0.0001} />
          </Form.Item>
        )}
        <Form.Item>
          <Space>
            <Button type="primary" onClick={run} loading={running} data-testid="whatif-run">
              {t('计算')}
            </Button>
            {result && (
              <Button
                onClick={() => {
                  form.resetFields();
                  onRun(null);
                }}
              >
                {t('清除')}
              </Button>
            )}
          </Space>
        </Form.Item>
      </Form>
      {result && (
        <div style={{ marginTop: 16 }}>
          <WhatIfView result={result} statement={statement} t={t} />
        </div>
      )}
    </Card>
  );
}

/**
 * /operation/statementDetail?id=: one statement — parties, period, state, the lifecycle actions the
 * caller may take, downloads (xlsx, PDF), the totals and both shares, the lines by register with
 * their prices and quality, the journal, and the what-if against another tariff.
 */
export function StatementDetailPage() {
  const t = useT();
  const [search] = useSearchParams();
  const id = idParam(search);
  const [whatIf, setWhatIf] = useState<StatementWhatIf | null>(null);
  const base = useStatement(id);
  const withWhatIf = useStatement(whatIf ? id : null, whatIf);
  const canWhatIf = useCan(priceTemplateEndpoints.list);
  const s = base.data;
  const columns = useMemo(() => lineColumns(t, s?.currency ?? ''), [t, s?.currency]);
  if (id === null) return <Result status="404" title={t('结算单不存在')} extra={<Link to="/operation/statement">{t('返回列表')}</Link>} />;
  if (base.isError) return <Result status="warning" title={base.error.message} extra={<Link to="/operation/statement">{t('返回列表')}</Link>} />;
  if (!s) return <Spin />;
  const c = s.currency;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statement-detail">
      <Card
        title={
          <Space wrap>
            <span>{s.code}</span>
            <StatusBadge options={STATEMENT_STATE_OPTIONS} value={s.state} t={t} />
          </Space>
        }
        extra={<Link to="/operation/statement">{t('返回列表')}</Link>}
      >
        <Space wrap style={{ marginBottom: 16 }} data-testid="statement-actions">
          <StatementActionButtons statement={s} type="default" size="middle" />
          <DownloadButtons statement={s} type="default" size="middle" />
        </Space>
        <Descriptions size="small" bordered column={{ xs: 1, sm: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label={t('站点')}>{s.siteName}</Descriptions.Item>
          <Descriptions.Item label={t('结算月份')}>{s.month}</Descriptions.Item>
          <Descriptions.Item label={t('结算周期')}>{`${s.periodStart} ~ ${s.periodEnd}`}</Descriptions.Item>
          <Descriptions.Item label={t('投资方')}>{s.investorName}</Descriptions.Item>
          <Descriptions.Item label={t('电力用户')}>{s.powerUserName}</Descriptions.Item>
          <Descriptions.Item label={t('投资方分成比例')}>{`${s.investorShareRatio}%`}</Descriptions.Item>
          <Descriptions.Item label={t('对账联系人')}>{s.reconciliationContact ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('对账电话')}>{s.reconciliationPhone ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('计算时间')}>{formatDateTime(s.computedAt)}</Descriptions.Item>
          {s.note && <Descriptions.Item label={t('备注')}>{s.note}</Descriptions.Item>}
        </Descriptions>
      </Card>
      {s.state === 'locked' && <Alert type="success" showIcon message={t('结算单已锁定，不能修改；所用电价已成为历史版本。')} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic title={`${t('总收益')} (${c})`} value={s.totalRevenue} valueRender={() => <span data-testid="total-revenue">{s.totalRevenue}</span>} />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card size="small">
            <Statistic title={`${t('投资方分成')} (${c})`} value={s.investorAmount} valueRender={() => <span data-testid="investor-amount">{s.investorAmount}</span>} />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card size="small">
            <Statistic title={`${t('电力用户分成')} (${c})`} value={s.powerUserAmount} valueRender={() => <span data-testid="power-user-amount">{s.powerUserAmount}</span>} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('电量与收益')}>
        <Descriptions size="small" column={{ xs: 1, sm: 2, xl: 3 }}>
          <Descriptions.Item label={t('储能充电 (kWh)')}>{s.chargeEnergy}</Descriptions.Item>
          <Descriptions.Item label={t('储能放电 (kWh)')}>{s.dischargeEnergy}</Descriptions.Item>
          <Descriptions.Item label={`${t('储能收益')} (${c})`}>{s.storageRevenue}</Descriptions.Item>
          <Descriptions.Item label={t('光伏自用 (kWh)')}>{s.pvSelfUseEnergy}</Descriptions.Item>
          <Descriptions.Item label={t('光伏上网 (kWh)')}>{s.pvExportEnergy}</Descriptions.Item>
          <Descriptions.Item label={`${t('光伏收益')} (${c})`}>{s.pvRevenue}</Descriptions.Item>
          <Descriptions.Item label={t('充电桩电量 (kWh)')}>{s.pileEnergy}</Descriptions.Item>
          <Descriptions.Item label={`${t('充电桩收益')} (${c})`}>{s.pileRevenue}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title={t('结算明细')}>
        <Table<StatementLine>
          size="small"
          rowKey={(l) => `${l.category}-${l.period ?? 'all'}-${l.meterId ?? 0}-${l.fromDate}`}
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={s.lines}
          columns={columns}
          data-testid="statement-lines"
        />
      </Card>
      {canWhatIf && (
        <WhatIfPanel onRun={setWhatIf} running={withWhatIf.isFetching} result={whatIf ? (withWhatIf.data?.whatIf ?? null) : null} statement={s} />
      )}
      <Card size="small" title={t('操作记录')}>
        <StatementJournal journal={s.journal} t={t} />
      </Card>
    </Space>
  );
}
