import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Popconfirm, type FormInstance } from 'antd';
import type { CustomFieldProps } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';

/**
 * A write-only secret (a mail password, an SMS provider's secret). Its form value: undefined keeps
 * the stored one (edit) or none (add); text replaces it; null clears it — set only through the
 * "clear" button and its confirmation, shown on edit while one is stored (`setField`: the form
 * value saying so), and undone by typing or by "undo".
 */
export function SecretField<F>({ id, value, onChange, mode, form, setField, kind }: CustomFieldProps<F> & { setField: string; kind: 'password' | 'secret' }) {
  const t = useT();
  const stored = Form.useWatch(setField as never, { form, preserve: true }) as boolean | undefined;
  const cleared = value === null;
  const texts =
    kind === 'password'
      ? { clear: t('清除已存储的密码'), confirm: t('清除已存储的密码？'), cleared: t('保存后将清除已存储的密码'), effect: t('保存后生效，之后连接服务器不再使用密码') }
      : { clear: t('清除已存储的访问密钥'), confirm: t('清除已存储的访问密钥？'), cleared: t('保存后将清除已存储的访问密钥'), effect: t('保存后生效，之后须填写新的访问密钥才能发送') };
  return (
    <div>
      <Input.Password
        id={id}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' && cleared ? null : e.target.value)}
        autoComplete="new-password"
        maxLength={512}
      />
      {mode === 'edit' && stored && cleared && (
        <Alert
          style={{ marginTop: 8 }}
          type="warning"
          showIcon
          message={texts.cleared}
          action={<Button size="small" onClick={() => onChange(undefined)} data-testid="secret-undo">{t('撤销')}</Button>}
          data-testid="secret-cleared"
        />
      )}
      {mode === 'edit' && stored && !cleared && (
        <Popconfirm title={texts.confirm} description={texts.effect} okText={t('清除')} cancelText={t('取消')} okButtonProps={{ danger: true }} onConfirm={() => onChange(null)}>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} style={{ paddingInline: 0 }} data-testid="secret-clear">
            {texts.clear}
          </Button>
        </Popconfirm>
      )}
    </div>
  );
}

/** The secret's part of an add/edit or test body: text sets it, null clears it, empty or absent leaves it out (the stored one stays). */
export const secretBody = (key: string, v: string | null | undefined): Record<string, unknown> => (v === null ? { [key]: null } : v ? { [key]: v } : {});

/** The form's id of the record being edited (toValues puts it there), for the tests of its unsaved values. */
export const editedId = (form: FormInstance<unknown>): number | undefined => {
  const id: unknown = form.getFieldValue('id');
  return typeof id === 'number' ? id : undefined;
};
