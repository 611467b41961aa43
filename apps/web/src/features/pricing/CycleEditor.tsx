import { DeleteOutlined, MergeCellsOutlined, PlusOutlined, ScissorOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PRICE_PERIODS } from '@ess/contract/constants';
import { PRICE_PERIOD_LABELS, minutesOf, priceCycleEndpoints, type BillingSystem, type PriceCycleRecord, type PricePeriod } from '@ess/contract/pricing';
import { Alert, App, Button, Checkbox, Col, Form, Input, InputNumber, Modal, Row, Select, Space, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { resourceKeys } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import {
  QUARTER_HOURS, addBand, cycleBody, draftIssues, draftOf, mergeWithNext, moveBoundary, removeBand, setPeriod, splitBand, type CycleDraft,
} from './bands.ts';
import { DayBar } from './DayBar.tsx';
import { MONTHS, perKwh, priceOf } from './pricing.options.ts';
import { PERIOD_COLORS } from '../../components/options/levels.ts';
import { priceTemplateResource } from './template.resource.tsx';

/** A month's short name in the console's language (dayjs's locale follows the language). */
export const monthName = (m: number) => dayjs().month(m - 1).format('MMM');

interface Props {
  templateId: number;
  billingSystem: BillingSystem;
  currency: string;
  /** The cycle to edit, or null for a new one. */
  cycle: PriceCycleRecord | null;
  /** The template's other cycles (their months are taken). */
  others: PriceCycleRecord[];
  onClose: () => void;
}

/**
 * Edits one cycle: name, months, the 24 h bands (add, split, join, remove, change type, move
 * boundaries in quarter hours) and a price for each period type used. The contract's rules run on
 * every change and block saving while anything is wrong, naming the gap, overlap or month.
 */
export function CycleEditor({ templateId, billingSystem, currency, cycle, others, onClose }: Props) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const taken = useMemo(() => new Map(others.flatMap((o) => o.months.map((m) => [m, o.name] as const))), [others]);
  const [draft, setDraft] = useState<CycleDraft>(() => draftOf(cycle, MONTHS.filter((m) => !taken.has(m))));
  const [tried, setTried] = useState(false);
  const issues = draftIssues(draft, billingSystem, others);
  const used = PRICE_PERIODS.filter((p) => draft.bands.some((b) => b.period === p));
  const edit = (patch: Partial<CycleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const bands = (next: CycleDraft['bands']) => edit({ bands: next });

  const save = useMutation({
    mutationFn: async () => {
      if (cycle) await call(priceCycleEndpoints.edit, { id: cycle.id, ...cycleBody(draft) });
      else await call(priceCycleEndpoints.addBatch, { templateId, cycles: [cycleBody(draft)] });
    },
    onSuccess: async () => {
      void message.success(t('保存成功'));
      await client.invalidateQueries({ queryKey: resourceKeys(priceTemplateResource.key).all });
      onClose();
    },
  });
  const submit = () => {
    setTried(true);
    if (issues.length === 0) save.mutate();
  };
  const prices = Object.fromEntries(PRICE_PERIODS.map((p) => [p, draft.prices[p]])) as Record<PricePeriod, number | null>;

  return (
    <Modal
      open
      width={860}
      title={cycle ? t('编辑电价周期') : t('新增电价周期')}
      okText={t('保存')}
      cancelText={t('取消')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: tried && issues.length > 0 }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form layout="vertical" component="div">
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item label={t('周期名称')} required htmlFor="cycle-name">
              <Input id="cycle-name" value={draft.name} maxLength={32} placeholder={t('如 夏季、非夏季、全年')} onChange={(e) => edit({ name: e.target.value })} />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item label={t('适用月份')} required>
              <Checkbox.Group
                value={draft.months}
                onChange={(v) => edit({ months: v.slice().sort((a, b) => a - b) })}
                aria-label={t('适用月份')}
              >
                <Row gutter={[4, 4]}>
                  {MONTHS.map((m) => {
                    const owner = taken.get(m);
                    const box = (
                      <Checkbox value={m} disabled={owner !== undefined}>
                        {monthName(m)}
                      </Checkbox>
                    );
                    return (
                      <Col key={m} span={4}>
                        {owner !== undefined ? <Tooltip title={t('$1月已属于周期「$2」', m, owner)}>{box}</Tooltip> : box}
                      </Col>
                    );
                  })}
                </Row>
              </Checkbox.Group>
            </Form.Item>
          </Col>
        </Row>

        <Form.Item label={t('24小时时段（站点当地时间）')}>
          <DayBar bands={draft.bands} prices={prices} currency={currency} label={t('24小时时段（站点当地时间）')} />
        </Form.Item>

        <div role="table" aria-label={t('时段列表')} style={{ marginBottom: 12 }}>
          <Row gutter={8} role="row" style={{ fontWeight: 500, marginBottom: 4 }}>
            <Col span={5} role="columnheader">{t('起始时刻')}</Col>
            <Col span={5} role="columnheader">{t('结束时刻')}</Col>
            <Col span={6} role="columnheader">{t('时段类型')}</Col>
            <Col span={8} role="columnheader">{t('操作')}</Col>
          </Row>
          {draft.bands.map((b, i) => {
            const s = minutesOf(b.start);
            const e = minutesOf(b.end);
            return (
              <Row key={`${i}-${b.start}`} gutter={8} role="row" style={{ marginBottom: 6 }} align="middle" data-testid={`band-${i}`}>
                <Col span={5} role="cell">
                  <Select
                    aria-label={t('第$1段开始时间', i + 1)}
                    value={b.start}
                    style={{ width: '100%' }}
                    showSearch
                    options={QUARTER_HOURS.filter((q) => minutesOf(q) < e).map((q) => ({ value: q, label: q }))}
                    onChange={(v: string) => bands(moveBoundary(draft.bands, i, 'start', v))}
                  />
                </Col>
                <Col span={5} role="cell">
                  <Select
                    aria-label={t('第$1段结束时间', i + 1)}
                    value={b.end}
                    style={{ width: '100%' }}
                    showSearch
                    options={QUARTER_HOURS.filter((q) => minutesOf(q) > s).map((q) => ({ value: q, label: q }))}
                    onChange={(v: string) => bands(moveBoundary(draft.bands, i, 'end', v))}
                  />
                </Col>
                <Col span={6} role="cell">
                  <Select
                    aria-label={t('第$1段时段类型', i + 1)}
                    value={b.period}
                    style={{ width: '100%' }}
                    options={PRICE_PERIODS.map((p) => ({
                      value: p,
                      label: (
                        <Space size={6}>
                          <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: PERIOD_COLORS[p] }} />
                          {t(PRICE_PERIOD_LABELS[p])}
                        </Space>
                      ),
                    }))}
                    onChange={(v: PricePeriod) => bands(setPeriod(draft.bands, i, v))}
                  />
                </Col>
                <Col span={8} role="cell">
                  <Space size={0}>
                    <Button type="link" size="small" icon={<ScissorOutlined />} disabled={e - s < 30} onClick={() => bands(splitBand(draft.bands, i))}>
                      {t('拆分')}
                    </Button>
                    <Button type="link" size="small" icon={<MergeCellsOutlined />} disabled={i === draft.bands.length - 1} onClick={() => bands(mergeWithNext(draft.bands, i))}>
                      {t('合并下一段')}
                    </Button>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={draft.bands.length === 1} onClick={() => bands(removeBand(draft.bands, i))}>
                      {t('删除')}
                    </Button>
                  </Space>
                </Col>
              </Row>
            );
          })}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => bands(addBand(draft.bands))} block>
            {t('新增时段')}
          </Button>
        </div>

        <Typography.Title level={5}>{t('电价')}</Typography.Title>
        <Row gutter={16}>
          {used.map((p) => (
            <Col span={8} key={p}>
              <Form.Item label={t('$1时段电价', t(PRICE_PERIOD_LABELS[p]))} required htmlFor={`price-${p}`}>
                <InputNumber
                  id={`price-${p}`}
                  style={{ width: '100%' }}
                  min={0}
                  step={0.01}
                  value={draft.prices[p]}
                  addonAfter={perKwh(currency)}
                  onChange={(v) => edit({ prices: { ...draft.prices, [p]: priceOf(v) } })}
                />
              </Form.Item>
            </Col>
          ))}
          {billingSystem === 'twoPart' && (
            <>
              <Col span={8}>
                <Form.Item label={t('需量电价')} htmlFor="price-demand" help={t('与容量电价至少填一项')}>
                  <InputNumber
                    id="price-demand"
                    style={{ width: '100%' }}
                    min={0}
                    value={draft.demandPrice}
                    addonAfter={t('$1/kW·月', currency)}
                    onChange={(v) => edit({ demandPrice: priceOf(v) })}
                  />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item label={t('容量电价')} htmlFor="price-capacity">
                  <InputNumber
                    id="price-capacity"
                    style={{ width: '100%' }}
                    min={0}
                    value={draft.capacityPrice}
                    addonAfter={t('$1/kVA·月', currency)}
                    onChange={(v) => edit({ capacityPrice: priceOf(v) })}
                  />
                </Form.Item>
              </Col>
            </>
          )}
        </Row>
        {issues.length > 0 && (
          <Alert
            type={tried ? 'error' : 'warning'}
            showIcon
            data-testid="cycle-issues"
            message={t('保存前请处理以下问题')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {issues.map((i) => (
                  <li key={`${i.text}${i.args.join()}`}>{t(i.text, ...i.args)}</li>
                ))}
              </ul>
            }
          />
        )}
      </Form>
    </Modal>
  );
}
