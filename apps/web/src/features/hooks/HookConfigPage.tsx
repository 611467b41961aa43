import { KeyOutlined, MinusCircleOutlined, PlusOutlined, SaveOutlined, SendOutlined, SettingOutlined } from '@ant-design/icons';
import { HOOK_RETRIES_MAX, HOOK_TIMEOUT_MAX_MS, HOOK_TIMEOUT_MIN_MS, hookEndpoints, type HookRecord, type HookTriggerRecord } from '@ess/contract/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Drawer, Form, Input, InputNumber, Result, Row, Select, Space, Spin, Switch, TreeSelect, Typography, type SelectProps, type TreeSelectProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ResourceTable, useOptionSource } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { siteSource } from '../../components/options/sites.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { idOf } from './DispatchPage.tsx';
import { checkHook, headersSize, hookBody, hookValues, NEW_HOOK, type HookForm } from './hook.form.ts';
import { useHook, useScriptParams, useTriggers } from './hooks.api.ts';
import { hookKeys } from './hooks.keys.ts';
import { eventLabel, LEVEL_OPTIONS, METHOD_OPTIONS } from './hooks.options.ts';
import { useTestSend } from './HookListPage.tsx';
import { paramResource } from './param.resource.tsx';
import { ScriptEditor } from './ScriptEditor.tsx';
import { FILTER_KIND_LABELS } from './TriggerDetailPage.tsx';

/**
 * Form.Item marks a required control aria-required; antd's pickers put it on their outer <div>,
 * whose role does not allow it (axe: aria-allowed-attr). The required mark and the checks stay.
 */
type AriaRequired = { 'aria-required'?: unknown };
const PlainSelect = ({ 'aria-required': _r, ...props }: SelectProps & AriaRequired) => <Select {...props} />;
const PlainTreeSelect = ({ 'aria-required': _r, ...props }: TreeSelectProps & AriaRequired) => <TreeSelect {...props} />;

/** The signing secret, shown once (after adding a hook, or a new one made): copy it now, it is never shown again. */
function useSecretOnce() {
  const t = useT();
  const { modal } = App.useApp();
  return (secret: string, then?: () => void) =>
    modal.success({
      title: t('签名密钥'),
      width: 620,
      okText: t('我已保存'),
      onOk: then,
      content: (
        <div data-testid="secret-once">
          <Typography.Paragraph>{t('接收方用它校验请求签名（Standard Webhooks）。密钥只显示这一次，请立即复制保存。')}</Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: secret }} code data-testid="secret-value">
            {secret}
          </Typography.Paragraph>
        </div>
      ),
    });
}

