import { Space, Tag } from 'antd';
import {
  commandAdd, commandEdit, eventAdd, eventEdit, productAdd, productCommandEndpoints, productEdit, productEndpoints, productEventEndpoints,
  productPropertyEndpoints, propertyAdd, propertyEdit, staticPropertyAdd, staticPropertyEdit, staticPropertyEndpoints, type CommandRecord,
  type EnumValue, type EventRecord, type ProductRecord, type PropertyRecord, type StaticPropertyRecord,
} from '@ess/contract/product';
import { defineResource, type EnumOption, type FieldDef, type FormMode } from '../../components/crud/index.ts';
import { EnumValuesEditor } from './EnumValuesEditor.tsx';
import { ParamsEditor } from './ParamsEditor.tsx';
import { DATA_TYPE_OPTIONS, LEVEL_OPTIONS, STATIC_TYPE_OPTIONS, YES_NO } from './product.options.ts';
import { DEVICE_TYPE_OPTIONS } from '../../components/options/products.ts';

/** Products (thing models) and, nested under one product, its properties, events, commands and static properties. */

export type ProductForm = Pick<ProductRecord, 'code' | 'name' | 'type' | 'description'>;

export const productResource = defineResource<ProductRecord, ProductForm>({
  key: ['product', 'product'],
  name: '产品',
  endpoints: {
    page: productEndpoints.page,
    one: productEndpoints.one,
    add: productEndpoints.add,
    edit: productEndpoints.edit,
    delete: productEndpoints.delete,
    import: productEndpoints.import,
  },
  columns: [
    { key: 'name', title: '产品名称', builtIn: true },
    { key: 'code', title: '产品编码', type: 'code' },
    { key: 'type', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS, width: 130 },
    { key: 'propertyCount', title: '属性数', type: 'number', width: 80 },
    { key: 'eventCount', title: '事件数', type: 'number', width: 80 },
    { key: 'commandCount', title: '命令数', type: 'number', width: 80 },
    { key: 'deviceCount', title: '设备数', type: 'number', width: 80 },
    { key: 'description', title: '描述', ellipsis: true, width: 200, builtIn: true },
    { key: 'updatedAt', title: '更新时间', type: 'datetime' },
  ],
  filters: [
    { key: 'keyword', title: '编码/名称' },
    { key: 'type', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'code', label: '产品编码', required: true, maxLength: 64, help: '字母、数字、_ . -' },
      { name: 'name', label: '产品名称', required: true, maxLength: 64 },
      { name: 'type', label: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS, required: true, help: '已有设备的产品不能修改设备类型' },
      { name: 'description', label: '描述', type: 'textarea', maxLength: 500 },
    ],
    schemas: { add: productAdd, edit: productEdit },
  },
  canDelete: (r) => r.deviceCount === 0,
  actionsWidth: 300,
  pageSize: 20,
});

const enumCell = (values: EnumValue[] | null) =>
  values?.length ? (
    <Space size={[4, 4]} wrap>
      {values.map((e) => (
        <Tag key={e.value} color={e.colour}>
          {e.value}={e.label}
        </Tag>
      ))}
    </Space>
  ) : (
    '-'
  );

/** Body of a nested form: the parent product on add, the record id on edit. */
const nestedBody = (productId: number) => (values: object, mode: FormMode, id?: number) =>
  mode === 'add' ? { ...values, productId } : { ...values, id };

type PropertyForm = Omit<PropertyRecord, 'id' | 'productId' | 'slot'>;
const numeric = (v: Partial<{ dataType: string }>) => v.dataType === 'float' || v.dataType === 'int';

/** The fields a thing-model property and a static property share (the help texts differ). */
function propertyFields<F extends { dataType: string }>(identifierHelp: string, typeOptions: readonly EnumOption[], typeHelp: string): FieldDef<F>[] {
  const key = (k: 'identifier' | 'name' | 'dataType' | 'unit' | 'enumValues') => k as Extract<keyof F, string>;
  return [
    { name: key('identifier'), label: '标识符', required: true, maxLength: 64, help: identifierHelp },
    { name: key('name'), label: '属性名称', required: true, maxLength: 64 },
    { name: key('dataType'), label: '数据类型', type: 'enum', options: typeOptions, required: true, help: typeHelp },
    { name: key('unit'), label: '单位', maxLength: 16 },
    {
      name: key('enumValues'), label: '枚举值', type: 'custom', visible: (v) => v.dataType === 'enum', required: true,
      render: ({ value, onChange, id }) => <EnumValuesEditor value={value} onChange={onChange} id={id} />,
    },
  ];
}

