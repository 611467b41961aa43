import { EyeOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  FIRMWARE_SKIP_REASON_LABELS, firmwareRolloutEndpoints, firmwareSettingEndpoints, type FirmwarePreviewDevice, type FirmwarePreviewResult,
} from '@ess/contract/firmware';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Col, DatePicker, Divider, Drawer, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { ToneTag } from '../../components/ToneTag.tsx';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useOptionSource } from '../../components/crud/index.ts';
import { productSource } from '../../components/options/products.ts';
import { siteListQuery, siteSource } from '../../components/options/sites.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { packageSource, WEEKDAY_OPTIONS } from './firmware.options.ts';
import { checkRollout, fieldPath, groupingOf, newRolloutValues, ROLLOUT_LABELS, rolloutValues, targetOf, type RolloutForm } from './rollout.form.ts';

/** The preview: devices the target takes (with the group each falls in) and those it skips, with the reason. */
export function PreviewTable({ result, selected, onSelect }: { result: FirmwarePreviewResult; selected: number[]; onSelect: (ids: number[]) => void }) {
  const t = useT();
  const sites = useQuery(siteListQuery);
  const zoneOf = useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s.timeZone])), [sites.data]);
  return (
    <div data-testid="rollout-preview">
      <Space wrap style={{ marginBottom: 8 }}>
        <Tag color="blue" data-testid="preview-targeted">{t('将升级 $1 台', result.targeted)}</Tag>
        <Tag data-testid="preview-skipped">{t('跳过 $1 台', result.skipped)}</Tag>
        {result.groups.map((n, i) => (
          <Tag key={i} color={i === 0 ? 'gold' : undefined}>{i === 0 ? t('金丝雀组：$1 台', n) : t('第 $1 组：$2 台', i + 1, n)}</Tag>
        ))}
      </Space>
      <Table<FirmwarePreviewDevice>
        size="small"
        rowKey="deviceId"
        dataSource={result.devices}
        pagination={{ pageSize: 10, size: 'small' }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => onSelect(keys as number[]),
          getCheckboxProps: (d) => ({ disabled: d.skip !== null, 'aria-label': d.code }),
        }}
        columns={[
          { key: 'code', title: t('设备编码'), dataIndex: 'code' },
          { key: 'name', title: t('设备名称'), dataIndex: 'name', ellipsis: true },
          { key: 'site', title: t('所属站点'), render: (_v, d) => `${d.siteName}${zoneOf.get(d.siteId) ? ` · ${zoneOf.get(d.siteId)}` : ''}` },
          { key: 'product', title: t('产品'), dataIndex: 'productName', ellipsis: true },
          { key: 'version', title: t('当前版本'), render: (_v, d) => (d.firmwareVersion ? <code>{d.firmwareVersion}</code> : t('未上报')) },
          { key: 'online', title: t('在线'), render: (_v, d) => (d.online ? <ToneTag tone="success">{t('在线')}</ToneTag> : <ToneTag tone="default">{t('离线')}</ToneTag>) },
          {
            key: 'group', title: t('分组 / 跳过原因'),
            render: (_v, d) =>
              d.skip ? (
                <Typography.Text type="secondary" data-testid={`skip-${d.skip}`}>{t(FIRMWARE_SKIP_REASON_LABELS[d.skip])}</Typography.Text>
              ) : d.group === 1 ? (
                <Tag color="gold">{t('金丝雀组')}</Tag>
              ) : (
                t('第 $1 组', d.group ?? '-')
              ),
          },
        ]}
      />
    </div>
  );
}

