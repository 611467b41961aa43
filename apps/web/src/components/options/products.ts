import { DEVICE_TYPE_LABELS, DEVICE_TYPES } from '@ess/contract';
import { productEndpoints } from '@ess/contract/product';
import type { EnumOption, OptionSource } from '../crud/crud.types.ts';
import { call } from '../../platform/request.ts';
import { sharedKeys } from './keys.ts';

export const DEVICE_TYPE_OPTIONS: EnumOption[] = DEVICE_TYPES.map((v) => ({ value: v, label: DEVICE_TYPE_LABELS[v] }));

/** Every product as "name (code)". */
export const productSource: OptionSource = {
  queryKey: sharedKeys.product.list({ as: 'options' }),
  load: async () => (await call(productEndpoints.list, {}, { loading: false })).map((p) => ({ value: p.id, label: `${p.name} (${p.code})` })),
};
