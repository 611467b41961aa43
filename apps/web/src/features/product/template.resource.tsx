import { productTemplateEndpoints as api, templateAdd, templateEdit, type TemplateRecord } from '@ess/contract/product';
import { defineResource } from '../../components/crud/index.ts';
import { templatePropertySource } from './product.options.ts';
import { DEVICE_TYPE_OPTIONS, productSource } from '../../components/options/products.ts';

type TemplateForm = Pick<TemplateRecord, 'name' | 'productId' | 'identifiers' | 'description' | 'sort'>;

/** Product templates: a named, ordered selection of one product's properties (the data retrieval columns). */
export const templateResource = defineResource<TemplateRecord, TemplateForm>({
  key: ['product', 'template'],
  name: '产品模板',
  endpoints: { page: api.page, one: api.one, add: api.add, edit: api.edit, delete: api.delete },
  columns: [
    { key: 'name', title: '模板名称' },
    { key: 'productName', title: '产品' },
    { key: 'productType', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS, width: 130 },
    { key: 'identifiers', title: '属性', type: 'tags', width: 360 },
    { key: 'description', title: '描述', ellipsis: true, width: 180 },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
  ],
  filters: [
    { key: 'keyword', title: '模板名称' },
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'type', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS },
  ],
  form: {
    container: 'drawer',
    width: 640,
    fields: [
      { name: 'name', label: '模板名称', required: true, maxLength: 64 },
      { name: 'productId', label: '产品', type: 'select', source: productSource, required: true },
      {
        name: 'identifiers', label: '属性', type: 'multiSelect', required: true, clearOnChangeOf: ['productId'],
        source: (v) => (v.productId ? templatePropertySource(v.productId) : null), help: '按选择顺序显示',
      },
      { name: 'description', label: '描述', type: 'textarea', maxLength: 500 },
      { name: 'sort', label: '排序', type: 'number' },
    ],
    schemas: { add: templateAdd, edit: templateEdit },
    initialValues: { sort: 0 },
  },
  pageSize: 20,
});
