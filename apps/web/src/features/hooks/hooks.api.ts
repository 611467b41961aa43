import { hookEndpoints } from '@ess/contract/hooks';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';

const quiet = { loading: false } as const;

/** One trigger of the catalogue, by id or by event type. */
export const useTrigger = (q: { id?: number; eventType?: string }) =>
  useQuery({
    queryKey: hookKeys.trigger(q),
    queryFn: () => call(hookEndpoints.triggerOne, q, quiet),
    enabled: q.id !== undefined || !!q.eventType,
  });

/** The whole catalogue (the hook form's trigger picker). */
export const useTriggers = () => useQuery({ queryKey: hookKeys.options(hookKeys.triggers, 'records'), queryFn: () => call(hookEndpoints.triggerList, {}, quiet) });

/** One hook with its settings (the form on /hook/triggerConfig?id=). */
export const useHook = (id: number | null) =>
  useQuery({ queryKey: hookKeys.hook(id ?? 0), queryFn: () => call(hookEndpoints.relateTriggerOne, { id: id! }, quiet), enabled: id !== null });

/** What a script on this trigger can use: the event's fields, the payload's and the company's parameters. */
export const useScriptParams = (eventType: string | null, companyId: number | null) =>
  useQuery({
    queryKey: hookKeys.scriptParams(eventType, companyId),
    queryFn: () => call(hookEndpoints.paramList, { ...(eventType ? { eventType } : {}), ...(companyId ? { companyId } : {}) }, quiet),
  });