/** Create or edit a rollout: target (station, product, current version, devices from the preview), grouping, thresholds, approval, start time, maintenance windows, safe gate. */
export function RolloutDrawer({ editId, packageId, onClose }: { editId?: number | null; packageId?: number; onClose: (savedId?: number) => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<RolloutForm>();
  const [preview, setPreview] = useState<FirmwarePreviewResult | null>(null);
  const [saving, setSaving] = useState(false);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const settings = useQuery({ queryKey: firmwareKeys.setting, queryFn: () => call(firmwareSettingEndpoints.one, {}, { loading: false }) });
  const existing = useQuery({
    queryKey: firmwareKeys.rollout(editId ?? 0),
    queryFn: () => call(firmwareRolloutEndpoints.one, { id: editId! }, { loading: false }),
    enabled: !!editId,
  });
  const packages = useOptionSource(packageSource);
  const products = useOptionSource(productSource);
  const sites = useOptionSource(siteSource);
  const splitBy = Form.useWatch('splitBy', form);
  const deviceIds = Form.useWatch('deviceIds', form) ?? [];

  useEffect(() => {
    if (editId && existing.data) form.setFieldsValue(rolloutValues(existing.data));
    else if (!editId && settings.data && !form.isFieldsTouched()) form.setFieldsValue(newRolloutValues(settings.data, packageId));
  }, [editId, existing.data, settings.data, form, packageId]);

  const showErrors = (fields: Record<string, string[]>, general: string[]) => {
    form.setFields(Object.entries(fields).map(([name, errors]) => ({ name: fieldPath(name) as never, errors })));
    setFormErrors(general);
  };

  const runPreview = async () => {
    const v = form.getFieldsValue(true) as RolloutForm;
    if (!v.packageId) {
      showErrors({ packageId: [t('$1不能为空', t(ROLLOUT_LABELS.packageId!))] }, []);
      return;
    }
    try {
      // The preview lists every matching device; the explicit pick narrows only the rollout.
      setPreview(await call(firmwareRolloutEndpoints.preview, { target: { ...targetOf(v), deviceIds: [] }, grouping: groupingOf(v) }));
    } catch {
      setPreview(null);
    }
  };

  const save = async () => {
    const checked = checkRollout(form.getFieldsValue(true) as RolloutForm, t);
    if (!checked.ok) {
      showErrors(checked.errors.fields, checked.errors.form);
      return;
    }
    setFormErrors([]);
    setSaving(true);
    try {
      let id = editId ?? undefined;
      if (editId) await call(firmwareRolloutEndpoints.edit, { id: editId, ...checked.body });
      else id = (await call(firmwareRolloutEndpoints.add, checked.body)).id;
      void message.success(t('保存成功'));
      void client.invalidateQueries({ queryKey: firmwareKeys.rollouts });
      onClose(id);
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open
      title={t(editId ? '编辑升级任务' : '新建升级任务')}
      width={960}
      onClose={() => onClose()}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={() => onClose()}>{t('取消')}</Button>
          <Button icon={<EyeOutlined />} onClick={() => void runPreview()} data-testid="rollout-preview-run">
            {t('预览目标设备')}
          </Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="rollout-save">
            {t('保存')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" data-testid="rollout-form" onValuesChange={(c) => {
        if ('packageId' in c || 'siteIds' in c || 'productIds' in c || 'versions' in c) {
          setPreview(null);
          form.setFieldValue('deviceIds', []);
        }
      }}>
        {formErrors.length > 0 && <Alert type="error" showIcon message={formErrors.join('；')} style={{ marginBottom: 12 }} />}
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={t(ROLLOUT_LABELS.name!)} required>
              <Input maxLength={64} data-testid="rollout-name" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="packageId" label={t(ROLLOUT_LABELS.packageId!)} required help={t('仅列出已发布的升级包；目标设备为该升级包的设备类型（与产品）')}>
              <Select aria-label={t(ROLLOUT_LABELS.packageId!)} showSearch optionFilterProp="label" options={packages.data ?? []} data-testid="rollout-package" />
            </Form.Item>
          </Col>
        </Row>
        <Divider orientation="left" plain>{t('目标设备')}</Divider>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="siteIds" label={t(ROLLOUT_LABELS.siteIds!)} help={t('不选则为可见的全部站点')}>
              <Select aria-label={t(ROLLOUT_LABELS.siteIds!)} mode="multiple" allowClear optionFilterProp="label" options={sites.data ?? []} data-testid="rollout-sites" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="productIds" label={t(ROLLOUT_LABELS.productIds!)}>
              <Select aria-label={t(ROLLOUT_LABELS.productIds!)} mode="multiple" allowClear optionFilterProp="label" options={products.data ?? []} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="versions" label={t(ROLLOUT_LABELS.versions!)} help={t('输入版本号后回车；不填则不限')}>
              <Select aria-label={t(ROLLOUT_LABELS.versions!)} mode="tags" allowClear tokenSeparators={[',', ' ']} open={false} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="deviceIds" hidden>
          <Select mode="multiple" />
        </Form.Item>
        {preview ? (
          <>
            <PreviewTable result={preview} selected={deviceIds} onSelect={(ids) => form.setFieldValue('deviceIds', ids)} />
            <Typography.Paragraph type="secondary">
              {deviceIds.length ? t('仅升级勾选的 $1 台设备', deviceIds.length) : t('未勾选设备时升级全部符合条件的设备')}
            </Typography.Paragraph>
          </>
        ) : (
          <Typography.Paragraph type="secondary">{t('点击「预览目标设备」查看将升级与跳过的设备')}</Typography.Paragraph>
        )}
        <Divider orientation="left" plain>{t('分组与阈值')}</Divider>
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="canarySize" label={t(ROLLOUT_LABELS.canarySize!)} help={t('第一组（金丝雀组）的设备数；0 表示不设金丝雀组')}>
              <InputNumber min={0} max={1000} style={{ width: '100%' }} data-testid="rollout-canary" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="splitBy" label={t('其余设备分组方式')}>
              <Radio.Group options={[{ value: 'percent', label: t('按百分比') }, { value: 'size', label: t('按设备数') }]} optionType="button" />
            </Form.Item>
          </Col>
          <Col span={4}>
            {splitBy === 'size' ? (
              <Form.Item name="groupSize" label={t(ROLLOUT_LABELS.groupSize!)}>
                <InputNumber min={1} style={{ width: '100%' }} data-testid="rollout-group-size" />
              </Form.Item>
            ) : (
              <Form.Item name="groupPercent" label={t(ROLLOUT_LABELS.groupPercent!)}>
                <InputNumber min={1} max={100} style={{ width: '100%' }} data-testid="rollout-group-percent" />
              </Form.Item>
            )}
          </Col>
          <Col span={4}>
            <Form.Item name="successThreshold" label={t(ROLLOUT_LABELS.successThreshold!)} tooltip={t('一组设备的成功比例达到该值后开始下一组')}>
              <InputNumber min={1} max={100} style={{ width: '100%' }} data-testid="rollout-success" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="errorThreshold" label={t(ROLLOUT_LABELS.errorThreshold!)} tooltip={t('一组设备的失败比例超过该值时暂停升级任务')}>
              <InputNumber min={1} max={100} style={{ width: '100%' }} data-testid="rollout-error" />
            </Form.Item>
          </Col>
        </Row>
        <Divider orientation="left" plain>{t('审批与时间')}</Divider>
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="requireApproval" label={t(ROLLOUT_LABELS.requireApproval!)} valuePropName="checked" help={t('须由创建人以外的用户审批后才能开始')}>
              <Switch data-testid="rollout-approval" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="safeGate" label={t(ROLLOUT_LABELS.safeGate!)} valuePropName="checked" help={t('仅在站点处于安全状态时刷写 PCS、BMS、EMS')}>
              <Switch />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="startAt"
              label={t(ROLLOUT_LABELS.startAt!)}
              help={t('不填则在点击开始后立即执行')}
              getValueProps={(v: unknown) => ({ value: typeof v === 'string' && v ? dayjs(v) : null })}
              getValueFromEvent={(d: dayjs.Dayjs | null) => (d ? d.toISOString() : null)}
            >
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>{t(ROLLOUT_LABELS.windows!)}</Typography.Text>
        <Typography.Paragraph type="secondary">{t('按各站点所在时区；下载可在任何时间进行，刷写只在时段内进行；不设置则不限')}</Typography.Paragraph>
        <Form.List name="windows">
          {(items, { add, remove }) => (
            <>
              {items.map((item) => (
                <Space key={item.key} align="start" wrap data-testid="rollout-window">
                  <Form.Item name={[item.name, 'days']} label={t(ROLLOUT_LABELS.days!)}>
                    <Select mode="multiple" allowClear style={{ minWidth: 260 }} placeholder={t('每天')} options={WEEKDAY_OPTIONS.map((o) => ({ value: o.value as number, label: t(o.label) }))} />
                  </Form.Item>
                  <Form.Item name={[item.name, 'start']} label={t(ROLLOUT_LABELS.start!)}>
                    <Input placeholder="22:00" style={{ width: 100 }} data-testid="window-start" />
                  </Form.Item>
                  <Form.Item name={[item.name, 'end']} label={t(ROLLOUT_LABELS.end!)}>
                    <Input placeholder="06:00" style={{ width: 100 }} data-testid="window-end" />
                  </Form.Item>
                  <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('删除时段')} onClick={() => remove(item.name)} style={{ marginTop: 30 }} />
                </Space>
              ))}
              <Form.Item>
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ days: [], start: '22:00', end: '06:00' })} data-testid="window-add">
                  {t('添加维护时段')}
                </Button>
              </Form.Item>
            </>
          )}
        </Form.List>
        <Form.Item name="remark" label={t(ROLLOUT_LABELS.remark!)}>
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