export const propertyResource = (productId: number) =>
  defineResource<PropertyRecord, PropertyForm>({
    key: ['product', 'property', String(productId)],
    name: '属性',
    endpoints: { page: productPropertyEndpoints.page, one: productPropertyEndpoints.one, add: productPropertyEndpoints.add, edit: productPropertyEndpoints.edit, delete: productPropertyEndpoints.delete },
    fixedFilters: { productId },
    columns: [
      { key: 'identifier', title: '标识符', type: 'code' },
      { key: 'name', title: '属性名称', builtIn: true },
      { key: 'dataType', title: '数据类型', type: 'enum', options: DATA_TYPE_OPTIONS, width: 90 },
      { key: 'unit', title: '单位', width: 70 },
      { key: 'enumValues', title: '枚举值', render: (r) => enumCell(r.enumValues), width: 260 },
      { key: 'cumulative', title: '累计量', type: 'boolean', options: YES_NO, width: 80 },
      { key: 'writable', title: '可写', type: 'boolean', options: YES_NO, width: 70 },
      { key: 'slot', title: '存储位置', type: 'number', width: 90 },
      { key: 'sort', title: '排序', type: 'number', width: 70 },
    ],
    filters: [
      { key: 'keyword', title: '标识符/名称' },
      { key: 'dataType', title: '数据类型', type: 'enum', options: DATA_TYPE_OPTIONS },
    ],
    form: {
      container: 'drawer',
      width: 640,
      fields: [
        ...propertyFields<PropertyForm>('小驼峰格式，如 activePower', DATA_TYPE_OPTIONS, '已有设备时只能在浮点数与整数之间修改'),
        { name: 'cumulative', label: '累计量', type: 'switch', visible: numeric, help: '只增不减的寄存器（如累计电量），按差值结算' },
        { name: 'writable', label: '可写', type: 'switch' },
        { name: 'min', label: '最小值', type: 'number', visible: numeric },
        { name: 'max', label: '最大值', type: 'number', visible: numeric },
        { name: 'sort', label: '排序', type: 'number' },
      ],
      schemas: { add: propertyAdd, edit: propertyEdit },
      initialValues: { dataType: 'float', cumulative: false, writable: false, sort: 0 },
      toBody: (values, mode, id) => {
        const body: Record<string, unknown> = { ...values };
        if (values.dataType !== 'enum') body.enumValues = null;
        if (!numeric(values)) {
          body.cumulative = false;
          body.min = null;
          body.max = null;
        }
        return nestedBody(productId)(body, mode, id);
      },
    },
    pageSize: 20,
  });

type EventForm = Omit<EventRecord, 'id' | 'productId'>;
export const eventResource = (productId: number) =>
  defineResource<EventRecord, EventForm>({
    key: ['product', 'event', String(productId)],
    name: '事件',
    endpoints: { page: productEventEndpoints.page, one: productEventEndpoints.one, add: productEventEndpoints.add, edit: productEventEndpoints.edit, delete: productEventEndpoints.delete },
    fixedFilters: { productId },
    columns: [
      { key: 'identifier', title: '事件标识', type: 'code' },
      { key: 'name', title: '事件名称', builtIn: true },
      { key: 'level', title: '告警等级', type: 'enum', options: LEVEL_OPTIONS, width: 130 },
      { key: 'sort', title: '排序', type: 'number', width: 70 },
    ],
    filters: [
      { key: 'keyword', title: '标识/名称' },
      { key: 'level', title: '告警等级', type: 'enum', options: LEVEL_OPTIONS },
    ],
    form: {
      fields: [
        { name: 'identifier', label: '事件标识', required: true, maxLength: 64, help: '设备上报的故障码：小驼峰或大写下划线（如 PCS_IGBT_FAULT）' },
        { name: 'name', label: '事件名称', required: true, maxLength: 64 },
        { name: 'level', label: '告警等级', type: 'enum', options: LEVEL_OPTIONS, required: true },
        { name: 'sort', label: '排序', type: 'number' },
      ],
      schemas: { add: eventAdd, edit: eventEdit },
      initialValues: { level: 3, sort: 0 },
      toBody: nestedBody(productId),
    },
    detail: false,
    pageSize: 20,
  });

