import { companyEndpoints, type CompanyNode } from '@ess/contract/system';
import type { DataOption, OptionSource } from '../crud/crud.types.ts';
import { call } from '../../platform/request.ts';
import { sharedKeys } from './keys.ts';

const companyOption = (n: CompanyNode): DataOption => ({
  value: n.id,
  label: n.name,
  children: n.children.length ? n.children.map(companyOption) : undefined,
});

/** The caller's company and every company under it. */
export const companyTreeSource: OptionSource = {
  queryKey: sharedKeys.company.tree({ as: 'options' }),
  load: async () => (await call(companyEndpoints.tree, {}, { loading: false })).map(companyOption),
};
