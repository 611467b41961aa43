import { priceTemplateEndpoints } from '@ess/contract/pricing';
import { userEndpoints } from '@ess/contract/system';
import { siteStatementEndpoints, statementEndpoints, type StatementEditAction, type StatementFormat, type StatementWhatIf } from '@ess/contract/statement';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataOption, OptionSource } from '../../components/crud/index.ts';
import { call, callFile } from '../../platform/request.ts';
import { meteringKeys } from './metering.keys.ts';

const quiet = { loading: false } as const;

/** One statement with its lines and journal; with a what-if, the same priced by another template (nothing saved). */
export const useStatement = (id: number | null, whatIf: StatementWhatIf | null = null) =>
  useQuery({
    queryKey: meteringKeys.statement(id ?? 0, whatIf),
    queryFn: () => call(statementEndpoints.one, { id: id!, ...(whatIf ? { whatIf } : {}) }, quiet),
    enabled: id !== null,
    placeholderData: whatIf ? keepPreviousData : undefined,
  });

/** A station's settlement settings, null when it has none yet. */
export const useSiteSettings = (siteId: number | null) =>
  useQuery({
    queryKey: meteringKeys.settings(siteId ?? 0),
    queryFn: () => call(siteStatementEndpoints.unique, { siteId: siteId! }, quiet),
    enabled: siteId !== null,
  });

/** Reads every statement query again after an action. */
export function useStatementRefresh(): () => Promise<void> {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: meteringKeys.statements });
}

export const statementApi = {
  /** A lifecycle action through /edit (decision 0035). */
  act: (id: number, action: StatementEditAction, note: string | null) => call(statementEndpoints.edit, { id, action, note }),
  recompute: (id: number) => call(statementEndpoints.update, { id }),
  download: (id: number, format: StatementFormat) => callFile(statementEndpoints.download, { id, format }),
};

/** The users who may confirm for a party: "name (username)". */
export const userSource: OptionSource = {
  queryKey: meteringKeys.users(),
  load: async () => (await call(userEndpoints.list, {}, quiet)).map((u): DataOption => ({ value: u.id, label: `${u.name} (${u.username})` })),
};

/** The price templates a what-if may use: "name (currency)". */
export const templateSource: OptionSource = {
  queryKey: meteringKeys.templates(),
  load: async () => (await call(priceTemplateEndpoints.list, {}, quiet)).map((p): DataOption => ({ value: p.id, label: `${p.name} (${p.currency})` })),
};