const paramsCell = (list: { identifier: string; name: string }[]) =>
  list.length ? list.map((p) => `${p.name}(${p.identifier})`).join('、') : '-';

type CommandForm = Omit<CommandRecord, 'id' | 'productId'>;
export const commandResource = (productId: number) =>
  defineResource<CommandRecord, CommandForm>({
    key: ['product', 'command', String(productId)],
    name: '命令',
    endpoints: { page: productCommandEndpoints.page, one: productCommandEndpoints.one, add: productCommandEndpoints.add, edit: productCommandEndpoints.edit, delete: productCommandEndpoints.delete },
    fixedFilters: { productId },
    columns: [
      { key: 'identifier', title: '命令标识', type: 'code' },
      { key: 'name', title: '命令名称', builtIn: true },
      { key: 'requestParams', title: '请求参数', render: (r) => paramsCell(r.requestParams), ellipsis: true, width: 280 },
      { key: 'responseParams', title: '响应参数', render: (r) => paramsCell(r.responseParams), ellipsis: true, width: 200 },
      { key: 'sort', title: '排序', type: 'number', width: 70 },
    ],
    filters: [{ key: 'keyword', title: '标识/名称' }],
    form: {
      container: 'drawer',
      width: 720,
      fields: [
        { name: 'identifier', label: '命令标识', required: true, maxLength: 64, help: '小驼峰格式，如 setPower' },
        { name: 'name', label: '命令名称', required: true, maxLength: 64 },
        { name: 'requestParams', label: '请求参数', type: 'custom', render: ({ value, onChange, id }) => <ParamsEditor value={value} onChange={onChange} id={id} /> },
        { name: 'responseParams', label: '响应参数', type: 'custom', render: ({ value, onChange, id }) => <ParamsEditor value={value} onChange={onChange} id={id} /> },
        { name: 'sort', label: '排序', type: 'number' },
      ],
      schemas: { add: commandAdd, edit: commandEdit },
      initialValues: { requestParams: [], responseParams: [], sort: 0 },
      toBody: nestedBody(productId),
    },
    pageSize: 20,
  });

type StaticForm = Omit<StaticPropertyRecord, 'id' | 'productId'>;
export const staticResource = (productId: number) =>
  defineResource<StaticPropertyRecord, StaticForm>({
    key: ['product', 'static', String(productId)],
    name: '静态属性',
    endpoints: { page: staticPropertyEndpoints.page, one: staticPropertyEndpoints.one, add: staticPropertyEndpoints.add, edit: staticPropertyEndpoints.edit, delete: staticPropertyEndpoints.delete },
    fixedFilters: { productId },
    columns: [
      { key: 'identifier', title: '标识符', type: 'code' },
      { key: 'name', title: '属性名称', builtIn: true },
      { key: 'dataType', title: '数据类型', type: 'enum', options: STATIC_TYPE_OPTIONS, width: 90 },
      { key: 'unit', title: '单位', width: 70 },
      { key: 'enumValues', title: '枚举值', render: (r) => enumCell(r.enumValues), width: 240 },
      { key: 'required', title: '必填', type: 'boolean', options: YES_NO, width: 70 },
      { key: 'sort', title: '排序', type: 'number', width: 70 },
    ],
    filters: [{ key: 'keyword', title: '标识符/名称' }],
    form: {
      container: 'drawer',
      width: 640,
      fields: [
        ...propertyFields<StaticForm>('小驼峰格式，如 ratedCapacity', STATIC_TYPE_OPTIONS, '设备已填写值后不能修改'),
        { name: 'required', label: '必填', type: 'switch' },
        { name: 'sort', label: '排序', type: 'number' },
      ],
      schemas: { add: staticPropertyAdd, edit: staticPropertyEdit },
      initialValues: { dataType: 'string', required: false, sort: 0 },
      toBody: (values, mode, id) => nestedBody(productId)({ ...values, enumValues: values.dataType === 'enum' ? values.enumValues : null }, mode, id),
    },
    detail: false,
    pageSize: 20,
  });
