import { mailAccountEndpoints, mailTestSend, smsChannelEndpoints, smsTestSend, type SendTestResult } from '@ess/contract/messaging';
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useOptionSource, validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { mailTemplateSource, smsTemplateSource } from './messaging.options.ts';
import { StationSelect } from './parts.tsx';

interface Values {
  to?: string;
  phone?: string;
  region?: string;
  templateId?: number;
  siteId?: number;
}

/**
 * Sends a test mail through an account (to an address, with a template or the server's fixed
 * text) or a test SMS through a channel (to a number, with a template); the server's answer
 * (sent or not, the provider's reason) goes to `onResult`. The account or channel: a saved one
 * (`id`), or the form's values not saved yet (`unsaved`, with `id` when editing: an empty secret
 * is the stored one). The body is checked with the contract first.
 */
export function TestSendModal({ kind, id, unsaved, onClose, onResult }: {
  kind: 'mail' | 'sms';
  id?: number;
  unsaved?: Record<string, unknown>;
  onClose: () => void;
  onResult: (r: SendTestResult) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const templates = useOptionSource(kind === 'mail' ? mailTemplateSource : smsTemplateSource);
  const send = async () => {
    const v = form.getFieldsValue(true) as Values;
    const common = {
      ...(id ? { id } : {}),
      ...(unsaved ? { [kind === 'mail' ? 'account' : 'channel']: unsaved } : {}),
      ...(v.templateId ? { templateId: v.templateId } : {}),
      ...(v.siteId ? { siteId: v.siteId } : {}),
    };
    const body = kind === 'mail' ? { ...common, to: v.to ?? '' } : { ...common, phone: v.phone ?? '', ...(v.region ? { region: v.region } : {}) };
    const labels = { to: '收件地址', phone: '手机号码', region: '国家/地区', templateId: '模板' };
    const checked = validateWith(kind === 'mail' ? mailTestSend : smsTestSend, body, labels, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof Values, errors })));
      return;
    }
    setSending(true);
    try {
      const r = kind === 'mail' ? await call(mailAccountEndpoints.testSend, body as never) : await call(smsChannelEndpoints.testSend, body as never);
      onResult(r);
      onClose();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      open
      title={t(kind === 'mail' ? '发送测试邮件' : '测试发送短信')}
      okText={t('发送')}
      cancelText={t('取消')}
      confirmLoading={sending}
      onOk={() => void send()}
      onCancel={onClose}
      destroyOnHidden
    >
      {unsaved && (
        <Typography.Paragraph type="secondary" data-testid="test-send-unsaved">
          {t('使用表单中尚未保存的设置')}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" data-testid="test-send-form">
        {kind === 'mail' ? (
          <Form.Item name="to" label={t('收件地址')} htmlFor="test-to" required>
            <Input id="test-to" placeholder="ops@example.com" />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="phone" label={t('手机号码')} htmlFor="test-phone" required extra={t('国际格式（如 +8613800138000），或填写国家/地区后输入国内号码')}>
              <Input id="test-phone" placeholder="+8613800138000" />
            </Form.Item>
            <Form.Item name="region" label={t('国家/地区')} htmlFor="test-region">
              <Input id="test-region" placeholder="CN" maxLength={2} />
            </Form.Item>
          </>
        )}
        <Form.Item name="templateId" label={t('模板')} htmlFor="test-template" required={kind === 'sms'} extra={kind === 'mail' ? t('不选则发送固定的测试内容') : undefined}>
          <Select id="test-template" options={templates.data ?? []} loading={templates.isFetching} allowClear showSearch optionFilterProp="label" placeholder={t('请选择')} />
        </Form.Item>
        <Form.Item name="siteId" label={t('站点')} htmlFor="test-site" extra={t('模板变量取该站点的数据')}>
          <StationSelect id="test-site" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
