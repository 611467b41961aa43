import { authEndpoints, changeInfoBody, changePasswordBody } from '@ess/contract/auth';
import { App, Button, Card, Col, Descriptions, Form, Input, Row, Select } from 'antd';
import { useState } from 'react';
import { TIME_ZONES } from '../../components/time-zones.ts';
import { zodRule } from '../../components/zod-rule.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { refreshUserInfo, useUserStore } from '../../platform/user-store.ts';

interface InfoForm {
  name: string;
  phone?: string;
  email?: string;
  /** Empty: messages to the user follow the station's zone. */
  timeZone?: string | null;
}
interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The personal center: own profile, change of name/phone/e-mail/time zone and of password
 * (product-spec §5 rules). The time zone is the one quiet hours of messages to the user are judged in.
 */
export function PersonPage() {
  const t = useT();
  const { message } = App.useApp();
  const info = useUserStore((s) => s.info);
  const [infoForm] = Form.useForm<InfoForm>();
  const [pwdForm] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState<'info' | 'password' | null>(null);
  const required = (label: string) => ({ required: true, whitespace: true, message: t('$1不能为空', t(label)) });

  const saveInfo = async (v: InfoForm) => {
    setSaving('info');
    try {
      await call(authEndpoints.changeInfo, { name: v.name.trim(), phone: v.phone ?? '', email: v.email ?? '', timeZone: v.timeZone ?? '' });
      void message.success(t('保存成功'));
      await refreshUserInfo();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setSaving(null);
    }
  };

  const savePassword = async (v: PasswordForm) => {
    setSaving('password');
    try {
      await call(authEndpoints.changePassword, v);
      void message.success(t('保存成功'));
      pwdForm.resetFields();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setSaving(null);
    }
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={8}>
        <Card title={t('个人信息')}>
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('用户名')}>{info?.username}</Descriptions.Item>
            <Descriptions.Item label={t('姓名')}>{info?.name}</Descriptions.Item>
            <Descriptions.Item label={t('手机号')}>{info?.phone || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('邮箱')}>{info?.email || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('时区')}>{info?.timeZone || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('所属公司')}>{info?.companyName}</Descriptions.Item>
            <Descriptions.Item label={t('角色')}>{info?.roles.map((r) => r.name).join(', ') || '-'}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('修改信息')}>
          {info && (
            <Form<InfoForm>
              form={infoForm}
              layout="vertical"
              initialValues={{ name: info.name, phone: info.phone ?? '', email: info.email ?? '', timeZone: info.timeZone }}
              onFinish={(v) => void saveInfo(v)}
            >
              <Form.Item name="name" label={t('姓名')} rules={[required('姓名'), zodRule(changeInfoBody.shape.name, t)]}>
                <Input maxLength={64} />
              </Form.Item>
              <Form.Item name="phone" label={t('手机号')} rules={[zodRule(changeInfoBody.shape.phone, t)]}>
                <Input maxLength={20} />
              </Form.Item>
              <Form.Item name="email" label={t('邮箱')} rules={[zodRule(changeInfoBody.shape.email, t)]}>
                <Input maxLength={128} />
              </Form.Item>
              <Form.Item name="timeZone" label={t('时区')}>
                <Select allowClear showSearch options={TIME_ZONES.map((z) => ({ value: z, label: z }))} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving === 'info'}>
                {t('保存')}
              </Button>
            </Form>
          )}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('修改密码')}>
          <Form<PasswordForm> form={pwdForm} layout="vertical" onFinish={(v) => void savePassword(v)}>
            <Form.Item name="oldPassword" label={t('原密码')} rules={[required('原密码')]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              name="newPassword"
              label={t('新密码')}
              rules={[required('新密码'), zodRule(changePasswordBody, t, 'newPassword')]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              label={t('确认密码')}
              dependencies={['newPassword']}
              rules={[
                required('确认密码'),
                ({ getFieldValue }) => ({
                  validator: (_r, value: unknown) =>
                    !value || value === getFieldValue('newPassword')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('两次输入的密码不一致'))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving === 'password'}>
              {t('修改密码')}
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