/** The headers as name/value rows, with their size against the limit. */
function HeaderRows() {
  const t = useT();
  const headers = Form.useWatch<HookForm['headers']>('headers');
  const size = headersSize(headers);
  return (
    <Form.List name="headers">
      {(rows, { add, remove }) => (
        <div data-testid="hook-headers">
          {rows.map((row) => (
            <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
              <Form.Item name={[row.name, 'name']} style={{ width: 220 }}>
                <Input placeholder={t('名称')} aria-label={t('请求头名称')} />
              </Form.Item>
              <Form.Item name={[row.name, 'value']} style={{ width: 360 }}>
                <Input placeholder={t('值')} aria-label={t('请求头的值')} />
              </Form.Item>
              <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(row.name)} aria-label={t('删除请求头')} />
            </Space>
          ))}
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} data-testid="header-add">
              {t('添加请求头')}
            </Button>
            <Typography.Text type={size.over ? 'danger' : 'secondary'} data-testid="headers-size">
              {t('$1 / $2 字节', size.bytes, size.max)}
            </Typography.Text>
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** The trigger picker: every active trigger by its name and event type. */
function triggerOptions(triggers: HookTriggerRecord[] | undefined, t: (s: string) => string) {
  return (triggers ?? []).map((tr) => ({ value: tr.eventType, label: `${t(eventLabel(tr.eventType))} · ${tr.eventType}`, disabled: tr.status === 'gone' }));
}

/** The form of one hook (new, or `hook` loaded), as the page shows it. */
function HookFormView({ hook, eventType }: { hook: HookRecord | null; eventType: string | null }) {
  const t = useT();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<HookForm>();
  const [saving, setSaving] = useState(false);
  const [paramsOpen, setParamsOpen] = useState(false);
  const showSecret = useSecretOnce();
  const test = useTestSend(hookKeys.all);
  const triggers = useTriggers();
  const companies = useOptionSource(companyTreeSource);
  const sites = useOptionSource(siteSource);
  const canRotate = useCan(hookEndpoints.relateTriggerRotateSecret);
  const canTest = useCan(hookEndpoints.relateTriggerTest);
  const canParams = useCan(hookEndpoints.relateParamList);
  const initial = useMemo<HookForm>(() => (hook ? hookValues(hook) : { ...NEW_HOOK, ...(eventType ? { eventType } : {}) }), [hook, eventType]);
  useEffect(() => form.setFieldsValue(initial), [form, initial]);
  // A new hook belongs to the caller's own company unless another one is picked.
  const firstCompany = companies.data?.[0]?.value;
  useEffect(() => {
    if (!hook && firstCompany !== undefined && form.getFieldValue('companyId') === undefined) form.setFieldsValue({ companyId: firstCompany as number });
  }, [form, hook, firstCompany]);
  const chosen = Form.useWatch('eventType', form) ?? initial.eventType ?? null;
  const companyId = Form.useWatch('companyId', form) ?? initial.companyId ?? null;
  const trigger = triggers.data?.find((tr) => tr.eventType === chosen);
  const kinds = trigger?.filterKinds ?? [];
  const params = useScriptParams(chosen, companyId);

  const save = async () => {
    const values = form.getFieldsValue(true) as HookForm;
    const body = hookBody(values, kinds, hook?.id);
    const issues = checkHook(body, t);
    form.setFields(Object.keys(values).map((name) => ({ name: name as keyof HookForm, errors: [] })));
    if (issues.length) {
      form.setFields(issues.map((i) => ({ name: i.name as never, errors: i.errors })));
      void message.error(issues[0]!.errors[0]);
      return;
    }
    setSaving(true);
    try {
      if (hook) {
        await call(hookEndpoints.relateTriggerEdit, body as never);
        void message.success(t('保存成功'));
        await client.invalidateQueries({ queryKey: hookKeys.all });
      } else {
        const created = await call(hookEndpoints.relateTriggerAdd, body as never);
        await client.invalidateQueries({ queryKey: hookKeys.all });
        showSecret(created.secret, () => void navigate(`/hook/triggerConfig?id=${created.id}`, { replace: true }));
      }
    } catch {
      // The request layer has shown the reason (a script error with its line, a refused address).
    } finally {
      setSaving(false);
    }
  };

  const rotate = async () => {
    if (!hook) return;
    try {
      const r = await call(hookEndpoints.relateTriggerRotateSecret, { id: hook.id });
      await client.invalidateQueries({ queryKey: hookKeys.hook(hook.id) });
      showSecret(r.secret);
    } catch {
      // shown by the request layer
    }
  };

  const title = hook ? t('编辑钩子：$1', hook.name) : t('新建钩子');
  return (
    <Form form={form} layout="vertical" initialValues={initial} data-testid="hook-form" requiredMark>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card
          size="small"
          title={<h2 className="ess-resource-title">{title}</h2>}
          extra={
            <Space wrap>
              {canParams && (
                <Button icon={<SettingOutlined />} onClick={() => setParamsOpen(true)} data-testid="params-open">
                  {t('参数管理')}
                </Button>
              )}
              {hook && canTest && (
                <Button icon={<SendOutlined />} onClick={() => void test.send(hook.id)} loading={test.busy === `test-${hook.id}`} data-testid="hook-test">
                  {t('测试发送')}
                </Button>
              )}
              <Button onClick={() => void navigate('/hook/triggerRelate')}>{t('返回列表')}</Button>
              <Button type="primary" icon={<SaveOutlined />} onClick={() => void save()} loading={saving} data-testid="hook-save">
                {t('保存')}
              </Button>
            </Space>
          }
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="companyId" label={t('所属公司')} required>
                <PlainTreeSelect treeData={companies.data ?? []} loading={companies.isFetching} showSearch treeNodeFilterProp="label" treeDefaultExpandAll allowClear />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('钩子名称')} required>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="eventType" label={t('触发器')} required>
                <PlainSelect options={triggerOptions(triggers.data, t)} loading={triggers.isFetching} showSearch optionFilterProp="label" data-testid="hook-trigger" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="active" label={t('启用')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item label={t('签名密钥')}>
                {hook ? (
                  <Space wrap>
                    <code data-testid="secret-hint">{hook.secretHint}</code>
                    {canRotate && (
                      <Button size="small" icon={<KeyOutlined />} onClick={() => void rotate()} data-testid="secret-rotate">
                        {t('重新生成')}
                      </Button>
                    )}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t('保存后生成，只显示一次')}</Typography.Text>
                )}
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card size="small" title={<h3 className="ess-resource-title">{t('过滤条件')}</h3>}>
          {kinds.length === 0 ? (
            <Typography.Text type="secondary" data-testid="filter-none">{chosen ? t('该触发器的事件不支持过滤，全部送达') : t('选择触发器后设置过滤条件')}</Typography.Text>
          ) : (
            <Row gutter={16}>
              {kinds.includes('site') && (
                <Col xs={24} md={12}>
                  <Form.Item name="siteIds" label={t(FILTER_KIND_LABELS.site)} help={t('不选则为全部站点')}>
                    <Select mode="multiple" options={sites.data ?? []} loading={sites.isFetching} optionFilterProp="label" allowClear />
                  </Form.Item>
                </Col>
              )}
              {kinds.includes('level') && (
                <Col xs={24} md={6}>
                  <Form.Item name="levels" label={t(FILTER_KIND_LABELS.level)} help={t('不选则为全部等级')}>
                    <Select mode="multiple" options={LEVEL_OPTIONS.map((o) => ({ value: o.value as number, label: o.label }))} allowClear />
                  </Form.Item>
                </Col>
              )}
              {kinds.includes('status') && (
                <Col xs={24} md={6}>
                  <Form.Item name="statuses" label={t(FILTER_KIND_LABELS.status)} help={t('新状态，回车添加；不填则为全部')}>
                    <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
                  </Form.Item>
                </Col>
              )}
            </Row>
          )}
        </Card>

        <Card size="small" title={<h3 className="ess-resource-title">{t('脚本')}</h3>}>
          <Form.Item name="script" noStyle>
            <ScriptEditor id="hook-script" params={params.data ?? []} />
          </Form.Item>
        </Card>

        <Card size="small" title={<h3 className="ess-resource-title">{t('请求目标')}</h3>}>
          <Row gutter={16}>
            <Col xs={24} md={4}>
              <Form.Item name="method" label={t('请求方法')} required>
                <PlainSelect options={METHOD_OPTIONS.map((o) => ({ value: o.value as string, label: o.label }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={20}>
              <Form.Item name="url" label={t('目标地址')} required help={t('http(s) 地址；指向本机、内网或云元数据地址的目标会被拒绝')}>
                <Input placeholder="https://example.com/webhook" data-testid="hook-url" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label={t('请求头')}>
            <HeaderRows />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="timeoutSeconds" label={t('超时时间（秒）')} required>
                <InputNumber min={HOOK_TIMEOUT_MIN_MS / 1000} max={HOOK_TIMEOUT_MAX_MS / 1000} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="maxRetries" label={t('重试次数')} required help={t('5xx、超时和连接失败时重试，4xx 不重试')}>
                <InputNumber min={0} max={HOOK_RETRIES_MAX} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="backoffSeconds" label={t('退避基数（秒）')} required help={t('第 n 次重试在 0 到 基数×2^(n-1) 之间随机等待')}>
                <InputNumber min={1} max={3600} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="remark" label={t('备注')}>
            <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Card>
      </Space>
      <Drawer open={paramsOpen} onClose={() => setParamsOpen(false)} width={920} title={t('参数管理')} destroyOnHidden>
        <Typography.Paragraph type="secondary">{t('公司的常量和密钥，脚本中以 params.参数名 引用；密钥加密保存，从不返回，执行记录中显示为 ******。')}</Typography.Paragraph>
        <ResourceTable def={paramResource} />
      </Drawer>
    </Form>
  );
}

/** /hook/triggerConfig (?id= to edit, ?eventType= to start a hook on a trigger): the hook form. */
export function HookConfigPage() {
  const t = useT();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const hook = useHook(id);
  if (id !== null && hook.isPending) return <Spin />;
  if (id !== null && !hook.data) return <Result status="error" title={t('钩子不存在')} />;
  return <HookFormView key={id ?? 'new'} hook={hook.data ?? null} eventType={search.get('eventType')} />;
}
