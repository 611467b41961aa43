import {
  iotConfigAdd, iotConfigEdit, iotConfigEndpoints, IOT_PLATFORM_LABELS, type IotConfigRecord, type IotPlatform, type IotPlatformOption,
} from '@ess/contract/iot';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, Tag } from 'antd';
import { defineResource, formatDateTime, type CustomFieldProps, type FieldDef, type FormMode, type Translate } from '../../components/crud/index.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { companyAndName } from '../../components/CompanyField.tsx';
import { iotKeys } from './iot.keys.ts';
import { ENABLED_OPTIONS, PLATFORM_OPTIONS, YES_NO } from './iot.options.ts';

export interface IotConfigForm {
  id?: number;
  companyId: number;
  name: string;
  platform: IotPlatform;
  baseUrl: string;
  username: string;
  /** Empty on edit: the stored password stays (the form never holds it). */
  password?: string;
  requireApproval: boolean;
  enabled: boolean;
  remark?: string | null;
}

/** The supported platforms and the fields each needs (GET /iot/config/optionals). */
export const useOptionals = () =>
  useQuery({ queryKey: iotKeys.optionals, queryFn: () => call(iotConfigEndpoints.optionals, undefined as never, { loading: false }), staleTime: Infinity });

const optionOf = (list: readonly IotPlatformOption[] | undefined, platform: unknown) => list?.find((o) => o.platform === platform);

/** The platform picker (fixed on edit) and what the chosen platform's adapter reads and needs. */
function PlatformField({ id, value, onChange, mode }: CustomFieldProps<IotConfigForm>) {
  const t = useT();
  const optionals = useOptionals();
  const chosen = optionOf(optionals.data, value);
  return (
    <div>
      <Select
        id={id}
        value={value as IotPlatform | undefined}
        onChange={(v) => onChange(v)}
        disabled={mode === 'edit'}
        loading={optionals.isFetching}
        options={(optionals.data ?? []).map((o) => ({ value: o.platform, label: o.label }))}
        placeholder={t('请选择')}
        data-testid="config-platform"
      />
      {chosen && (
        <Alert
          style={{ marginTop: 8 }}
          type="info"
          showIcon
          data-testid="platform-fields"
          message={t(chosen.description)}
          description={
            <span>
              {t('需要填写：')}
              {chosen.fields.map((f) => (
                <Tag key={f.name}>
                  {t(f.label)}
                  {f.secret ? ` · ${t('加密保存，不会回显')}` : ''}
                </Tag>
              ))}
            </span>
          }
        />
      )}
    </div>
  );
}

/** A text field whose placeholder (and label shown inside) follows the chosen platform's field. */
function PlatformText({ id, value, onChange, form, name }: CustomFieldProps<IotConfigForm> & { name: 'baseUrl' | 'username' }) {
  const t = useT();
  const optionals = useOptionals();
  const platform = Form.useWatch('platform', { form, preserve: true }) as unknown;
  const field = optionOf(optionals.data, platform)?.fields.find((f) => f.name === name);
  return (
    <Input
      id={id}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      placeholder={field?.placeholder ?? (field ? t(field.label) : undefined)}
      maxLength={name === 'baseUrl' ? 255 : 128}
      data-testid={`config-${name}`}
    />
  );
}

/** A record's form values: the password is never sent by the server, the form starts it empty. */
export const configValues = (r: IotConfigRecord): IotConfigForm => ({
  id: r.id, companyId: r.companyId, name: r.name, platform: r.platform, baseUrl: r.baseUrl, username: r.username,
  requireApproval: r.requireApproval, enabled: r.enabled, remark: r.remark,
});

/** The add/edit body: a typed password is sent; an empty one is left out (on edit the stored one stays). */
export function configBody(v: IotConfigForm, mode: FormMode, id?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    companyId: v.companyId, name: v.name, platform: v.platform, baseUrl: v.baseUrl?.trim() ?? '', username: v.username, requireApproval: v.requireApproval,
    enabled: v.enabled, remark: v.remark || null, ...(v.password ? { password: v.password } : {}),
  };
  return mode === 'edit' ? { id, ...body } : body;
}

