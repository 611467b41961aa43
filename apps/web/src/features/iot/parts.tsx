import { App } from 'antd';
import type { IotConnectResult } from '@ess/contract/iot';
import { useT } from '../../platform/i18n/useT.ts';
import { LinkButton, useRowCall as useHookRowCall } from '../../components/RowActions.tsx';
import { iotKeys } from './iot.keys.ts';

/** A row action's call: which one is running; the IoT lists are read again after it, whatever its outcome (a refusal's tipMsg is shown by the request layer). */
export const useRowCall = () => useHookRowCall(iotKeys.all);

export { LinkButton };

/** A connection test's outcome: "Connection succeeded", or "Connection failed" with the reason. */
export function useConnectOutcome() {
  const t = useT();
  const { modal } = App.useApp();
  return (r: IotConnectResult) => {
    const title = <span data-testid="outcome-message">{t(r.message)}</span>;
    const content = (
      <div data-testid="outcome">
        {r.reason && <div data-testid="outcome-reason">{t('原因：$1', r.reason)}</div>}
        <div>{t('耗时 $1 ms', Math.round(r.latencyMs))}</div>
      </div>
    );
    if (r.ok) modal.success({ title, content, okText: t('确定') });
    else modal.error({ title, content, okText: t('确定') });
  };
}

/** A positive id from the query string (null when absent or malformed). */
export function idOf(search: URLSearchParams, name: string): number | null {
  const raw = search.get(name);
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}
