import { App, Button, Col, Drawer, Form, Modal, Row, Space, Spin } from 'antd';
import { useEffect } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { FormField } from './FormField.tsx';
import { useResourceOne, useSaveResource } from './crud.hooks.ts';
import type { FieldDef, FormMode, ResourceDef } from './crud.types.ts';
import { validateWith } from './crud.validation.ts';

export interface ResourceFormProps<R extends { id: number }, F, O> {
  def: ResourceDef<R, F, O>;
  mode: FormMode;
  /** The record to edit. */
  id?: number;
  /** The list's row of that record: the form's record when the resource has no `one` endpoint. */
  row?: R;
  /** Values of a new record on top of the definition's (e.g. the parent of a child). */
  initialValues?: Partial<F>;
  onClose: () => void;
  onSaved?: () => void;
}

const missingForm = (key: readonly string[]): never => {
  throw new Error(`resource ${key.join('.')} has no form`);
};

const shownIn = <F,>(f: FieldDef<F>, mode: FormMode, values: Partial<F>) =>
  (!f.modes || f.modes.includes(mode)) && (!f.visible || f.visible(values));

/**
 * The add/edit form of a resource in a modal or drawer. An edit loads the record with the `one`
 * endpoint first. On submit the request body is checked with the contract schema; its issues
 * show on their fields ("姓名不能为空"), and only a valid body is sent.
 */
export function ResourceForm<R extends { id: number }, F, O>({ def, mode, id, row, initialValues, onClose, onSaved }: ResourceFormProps<R, F, O>) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<F>();
  const fromRow = !def.endpoints.one;
  const one = useResourceOne(def, mode === 'edit' && id !== undefined && !fromRow ? id : null);
  const save = useSaveResource(def);
  const formDef = def.form ?? missingForm(def.key);
  const schema = mode === 'add' ? formDef.schemas.add : formDef.schemas.edit;
  const title = mode === 'add' ? t('新增$1', t(def.name)) : t('编辑$1', t(def.name));

  // An edit shows its fields once the record is loaded (or at once from the list's row), with its values.
  const record = fromRow ? (row as O | undefined) : one.data;
  const loaded = mode === 'add' || record !== undefined;

  useEffect(() => {
    if (mode === 'edit' && record !== undefined && formDef.toValues) form.setFieldsValue(formDef.toValues(record) as never);
    else if (mode === 'edit' && record !== undefined) form.setFieldsValue(record as never);
  }, [mode, record, form, formDef]);

  const submit = async (): Promise<void> => {
    const current = form.getFieldsValue(true) as F;
    const shown = formDef.fields.filter((f) => shownIn(f, mode, current));
    const body = formDef.toBody
      ? formDef.toBody(current, mode, id)
      : { ...(mode === 'edit' ? { id } : {}), ...Object.fromEntries(shown.map((f) => [f.name, current[f.name]])) };
    if (schema) {
      const labels = Object.fromEntries(shown.map((f) => [f.name, f.label]));
      const checked = validateWith(schema, body, labels, t);
      if (!checked.ok) {
        form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as never, errors })));
        for (const text of checked.errors.form) void message.error(text);
        return;
      }
    }
    try {
      await save.mutateAsync({ mode, body });
    } catch {
      // The request layer has shown the reason.
      return;
    }
    void message.success(t('保存成功'));
    onSaved?.();
  };

  const body = !loaded ? (
    <div style={{ textAlign: 'center', padding: 32 }}>
      <Spin />
    </div>
  ) : (
    <Row gutter={16}>
      {formDef.fields.map((f) => (
        <Col key={f.name} span={formDef.columns === 2 && !f.wide ? 12 : 24}>
          <FormField field={f} mode={mode} form={form} schema={schema} />
        </Col>
      ))}
    </Row>
  );

  const formBody = (
    <Form<F>
      form={form}
      layout="vertical"
      initialValues={mode === 'add' ? { ...formDef.initialValues, ...initialValues } : undefined}
      onFinish={() => void submit()}
      onValuesChange={(changed: Partial<F>) => {
        const names = Object.keys(changed);
        const stale = formDef.fields.filter((f) => f.clearOnChangeOf?.some((n) => names.includes(n)));
        if (stale.length) form.setFieldsValue(Object.fromEntries(stale.map((f) => [f.name, undefined])) as never);
      }}
    >
      {body}
    </Form>
  );
  const buttons = (
    <Space>
      <Button onClick={onClose}>{t('取消')}</Button>
      <Button type="primary" loading={save.isPending} disabled={!loaded} onClick={() => form.submit()}>
        {t('保存')}
      </Button>
    </Space>
  );
  const width = formDef.width ?? (formDef.columns === 2 ? 760 : 520);
  // Mounted only while open.
  return formDef.container === 'drawer' ? (
    <Drawer open title={title} width={width} onClose={onClose} maskClosable={false} destroyOnHidden footer={<div className="ess-form-footer">{buttons}</div>}>
      {formBody}
    </Drawer>
  ) : (
    <Modal open title={title} width={width} onCancel={onClose} maskClosable={false} destroyOnHidden footer={buttons}>
      {formBody}
    </Modal>
  );
}
