import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PRICE_PERIODS } from '@ess/contract/constants';
import {
  BILLING_SYSTEM_LABELS, ELECTRICITY_TYPE_LABELS, PRICE_FIELD, priceCycleEndpoints, type PriceCycleRecord, type PricePeriod, type PriceTemplateDetail,
} from '@ess/contract/pricing';
import { Alert, App, Button, Card, Descriptions, Empty, Popconfirm, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { resourceKeys, useResourceOne } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { RegionName } from '../../components/RegionPicker.tsx';
import { uncoveredMonths } from './bands.ts';
import { CycleEditor, monthName } from './CycleEditor.tsx';
import { DayBar } from './DayBar.tsx';
import { formatPrice, monthRuns } from './pricing.options.ts';
import { priceTemplateResource } from './template.resource.tsx';

type Editing = { cycle: PriceCycleRecord | null } | null;

const pricesOf = (c: PriceCycleRecord) => Object.fromEntries(PRICE_PERIODS.map((p) => [p, c[PRICE_FIELD[p]]])) as Record<PricePeriod, number | null>;

/** One cycle: its months, its day as coloured bands with prices, and the monthly charges of two-part tariffs. */
function CycleCard({ cycle, template, onEdit, onDelete }: { cycle: PriceCycleRecord; template: PriceTemplateDetail; onEdit: () => void; onDelete: () => void }) {
  const t = useT();
  return (
    <Card
      size="small"
      data-testid={`cycle-${cycle.name}`}
      title={
        <Space wrap>
          <Typography.Text strong>{cycle.name}</Typography.Text>
          {monthRuns(cycle.months).map(([a, b]) => (
            <Tag key={a} color="blue">
              {a === b ? monthName(a) : `${monthName(a)}–${monthName(b)}`}
            </Tag>
          ))}
        </Space>
      }
      extra={
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={onEdit}>
            {t('编辑')}
          </Button>
          <Popconfirm
            title={t('确定删除该$1吗？', t('电价周期'))}
            description={template.uses.length ? t('使用该模板的站点在这些月份将没有电度电价') : undefined}
            okText={t('删除')}
            cancelText={t('取消')}
            okButtonProps={{ danger: true }}
            onConfirm={onDelete}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <DayBar bands={cycle.periods} prices={pricesOf(cycle)} currency={template.currency} label={t('$1的24小时时段', cycle.name)} />
      {template.billingSystem === 'twoPart' && (
        <Space size={24} style={{ marginTop: 8 }}>
          <Typography.Text>
            {t('需量电价')}：{cycle.demandPrice === null ? '-' : `${formatPrice(cycle.demandPrice)} ${t('$1/kW·月', template.currency)}`}
          </Typography.Text>
          <Typography.Text>
            {t('容量电价')}：{cycle.capacityPrice === null ? '-' : `${formatPrice(cycle.capacityPrice)} ${t('$1/kVA·月', template.currency)}`}
          </Typography.Text>
        </Space>
      )}
    </Card>
  );
}

/**
 * /operatecfg/pricedetail?id=…: a price template with its cycles. Each cycle's day is drawn as
 * coloured bands; cycles are added, edited and deleted here (CycleEditor checks the server's rules
 * first). Months no cycle covers are pointed out: stations using the template have no energy
 * price in them.
 */
export function PriceDetailPage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [search] = useSearchParams();
  const raw = Number(search.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  const one = useResourceOne(priceTemplateResource, id);
  const [editing, setEditing] = useState<Editing>(null);
  const remove = useMutation({
    mutationFn: (cycleId: number) => call(priceCycleEndpoints.delete, { id: cycleId }),
    onSuccess: async () => {
      void message.success(t('删除成功'));
      await client.invalidateQueries({ queryKey: resourceKeys(priceTemplateResource.key).all });
    },
  });
  const back = (
    <Link to="/operatecfg/price">
      <ArrowLeftOutlined /> {t('返回电价模板列表')}
    </Link>
  );

  if (id === null || one.isError) {
    return <Result status="404" title={t('未找到该电价模板')} subTitle={t('模板可能已被删除，或不在您可访问的公司内')} extra={back} />;
  }
  const tpl = one.data;
  if (!tpl) {
    return (
      <div style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
      </div>
    );
  }
  const missing = uncoveredMonths(tpl.cycles);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={tpl.name}
        extra={back}
      >
        <Descriptions column={{ xs: 1, md: 2, xl: 4 }} size="small">
          <Descriptions.Item label={t('所属公司')}>{tpl.companyName}</Descriptions.Item>
          <Descriptions.Item label={t('用电类别')}>{t(ELECTRICITY_TYPE_LABELS[tpl.type])}</Descriptions.Item>
          <Descriptions.Item label={t('计费制度')}>{t(BILLING_SYSTEM_LABELS[tpl.billingSystem])}</Descriptions.Item>
          <Descriptions.Item label={t('电压等级')}>{tpl.voltageLevel}</Descriptions.Item>
          <Descriptions.Item label={t('币种')}>{tpl.currency}</Descriptions.Item>
          <Descriptions.Item label={t('所在地区')}>
            <RegionName code={tpl.regionCode} />
          </Descriptions.Item>
          <Descriptions.Item label={t('使用站点')} span={2}>
            {tpl.uses.length ? (
              <Space wrap size={[8, 4]}>
                {tpl.uses.map((u) => (
                  <Tag key={u.configId}>
                    {u.siteName}（{u.startDate} ~ {u.endDate ?? t('长期')}）
                  </Tag>
                ))}
              </Space>
            ) : (
              t('暂无站点使用')
            )}
          </Descriptions.Item>
          {tpl.remark && <Descriptions.Item label={t('备注')} span={4}>{tpl.remark}</Descriptions.Item>}
        </Descriptions>
      </Card>

      <Card
        title={t('电价周期')}
        extra={
          <Tooltip title={missing.length ? undefined : t('全年12个月均已设置周期')}>
            <Button type="primary" icon={<PlusOutlined />} disabled={!missing.length} onClick={() => setEditing({ cycle: null })}>
              {t('新增周期')}
            </Button>
          </Tooltip>
        }
      >
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          {tpl.cycles.length > 0 && missing.length > 0 && (
            <Alert type="warning" showIcon message={t('$1 未设置电价周期：使用该模板的站点在这些月份没有电度电价', missing.map(monthName).join('、'))} />
          )}
          {tpl.cycles.length === 0 ? (
            <Empty description={t('该模板还没有电价周期：新增周期，设置适用月份、24小时时段和各时段电价')} />
          ) : (
            tpl.cycles.map((c) => (
              <CycleCard key={c.id} cycle={c} template={tpl} onEdit={() => setEditing({ cycle: c })} onDelete={() => remove.mutate(c.id)} />
            ))
          )}
        </Space>
      </Card>
      {editing && (
        <CycleEditor
          templateId={tpl.id}
          billingSystem={tpl.billingSystem}
          currency={tpl.currency}
          cycle={editing.cycle}
          others={tpl.cycles.filter((c) => c.id !== editing.cycle?.id)}
          onClose={() => setEditing(null)}
        />
      )}
    </Space>
  );
}
