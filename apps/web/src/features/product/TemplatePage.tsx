import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { productTemplateEndpoints, templateAddBatch, type PropertyRecord, type TemplateAdd, type TemplateRecord } from '@ess/contract/product';
import { issueText, ResourceTable, useOptionSource } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/index.ts';
import { call } from '../../platform/request.ts';
import { DATA_TYPE_OPTIONS, templatePropertySource } from './product.options.ts';
import { productSource } from '../../components/options/products.ts';
import { templateResource } from './template.resource.tsx';
import { productKeys } from './product.keys.ts';

/** The template's properties in its order, with names, types and units. */
function TemplateProperties({ id }: { id: number }) {
  const t = useT();
  const q = useQuery({ queryKey: productKeys.templateProperty(id), queryFn: () => call(productTemplateEndpoints.properties, { id }, { loading: false }) });
  const typeLabel = (v: string) => t(DATA_TYPE_OPTIONS.find((o) => o.value === v)?.label ?? v);
  return (
    <Table<PropertyRecord>
      size="small"
      rowKey="id"
      loading={q.isLoading}
      dataSource={q.data ?? []}
      pagination={false}
      columns={[
        { title: t('标识符'), dataIndex: 'identifier' },
        { title: t('属性名称'), dataIndex: 'name' },
        { title: t('数据类型'), dataIndex: 'dataType', render: typeLabel },
        { title: t('单位'), dataIndex: 'unit' },
      ]}
    />
  );
}

function PropertySelect({ productId, value, onChange }: { productId?: number; value?: string[]; onChange?: (v: string[]) => void }) {
  const t = useT();
  const options = useOptionSource(productId ? templatePropertySource(productId) : null);
  return (
    <Select mode="multiple" aria-label={t('属性')} placeholder={t('属性')} value={value} onChange={onChange} options={options.data ?? []} style={{ width: 380 }} optionFilterProp="label" />
  );
}

/** Several templates in one go, all or nothing (POST /template/product/add/batch). */
function BatchModal({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ items: Partial<TemplateAdd>[] }>();
  const products = useOptionSource(productSource);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const values = form.getFieldsValue(true) as { items?: Partial<TemplateAdd>[] };
    const parsed = templateAddBatch.safeParse({ items: (values.items ?? []).map((i) => ({ sort: 0, ...i })) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      void message.error(`${issue.path.join('.')}: ${issueText(issue.message, String(issue.path.at(-1) ?? ''), t)}`);
      return;
    }
    setSaving(true);
    try {
      await call(productTemplateEndpoints.addBatch, parsed.data);
      void message.success(t('保存成功'));
      await client.invalidateQueries({ queryKey: productKeys.template });
      onClose();
    } catch {
      // the request layer showed the refusal
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open width={900} title={t('批量新增产品模板')} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving} okText={t('保存')} cancelText={t('取消')}>
      <Form form={form} initialValues={{ items: [{}] }}>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="start" style={{ display: 'flex' }}>
                  <Form.Item name={[f.name, 'name']} rules={[{ required: true, message: t('$1不能为空', t('模板名称')) }]}>
                    <Input aria-label={t('模板名称')} placeholder={t('模板名称')} maxLength={64} style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'productId']} rules={[{ required: true, message: t('$1不能为空', t('产品')) }]}>
                    <Select aria-label={t('产品')} placeholder={t('产品')} options={products.data ?? []} style={{ width: 220 }} showSearch optionFilterProp="label" />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() => (
                      <Form.Item name={[f.name, 'identifiers']}>
                        <PropertySelect productId={form.getFieldValue(['items', f.name, 'productId']) as number | undefined} />
                      </Form.Item>
                    )}
                  </Form.Item>
                  <Button aria-label={t('删除')} type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
                {t('添加一行')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** /product/template: product templates with their properties; single and batch add. */
export function TemplatePage() {
  const t = useT();
  const [batch, setBatch] = useState(false);
  return (
    <>
      <ResourceTable
        def={templateResource}
        toolbar={() => [
          <Button key="batch" onClick={() => setBatch(true)}>
            {t('批量新增')}
          </Button>,
        ]}
        detailExtra={(r: TemplateRecord) => <TemplateProperties id={r.id} />}
      />
      {batch && <BatchModal onClose={() => setBatch(false)} />}
    </>
  );
}