/** Whether a password is stored: never its value. */
export const secretCell = (set: boolean, t: Translate) => <ToneTag tone={set ? 'success' : 'default'} testId="password-set">{t(set ? '已设置' : '未设置')}</ToneTag>;

/** The last connection test: succeeded / failed with the reason. */
export const connectCell = (r: IotConfigRecord, t: Translate) =>
  r.lastConnectAt === null ? (
    t('未测试')
  ) : (
    <span title={formatDateTime(r.lastConnectAt)}>
      <ToneTag tone={r.lastConnectOk ? 'success' : 'error'}>{t(r.lastConnectOk ? '连接成功' : '连接失败')}</ToneTag>
      {r.lastConnectReason ?? ''}
    </span>
  );

const fields: FieldDef<IotConfigForm>[] = [
  ...companyAndName<IotConfigForm>('应用名称'),
  { name: 'platform', label: '平台类型', type: 'custom', required: true, wide: true, render: (p) => <PlatformField {...p} /> },
  { name: 'baseUrl', label: '平台地址', type: 'custom', required: true, render: (p) => <PlatformText {...p} name="baseUrl" /> },
  { name: 'username', label: '用户名', type: 'custom', required: true, render: (p) => <PlatformText {...p} name="username" /> },
  {
    name: 'password', label: '密码', type: 'password', required: (mode) => mode === 'add', maxLength: 256,
    help: (mode) => (mode === 'edit' ? '留空则保持原密码不变；修改地址或用户名时须重新输入' : '保存时先用该账号登录平台验证；密码加密保存，不会回显'),
  },
  { name: 'requireApproval', label: '同步需审批', type: 'switch', help: '开启后同步先生成差异预览，管理员批准后才写入' },
  { name: 'enabled', label: '启用', type: 'switch' },
  { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
];

/** /iot/appConfig: a company's connections to external IoT platforms. */
export const configResource = defineResource<IotConfigRecord, IotConfigForm>({
  key: iotKeys.configs,
  name: '物联网应用',
  endpoints: { page: iotConfigEndpoints.page, one: iotConfigEndpoints.one, add: iotConfigEndpoints.add, edit: iotConfigEndpoints.edit, delete: iotConfigEndpoints.delete },
  columns: [
    { key: 'name', title: '应用名称', width: 160, ellipsis: true },
    { key: 'platform', title: '平台类型', width: 120, render: (r) => IOT_PLATFORM_LABELS[r.platform] },
    { key: 'baseUrl', title: '平台地址', width: 220, ellipsis: true, render: (r) => <code>{r.baseUrl}</code> },
    { key: 'username', title: '用户名', width: 140, ellipsis: true },
    { key: 'passwordSet', title: '密码', width: 90, render: (r, t) => secretCell(r.passwordSet, t) },
    { key: 'lastConnect', title: '最近连接测试', width: 200, render: connectCell },
    { key: 'counts', title: '产品/设备', width: 100, render: (r) => `${r.productCount} / ${r.deviceCount}` },
    { key: 'lastSyncAt', title: '最近同步', type: 'datetime', width: 170 },
    { key: 'requireApproval', title: '同步需审批', type: 'boolean', options: YES_NO, width: 110 },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170, inTable: false },
  ],
  filters: [
    { key: 'name', title: '应用名称' },
    { key: 'platform', title: '平台类型', type: 'enum', options: PLATFORM_OPTIONS },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
  ],
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    fields,
    schemas: { add: iotConfigAdd, edit: iotConfigEdit },
    initialValues: { platform: 'thingsboard', requireApproval: true, enabled: true },
    toValues: configValues,
    toBody: configBody,
  },
  actionsWidth: 400,
  pageSize: 20,
});
