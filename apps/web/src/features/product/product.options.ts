import {
  PARAM_DATA_TYPES, PROPERTY_DATA_TYPE_LABELS, PROPERTY_DATA_TYPES, STATIC_DATA_TYPE_LABELS, STATIC_DATA_TYPES,
} from '@ess/contract';
import { productTemplateEndpoints } from '@ess/contract/product';
import type { EnumOption, OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { productKeys } from './product.keys.ts';

/** Pickers and enumerations of the product screens. */

export const DATA_TYPE_OPTIONS: EnumOption[] = PROPERTY_DATA_TYPES.map((v) => ({ value: v, label: PROPERTY_DATA_TYPE_LABELS[v] }));
export const STATIC_TYPE_OPTIONS: EnumOption[] = STATIC_DATA_TYPES.map((v) => ({ value: v, label: STATIC_DATA_TYPE_LABELS[v] }));
export const PARAM_TYPE_OPTIONS: EnumOption[] = PARAM_DATA_TYPES.map((v) => ({
  value: v,
  label: v === 'object' ? '对象' : PROPERTY_DATA_TYPE_LABELS[v],
}));
export const LEVEL_OPTIONS: EnumOption[] = [
  { value: 1, label: '一级（最严重）', color: 'error' },
  { value: 2, label: '二级', color: 'error' },
  { value: 3, label: '三级', color: 'warning' },
  { value: 4, label: '四级', color: 'processing' },
  { value: 5, label: '五级', color: 'default' },
];
export const YES_NO: EnumOption[] = [
  { value: true, label: '是', color: 'processing' },
  { value: false, label: '否', color: 'default' },
];

/** The properties a template of a product may select. */
export const templatePropertySource = (productId: number): OptionSource => ({
  queryKey: productKeys.templateProperties(productId),
  load: async () =>
    (await call(productTemplateEndpoints.properties, { productId }, { loading: false })).map((p) => ({
      value: p.identifier,
      label: `${p.name} (${p.identifier})`,
    })),
});
