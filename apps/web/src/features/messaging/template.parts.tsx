import { EyeOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance } from 'antd';
import { useState } from 'react';
import type { FieldDef } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { PreviewModal, VariableList } from './parts.tsx';
import type { MailPreview, SmsPreview } from '@ess/contract/messaging';

/** The form fields a template's variable list watches. */
function WatchedVariables<F>({ form, names }: { form: FormInstance<F>; names: readonly (keyof F & string)[] }) {
  const values: Partial<F> = Form.useWatch((v: Partial<F>) => v, { form, preserve: true }) ?? {};
  return <VariableList texts={names.map((n) => values[n] as string | undefined)} />;
}

/** The form's live list of the variables its texts use (a display field: nothing of it is sent). */
export function variablesField<F>(names: readonly (keyof F & string)[]): FieldDef<F> {
  return {
    name: 'variables' as Extract<keyof F, string>,
    label: '使用的变量',
    type: 'custom',
    wide: true,
    render: ({ form }) => <WatchedVariables form={form} names={names} />,
  };
}

function PreviewOfForm<F, P extends MailPreview | SmsPreview>({ form, load }: { form: FormInstance<F>; load: (values: F, siteId?: number) => Promise<P> }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<EyeOutlined />} onClick={() => setOpen(true)} data-testid="form-preview">
        {t('预览')}
      </Button>
      {open && <PreviewModal load={(siteId) => load(form.getFieldsValue(true) as F, siteId)} onClose={() => setOpen(false)} />}
    </>
  );
}

/** A button that previews the form's unsaved text with a station's data (the server renders it). */
export function previewField<F, P extends MailPreview | SmsPreview>(load: (values: F, siteId?: number) => Promise<P>): FieldDef<F> {
  return {
    name: 'preview' as Extract<keyof F, string>,
    label: '预览',
    type: 'custom',
    wide: true,
    help: '按所选站点的数据渲染当前内容（未保存也可预览）',
    render: ({ form }) => <PreviewOfForm form={form} load={load} />,
  };
}
