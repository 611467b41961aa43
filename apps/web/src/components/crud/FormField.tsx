import {
  Cascader, DatePicker, Form, Input, InputNumber, Radio, Select, Switch, TreeSelect, type FormInstance, type FormRule, type RadioGroupProps, type SelectProps, type TreeSelectProps, theme,
} from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { useT } from '../../platform/i18n/useT.ts';
import { DATETIME_FORMAT, optionLabel } from './crud.cells.tsx';
import { useOptionSource } from './crud.hooks.ts';
import type { DataOption, FieldDef, FormMode, OptionSource } from './crud.types.ts';
import { fieldRule } from './crud.validation.ts';

/** Types whose form value is the body value, so a field schema can check them as typed. */
const CHECKED_AS_TYPED = new Set(['text', 'password', 'textarea', 'number']);

export const isRequired = <F,>(field: FieldDef<F>, mode: FormMode) =>
  typeof field.required === 'function' ? field.required(mode) : field.required === true;

/** The schema of one field of an object schema, if it has one. */
export function fieldSchema(schema: z.ZodType | undefined, name: string): z.ZodType | undefined {
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return shape && Object.hasOwn(shape, name) ? shape[name] : undefined;
}

/** Picker options as antd Select / TreeSelect / Cascader options. */
function useFieldOptions<F>(field: FieldDef<F>, values: Partial<F>) {
  const t = useT();
  const source: OptionSource | null | undefined = typeof field.source === 'function' ? field.source(values) : field.source;
  const loaded = useOptionSource(source ?? null);
  if (field.options) {
    return { loading: false, options: field.options.map((o) => ({ value: o.value as string | number, label: optionLabel(o, t) })) as DataOption[] };
  }
  return { loading: loaded.isFetching, options: loaded.data ?? [] };
}

interface Props<F> {
  field: FieldDef<F>;
  mode: FormMode;
  form: FormInstance<F>;
  schema?: z.ZodType;
}

/**
 * Form.Item marks its control aria-required; antd's pickers put that on their outer <div>, which
 * has no role that allows it (axe: aria-allowed-attr). The required mark and message stay.
 */
type AriaRequired = { 'aria-required'?: unknown };
function FormSelect({ 'aria-required': _required, placeholder, ...props }: SelectProps & AriaRequired) {
  return <Select {...props} placeholder={<Placeholder text={placeholder} />} />;
}
function FormRadioGroup({ 'aria-required': _required, ...props }: RadioGroupProps & AriaRequired) {
  return <Radio.Group {...props} />;
}
function FormTreeSelect({ 'aria-required': _required, placeholder, ...props }: TreeSelectProps & AriaRequired) {
  return <TreeSelect {...props} placeholder={<Placeholder text={placeholder} />} />;
}
/** A picker's placeholder in the secondary text colour: antd's faint default fails 4.5:1 contrast in a form (axe: color-contrast). */
function Placeholder({ text }: { text: ReactNode }) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorTextSecondary }}>{text}</span>;
}

/** One field of a resource form: label, input for its type, required mark and contract checks. */
export function FormField<F>({ field, mode, form, schema }: Props<F>) {
  const t = useT();
  // Watch the whole form so `visible` and dependent sources see current values.
  const values = (Form.useWatch((v: Partial<F>) => v, { form, preserve: true }) ?? {});
  const { options, loading } = useFieldOptions(field, values);
  if (field.modes && !field.modes.includes(mode)) return null;
  if (field.visible && !field.visible(values)) return null;
  const type = field.type ?? 'text';
  const label = t(field.label);
  const rules: FormRule[] = [];
  if (isRequired(field, mode)) {
    // `whitespace` makes the validator check a string: only for text inputs (ids and lists are not strings).
    const text = type === 'text' || type === 'password' || type === 'textarea';
    rules.push(text ? { required: true, whitespace: true, message: t('$1不能为空', label) } : { required: true, message: t('$1不能为空', label) });
  }
  const own = CHECKED_AS_TYPED.has(type) ? fieldSchema(schema, field.name) : undefined;
  if (own) rules.push(fieldRule(own, field.label, t));
  const help = typeof field.help === 'function' ? field.help(mode) : field.help;
  const placeholder = field.placeholder ? t(field.placeholder) : undefined;
  const disabled = field.lockedOnEdit === true && mode === 'edit';
  const id = `field-${field.name}`;

  const input = (() => {
    switch (type) {
      case 'text':
        return <Input id={id} maxLength={field.maxLength} placeholder={placeholder} disabled={disabled} />;
      case 'password':
        return <Input.Password id={id} maxLength={field.maxLength} placeholder={placeholder} autoComplete="new-password" disabled={disabled} />;
      case 'textarea':
        return <Input.TextArea id={id} maxLength={field.maxLength} showCount={!!field.maxLength} rows={4} placeholder={placeholder} disabled={disabled} />;
      case 'number':
        return <InputNumber id={id} style={{ width: '100%' }} placeholder={placeholder} disabled={disabled} />;
      case 'switch':
        return <Switch id={id} disabled={disabled} />;
      case 'radio':
      case 'enum':
        return (
          <FormRadioGroup id={id} disabled={disabled} optionType="button" buttonStyle="solid">
            {options.map((o) => (
              <Radio.Button key={String(o.value)} value={o.value}>
                {o.label}
              </Radio.Button>
            ))}
          </FormRadioGroup>
        );
      case 'datetime':
        return <DatePicker id={id} showTime format={DATETIME_FORMAT} style={{ width: '100%' }} disabled={disabled} />;
      case 'select':
      case 'multiSelect':
        return (
          <FormSelect
            id={id}
            mode={type === 'multiSelect' ? 'multiple' : undefined}
            options={options}
            loading={loading}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={placeholder ?? t('请选择')}
            disabled={disabled}
          />
        );
      case 'treeSelect':
        return (
          <FormTreeSelect
            id={id}
            treeData={options}
            loading={loading}
            allowClear
            showSearch
            treeNodeFilterProp="label"
            treeDefaultExpandAll
            placeholder={placeholder ?? t('请选择')}
            disabled={disabled}
          />
        );
      case 'cascader':
        return (
          <Cascader
            id={id}
            options={options}
            changeOnSelect
            showSearch
            placeholder={placeholder ?? t('请选择')}
            disabled={disabled}
          />
        );
      case 'custom':
        return <CustomInput field={field} mode={mode} form={form} id={id} />;
    }
  })();

  return (
    <Form.Item
      name={field.name as never}
      label={label}
      htmlFor={id}
      rules={rules}
      extra={help ? t(help) : undefined}
      valuePropName={type === 'switch' ? 'checked' : 'value'}
      validateFirst
    >
      {input}
    </Form.Item>
  );
}

/** Form.Item hands value/onChange to its child; a custom field's render receives them. */
function CustomInput<F>({ field, mode, form, id, value, onChange }: {
  field: FieldDef<F>;
  mode: FormMode;
  form: FormInstance<F>;
  id: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  return <>{field.render?.({ value, onChange: (v) => onChange?.(v), mode, form, id })}</>;
}
