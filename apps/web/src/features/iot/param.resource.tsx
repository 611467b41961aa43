import {
  iotQueryEndpoints, iotRelateEndpoints, iotRelateParamAdd, iotRelateParamEdit, type IotRelateCommandRecord, type IotRelateParamRecord,
} from '@ess/contract/iot';
import { productCommandEndpoints } from '@ess/contract/product';
import { defineResource, type FieldDef, type FormMode, type OptionSource, type ResourceDef } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { ValueMapTags } from './relation.resource.tsx';
import { ValueMapField, type ValueMapEntry } from './ValueMapField.tsx';

interface ParamForm {
  id?: number;
  iotParamId: number;
  identifier: string;
  scale?: number;
  offset?: number;
  valueMap?: ValueMapEntry[];
}

const quiet = { loading: false } as const;

/** The platform command's input parameters. */
const inputSource = (iotCommandId: number): OptionSource => ({
  queryKey: iotKeys.options('param', 'input', iotCommandId),
  load: async () => (await call(iotQueryEndpoints.paramList, { commandId: iotCommandId, direction: 'input' }, quiet)).map((x) => ({ value: x.id, label: `${x.name} (${x.identifier})` })),
});

/** The request parameters of the related console command. */
const requestSource = (productId: number, identifier: string): OptionSource => ({
  queryKey: iotKeys.options('console-command', productId, identifier),
  load: async () => {
    const cmd = (await call(productCommandEndpoints.list, { productId }, quiet)).find((c) => c.identifier === identifier);
    return (cmd?.requestParams ?? []).map((x) => ({ value: x.identifier, label: `${x.name} (${x.identifier})` }));
  },
});

/** The parameter relations of one command relation: a platform input → a request parameter of the console command. */
export function paramResource(rc: IotRelateCommandRecord): ResourceDef<IotRelateParamRecord, ParamForm> {
  const fields: FieldDef<ParamForm>[] = [
    { name: 'iotParamId', label: '平台参数', type: 'select', required: true, source: inputSource(rc.iotCommandId) },
    { name: 'identifier', label: '请求参数', type: 'select', required: true, source: requestSource(rc.productId, rc.identifier) },
    { name: 'scale', label: '倍率', type: 'number', help: '产品命令的参数值 × 倍率 + 偏移 = 发给平台的值' },
    { name: 'offset', label: '偏移', type: 'number' },
    {
      name: 'valueMap', label: '值映射', type: 'custom', wide: true, help: '平台值、状态值、名称和颜色各自不能重复',
      render: (p) => <ValueMapField id={p.id} value={p.value} onChange={p.onChange} mode={p.mode} form={p.form as never} />,
    },
  ];
  return defineResource<IotRelateParamRecord, ParamForm>({
    key: iotKeys.paramRelations(rc.id).map(String),
    name: '参数关联',
    endpoints: { list: iotRelateEndpoints.paramList, one: iotRelateEndpoints.paramOne, add: iotRelateEndpoints.paramAdd, edit: iotRelateEndpoints.paramEdit, delete: iotRelateEndpoints.paramDelete },
    columns: [
      { key: 'iotParamIdentifier', title: '平台参数', type: 'code', width: 160 },
      { key: 'identifier', title: '请求参数', type: 'code', width: 160 },
      { key: 'scale', title: '换算（×倍率+偏移）', width: 150, render: (r) => `× ${r.scale} + ${r.offset}` },
      { key: 'valueMap', title: '值映射', width: 220, render: (r) => <ValueMapTags map={r.valueMap} /> },
      { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
    ],
    fixedFilters: { relateCommandId: rc.id },
    form: {
      width: 720,
      columns: 2,
      fields,
      schemas: { add: iotRelateParamAdd, edit: iotRelateParamEdit },
      initialValues: { scale: 1, offset: 0, valueMap: [] },
      toValues: (r) => ({ id: r.id, iotParamId: r.iotParamId, identifier: r.identifier, scale: r.scale, offset: r.offset, valueMap: r.valueMap }),
      toBody: (v: ParamForm, mode: FormMode, id?: number) => ({
        ...(mode === 'edit' ? { id } : {}),
        relateCommandId: rc.id, iotParamId: v.iotParamId, identifier: v.identifier, scale: v.scale ?? 1, offset: v.offset ?? 0, valueMap: v.valueMap ?? [],
      }),
    },
    detail: false,
    actionsWidth: 160,
  });
}
